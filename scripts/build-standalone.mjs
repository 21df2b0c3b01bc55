// Builds the standalone executable dist/petstore-<platform>-<arch>, which runs
// without any Node.js installed: a copy of the pinned Node.js binary (the
// version in .nvmrc and scripts/pinned-node) carrying petstore as a single
// executable application. Its main script is dist/standalone.cjs, with
// dist/petstore.cjs and its source map as assets (see src/standalone.ts).
//
//   node scripts/build-standalone.mjs [--target linux-x64|linux-arm64] [--strip]
//
// The target defaults to this machine's. For this machine the Node binary is
// node_modules/node's (npm ci installed it); for another, the `node-<target>`
// package of the pinned version, fetched with `npm pack` and checked against
// the integrity that package-lock.json records. The binary is stripped of its
// symbols first when a strip for its architecture is on PATH (required with
// --strip): after the blob is injected, stripping would break the executable.
// The preparation blob, with the main script's code cache, comes from that
// binary's --experimental-sea-config, run under qemu-user for another
// architecture (the V8 code cache must come from the same Node on the same
// CPU architecture), and is injected with postject. Beside it goes
// dist/petstore-<target>.NOTICES.txt: petstore's LICENSE, the bundle's
// third-party notice and Node.js's own LICENSE.
// Run after scripts/build.mjs (npm run build:standalone does both).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { inject } from 'postject';
import { ARCHITECTURES, HOST, pinnedNode, runOn, toolFor } from './targets.mjs';

// Node's documented sentinel for single executable applications.
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = (name) => join(root, 'dist', name);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function fail(message) {
  process.stderr.write(`build:standalone: ${message}\n`);
  process.exit(1);
}

let options;
try {
  options = parseArgs({ options: { target: { type: 'string', default: HOST }, strip: { type: 'boolean', default: false } } }).values;
} catch (error) {
  fail(error.message);
}
const { target } = options;
const [platform, arch] = target.split('-');
// Only Linux ELF executables are built and tested: docs/install.md says what macOS and Windows would need.
if (platform !== 'linux' || !ARCHITECTURES[arch]) {
  fail(
    `--target ${target}: the targets are ${Object.keys(ARCHITECTURES)
      .map((a) => `linux-${a}`)
      .join(' and ')} (see docs/install.md)`,
  );
}
if (!HOST.startsWith('linux-')) fail(`executables are built on Linux only (this is ${HOST})`);
for (const file of ['petstore.cjs', 'petstore.cjs.map', 'standalone.cjs', 'THIRD-PARTY-NOTICES.txt']) {
  if (!existsSync(dist(file))) fail(`dist/${file} is missing: run "npm run build" first`);
}
const pinned = pinnedNode(root);

/** The pinned Node's binary and LICENSE for `target`: node_modules/node's for this machine, else fetched. */
function nodeFor(scratch) {
  if (target === HOST) {
    const require = createRequire(join(root, 'package.json'));
    let nodePackage;
    try {
      nodePackage = require.resolve('node/package.json');
    } catch {
      fail(`the pinned Node.js ${pinned} is not in node_modules: run "npm ci" (it installs it where the registry has it for ${HOST})`);
    }
    if (JSON.parse(readFileSync(nodePackage, 'utf8')).version !== pinned)
      fail(`node_modules/node is not the pinned ${pinned}: run "npm ci"`);
    try {
      const binaryPackage = dirname(createRequire(nodePackage).resolve(`node-${target}/package.json`));
      return { binary: join(dirname(nodePackage), 'bin', 'node'), licence: join(binaryPackage, 'LICENSE') };
    } catch {
      fail(`node-${target} (with Node.js's LICENSE) is missing from node_modules/node: run "npm ci"`);
    }
  }
  const name = `node-${target}`;
  const locked = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages[`node_modules/${name}`];
  if (locked?.version !== pinned) fail(`package-lock.json has no ${name} ${pinned} (scripts/pinned-node lists it): run "npm install"`);
  const cache = join(root, 'node_modules', '.cache', 'petstore-standalone');
  const tarball = join(cache, `${name}-${pinned}.tgz`);
  if (!existsSync(tarball)) {
    mkdirSync(cache, { recursive: true });
    const packed = spawnSync('npm', ['pack', `${name}@${pinned}`, '--pack-destination', cache, '--silent'], { encoding: 'utf8' });
    if (packed.status !== 0 || !existsSync(tarball)) fail(`npm pack ${name}@${pinned} failed:\n${packed.stderr}`);
  }
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (integrity !== locked.integrity) {
    rmSync(tarball);
    fail(`${name}-${pinned}.tgz has integrity ${integrity}, not package-lock.json's ${locked.integrity}`);
  }
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', scratch, 'package/bin/node', 'package/LICENSE'], { encoding: 'utf8' });
  if (untar.status !== 0) fail(`tar could not unpack ${tarball}:\n${untar.stderr}`);
  return { binary: join(scratch, 'package', 'bin', 'node'), licence: join(scratch, 'package', 'LICENSE') };
}

const name = `petstore-${target}`;
const output = dist(name);
const scratch = mkdtempSync(join(tmpdir(), 'petstore-sea-'));
let nodeLicence;
let stripped = false;
try {
  const node = nodeFor(scratch);
  nodeLicence = readFileSync(node.licence, 'utf8');
  const blob = join(scratch, 'sea-prep.blob');
  const config = join(scratch, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify({
      main: dist('standalone.cjs'),
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      assets: { 'petstore.cjs': dist('petstore.cjs'), 'petstore.cjs.map': dist('petstore.cjs.map') },
    }),
  );
  const [command, ...args] = runOn(target, node.binary);
  const prepared = spawnSync(command, [...args, '--experimental-sea-config', config], { encoding: 'utf8' });
  if (prepared.error?.code === 'ENOENT') fail(`${command} is needed to run the ${target} Node.js here: ${toolFor(target).qemuHint}`);
  if (prepared.status !== 0) fail(`node --experimental-sea-config failed:\n${prepared.stderr}`);
  rmSync(output, { force: true });
  copyFileSync(node.binary, output);
  chmodSync(output, 0o755);
  const strip = toolFor(target).strip;
  const result = spawnSync(strip, ['--strip-all', output], { encoding: 'utf8' });
  stripped = result.status === 0;
  if (!stripped && options.strip)
    fail(`${strip} --strip-all failed (${toolFor(target).stripHint}):\n${result.error?.message ?? result.stderr}`);
  if (!stripped)
    process.stderr.write(`build:standalone: ${strip} is not usable, so the executable keeps its symbols (${toolFor(target).stripHint})\n`);
  // postject's ELF reader warns once per note section without a name in the
  // string table, which Node's binary has (harmless): those lines are dropped.
  const warn = console.warn;
  console.warn = (...args) => (/^warning: Can't find string offset for section name/.test(String(args[0])) ? undefined : warn(...args));
  try {
    await inject(output, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SEA_FUSE });
  } finally {
    console.warn = warn;
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

// It must run with nothing around it: no PATH, no HOME.
const [probeCommand, ...probeArgs] = runOn(target, output);
const probe = spawnSync(probeCommand, [...probeArgs, '--version'], { env: {}, encoding: 'utf8' });
if (probe.status !== 0 || probe.stdout !== `${pkg.version}\n`) fail(`${name} --version gave ${JSON.stringify(probe)}`);
const rule = `\n\n${'='.repeat(78)}\n\n`;
const notices = [
  `${name} is petstore ${pkg.version} inside Node.js ${pinned}.`,
  `petstore\n\n${readFileSync(join(root, 'LICENSE'), 'utf8').trim()}`,
  readFileSync(dist('THIRD-PARTY-NOTICES.txt'), 'utf8').trim(),
  `Node.js ${pinned}\n\n${nodeLicence.trim()}`,
];
writeFileSync(dist(`${name}.NOTICES.txt`), `${notices.join(rule)}\n`);
process.stderr.write(
  `built ${output} (${(statSync(output).size / 2 ** 20).toFixed(1)} MiB${stripped ? ', stripped' : ''}), Node.js ${pinned}\n`,
);
