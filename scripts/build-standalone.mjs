// Builds the standalone executable dist/petstore-<platform>-<arch>, which runs
// without any Node.js installed: a copy of the pinned Node.js binary (the
// exact `node` devDependency) carrying petstore as a single executable
// application. Its main script is dist/standalone.cjs, with dist/petstore.cjs
// and its source map as assets (see src/standalone.ts); the preparation blob
// comes from the pinned Node's --experimental-sea-config and is injected with
// postject.
// Beside it goes dist/petstore-<platform>-<arch>.NOTICES.txt: petstore's
// LICENSE, the bundle's third-party notice and Node.js's own LICENSE.
// Run after scripts/build.mjs (npm run build:standalone does both).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'postject';

// Node's documented sentinel for single executable applications.
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = (name) => join(root, 'dist', name);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function fail(message) {
  process.stderr.write(`build:standalone: ${message}\n`);
  process.exit(1);
}

// Only ELF is built and tested here; Mach-O and PE need signing steps this script does not have.
if (process.platform !== 'linux') fail(`only Linux executables are built so far (this is ${process.platform})`);
for (const file of ['petstore.cjs', 'petstore.cjs.map', 'standalone.cjs', 'THIRD-PARTY-NOTICES.txt']) {
  if (!existsSync(dist(file))) fail(`dist/${file} is missing: run "npm run build" first`);
}

// The pinned Node, whichever Node runs this script.
const require = createRequire(join(root, 'package.json'));
const nodePackage = require.resolve('node/package.json');
const pinned = pkg.devDependencies.node;
if (JSON.parse(readFileSync(nodePackage, 'utf8')).version !== pinned) fail(`node_modules/node is not the pinned ${pinned}: run "npm ci"`);
const nodeBinary = join(dirname(nodePackage), 'bin', 'node');
// Node.js's LICENSE comes with the binary's package, which the `node` package's install script fetched.
const binaryPackage = `node-${process.platform}-${process.arch}`;
let nodeLicence;
try {
  nodeLicence = join(dirname(createRequire(nodePackage).resolve(`${binaryPackage}/package.json`)), 'LICENSE');
} catch {
  fail(`${binaryPackage} (with Node.js's LICENSE) is missing from node_modules/node: run "npm ci"`);
}

const name = `petstore-${process.platform}-${process.arch}`;
const output = dist(name);
const scratch = mkdtempSync(join(tmpdir(), 'petstore-sea-'));
try {
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
  const prepared = spawnSync(nodeBinary, ['--experimental-sea-config', config], { encoding: 'utf8' });
  if (prepared.status !== 0) fail(`node --experimental-sea-config failed:\n${prepared.stderr}`);
  rmSync(output, { force: true });
  copyFileSync(nodeBinary, output);
  chmodSync(output, 0o755);
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
const probe = spawnSync(output, ['--version'], { env: {}, encoding: 'utf8' });
if (probe.status !== 0 || probe.stdout !== `${pkg.version}\n`) fail(`${name} --version gave ${JSON.stringify(probe)}`);

const rule = `\n\n${'='.repeat(78)}\n\n`;
const notices = [
  `${name} is petstore ${pkg.version} inside Node.js ${pinned}.`,
  `petstore\n\n${readFileSync(join(root, 'LICENSE'), 'utf8').trim()}`,
  readFileSync(dist('THIRD-PARTY-NOTICES.txt'), 'utf8').trim(),
  `Node.js ${pinned}\n\n${readFileSync(nodeLicence, 'utf8').trim()}`,
];
writeFileSync(dist(`${name}.NOTICES.txt`), `${notices.join(rule)}\n`);
process.stderr.write(`built ${output} (${(statSync(output).size / 2 ** 20).toFixed(1)} MiB), Node.js ${pinned}\n`);
