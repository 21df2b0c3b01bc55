// The RPM package (npm run build:rpm), where PETSTORE_RPM names it and rpm is
// installed (Debian's `rpm`: rpm, rpmbuild, rpm2cpio): its header and what it
// holds; rpmlint's report (where rpmlint is installed); then installed into a
// scratch root (rpm --root DIR --initdb, rpm --root DIR --nodeps -i), its
// /usr/bin/petstore run against the sandbox with no Node.js on PATH (the
// aarch64 one under qemu-user on another machine), and erased, leaving none
// of its files. CI builds both packages and runs these tests on each.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
// @ts-expect-error: the build scripts are plain JavaScript without type declarations
import { FILES, LICENCE_FILES, OWNED_DIRECTORIES } from '../scripts/rpm.mjs';
// @ts-expect-error: the build scripts are plain JavaScript without type declarations
import { pinnedNode, runOn } from '../scripts/targets.mjs';
import { BIN, runsHere, spawnAsync } from './helpers.js';
import { startSandbox } from './support/sandbox.js';

const ROOT = path.dirname(path.dirname(BIN));
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const rpmFile = process.env.PETSTORE_RPM ? path.resolve(process.env.PETSTORE_RPM) : '';
const arch = rpmFile.match(/\.([a-z0-9_]+)\.rpm$/)?.[1] ?? '';
const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const sh = (command: string, args: string[], env?: NodeJS.ProcessEnv) =>
  spawnSync(command, args, { encoding: 'utf8', maxBuffer: 2 ** 28, ...(env && { env }) });

const rpmHere = runsHere(
  rpmFile !== '' && (has('rpm') || Boolean(process.env.CI)),
  'the RPM package',
  'apt-get install rpm, npm run build:rpm, then PETSTORE_RPM=dist/petstore-<version>-1.x86_64.rpm npx vitest run --config vitest.packaging.config.ts test/rpm.test.ts',
);
const rpmlintHere = runsHere(
  rpmHere && (has('rpmlint') || Boolean(process.env.CI)),
  "rpmlint's report on the RPM package",
  'apt-get install rpmlint, then run the RPM package tests',
);

/** rpmlint's warnings that stay, each with its reason in docs/install.md ("rpmlint"). */
const RPMLINT_WARNINGS = [
  'W: position-independent-executable-suggested /usr/bin/petstore',
  'W: no-manual-page-for-binary petstore',
  'W: manpage-not-compressed bz2 /usr/share/man/man1/petstore.1.gz',
  'W: invalid-license MIT',
  'W: binary-or-shlib-calls-gethostbyname /usr/bin/petstore',
];

describe.runIf(rpmHere)('RPM package (PETSTORE_RPM)', () => {
  let scratch = '';
  /** rpm on the scratch root, its database at the usual /var/lib/rpm inside it. */
  const rpm = (args: string[]) => sh('rpm', ['--root', scratch, '--dbpath', '/var/lib/rpm', ...args]);
  const installed = (name: string) => path.join(scratch, name);
  beforeAll(() => {
    expect(has('rpm'), 'rpm is not installed (CI installs it in .ci/run)').toBe(true);
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-rpm-root-'));
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test('is dist/petstore-<version>-1.<arch>.rpm: name, version, licence, summary, URL and description from package.json', () => {
    expect(path.basename(rpmFile)).toBe(`petstore-${pkg.version}-1.${arch}.rpm`);
    expect(['x86_64', 'aarch64']).toContain(arch);
    const tags = ['NAME', 'VERSION', 'RELEASE', 'ARCH', 'LICENSE', 'SUMMARY', 'URL', 'PACKAGER', 'OS'];
    const query = sh('rpm', ['-qp', '--queryformat', tags.map((tag) => `%{${tag}}\\n`).join(''), rpmFile]);
    expect(query.status, query.stderr).toBe(0);
    expect(query.stdout.split('\n').slice(0, -1)).toEqual([
      'petstore',
      pkg.version,
      '1',
      arch,
      'MIT',
      'Command-line client for the pet store service',
      pkg.homepage,
      pkg.author,
      'linux',
    ]);
    const description = sh('rpm', ['-qp', '--queryformat', '%{DESCRIPTION}', rpmFile]).stdout;
    expect(description.split('\n')[0]).toBe("petstore lists the pet store service's animals, adds one or thousands from a");
    expect(description).toContain(`carries its own Node.js\n${pinnedNode(ROOT)}, with its manual page and bash, zsh and fish completion.`);
    for (const line of description.split('\n')) expect(line.length).toBeLessThan(80);
    expect(sh('rpm', ['-qp', '--changelog', rpmFile]).stdout).toMatch(
      new RegExp(`^\\* \\w{3} \\w{3} \\d{2} \\d{4} ${pkg.author} - ${pkg.version.replaceAll('.', '\\.')}-1\n- petstore `),
    );
  });

  test('holds the executable, the man page, bash, zsh and fish completion and the licences, owned by root, and nothing else', () => {
    // path, mode (octal), owner, group, for each file and directory.
    const dump = sh('rpm', ['-qp', '--queryformat', '[%{FILENAMES} %{FILEMODES:octal} %{FILEUSERNAME} %{FILEGROUPNAME}\\n]', rpmFile]);
    expect(dump.status, dump.stderr).toBe(0);
    const entries = Object.fromEntries(
      dump.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(' '))
        .map(([name, mode, user, group]) => [name, `${mode} ${user}:${group}`]),
    );
    const licences = (LICENCE_FILES as string[]).map((file) => `/usr/share/licenses/petstore/${file}`);
    expect(entries).toEqual({
      ...Object.fromEntries((OWNED_DIRECTORIES as string[]).map((dir) => [dir, '40755 root:root'])),
      ...Object.fromEntries(
        (FILES as string[]).map((file) => [file, file === '/usr/bin/petstore' ? '100755 root:root' : '100644 root:root']),
      ),
      ...Object.fromEntries(licences.map((file) => [file, '100644 root:root'])),
    });
    expect(sh('rpm', ['-qp', '--licensefiles', rpmFile]).stdout.trim().split('\n')).toEqual(licences);
  });

  test('requires only the C and C++ runtime libraries the executable links against, glibc 2.28 at most', () => {
    const requires = sh('rpm', ['-qp', '--requires', rpmFile]).stdout.trim().split('\n');
    const libraries = requires.filter((r) => !r.startsWith('rpmlib(') && r !== 'rtld(GNU_HASH)');
    const loader = arch === 'x86_64' ? 'ld-linux-x86-64.so.2' : 'ld-linux-aarch64.so.1';
    expect([...new Set(libraries.map((r) => r.replace(/\(.*$/, '')))].sort()).toEqual(
      ['libc.so.6', 'libdl.so.2', 'libgcc_s.so.1', 'libm.so.6', 'libpthread.so.0', 'libstdc++.so.6', loader].sort(),
    );
    const glibc = libraries.flatMap((r) => /\(GLIBC_([\d.]+)\)/.exec(r)?.[1] ?? []).map((v) => v.split('.').map(Number));
    expect(glibc.length).toBeGreaterThan(0);
    for (const [major = 0, minor = 0] of glibc) expect(major * 100 + minor, `GLIBC_${major}.${minor}`).toBeLessThanOrEqual(228);
  });

  test.runIf(rpmlintHere)('rpmlint reports no error; the warnings that stay are those docs/install.md explains', () => {
    expect(has('rpmlint'), 'rpmlint is not installed (CI installs it in .ci/run)').toBe(true);
    // As a user runs it: the filters beside the package (dist/petstore.rpmlintrc) are read on their own.
    const lint = sh('rpmlint', [rpmFile], { ...process.env, LANG: 'C.UTF-8' });
    expect(lint.stdout).toContain(`rpmlintrc: ${path.join(path.dirname(rpmFile), 'petstore.rpmlintrc')}`);
    expect(lint.stdout).toMatch(/ 0 errors, 5 warnings, /);
    expect(lint.status, lint.stdout).toBe(0);
    const reported = lint.stdout.split('\n').filter((line) => line.startsWith(`petstore.${arch}: `));
    expect(reported.map((line) => line.slice(`petstore.${arch}: `.length)).sort()).toEqual([...RPMLINT_WARNINGS].sort());
    const docs = fs.readFileSync(path.join(ROOT, 'docs', 'install.md'), 'utf8');
    for (const warning of RPMLINT_WARNINGS) expect(docs).toContain(`\`${warning.split(' ')[1]}\``);
  });

  test('rpm --root DIR --nodeps -i installs it into a scratch root: the files are what the build made', () => {
    expect(rpm(['--initdb']).status).toBe(0);
    // An aarch64 package on another machine: its files are only unpacked here, and run under qemu-user below.
    const install = rpm(['--nodeps', ...(arch === 'aarch64' && process.arch !== 'arm64' ? ['--ignorearch'] : []), '-i', rpmFile]);
    expect(install.status, install.stderr).toBe(0);
    expect(rpm(['-q', 'petstore']).stdout).toBe(`petstore-${pkg.version}-1.${arch}\n`);
    // The ELF header's machine: x86-64 (62) or AArch64 (183).
    const elf = fs.readFileSync(installed('usr/bin/petstore')).subarray(0, 20);
    expect(elf.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(elf.readUInt16LE(18)).toBe(arch === 'x86_64' ? 62 : 183);
    expect(gunzipSync(fs.readFileSync(installed('usr/share/man/man1/petstore.1.gz'))).toString('utf8')).toBe(
      fs.readFileSync(path.join(ROOT, 'dist/man/petstore.1'), 'utf8'),
    );
    for (const [shell, file] of [
      ['bash', 'usr/share/bash-completion/completions/petstore'],
      ['zsh', 'usr/share/zsh/site-functions/_petstore'],
      ['fish', 'usr/share/fish/vendor_completions.d/petstore.fish'],
    ] as const) {
      const printed = sh(process.execPath, [BIN, 'completion', shell], {
        PATH: '/usr/bin:/bin',
        HOME: os.tmpdir(),
        NODE_DISABLE_COMPILE_CACHE: '1',
      });
      expect(printed.status).toBe(0);
      expect(fs.readFileSync(installed(file), 'utf8'), shell).toBe(printed.stdout);
    }
    const licences = path.join(scratch, 'usr/share/licenses/petstore');
    expect(fs.readFileSync(path.join(licences, 'LICENSE'), 'utf8')).toBe(fs.readFileSync(path.join(ROOT, 'LICENSE'), 'utf8'));
    expect(fs.readFileSync(path.join(licences, 'THIRD-PARTY-NOTICES.txt'), 'utf8')).toBe(
      fs.readFileSync(path.join(ROOT, 'dist/THIRD-PARTY-NOTICES.txt'), 'utf8'),
    );
    expect(fs.readFileSync(path.join(licences, 'NODEJS-LICENSE'), 'utf8')).toMatch(/^Node\.js is licensed for use as follows:\n/);
  }, 120_000);

  // Each start of the aarch64 executable under qemu-user takes seconds: a longer timeout.
  test('its /usr/bin/petstore, with no Node.js on PATH, prints its man page, adds and lists against the sandbox', async () => {
    const bin = installed('usr/bin');
    expect(fs.readdirSync(bin)).toEqual(['petstore']);
    const [command = '', ...prefix] = runOn(arch === 'x86_64' ? 'linux-x64' : 'linux-arm64', path.join(bin, 'petstore')) as string[];
    // qemu-user, when it runs the executable, is found on this PATH, not on the one petstore gets.
    const runner = path.isAbsolute(command) ? command : sh('sh', ['-c', `command -v ${command}`]).stdout.trim();
    const petstore = (args: string[], env: NodeJS.ProcessEnv) => spawnAsync(runner, [...prefix, ...args], env);
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-rpm-home-'));
    // PATH holds the scratch root's /usr/bin alone: no Node.js, no shell tools.
    const base = { PATH: bin, HOME: home };
    expect(await petstore(['--version'], base)).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    // Its man page, also where no man page is installed: the page the package installed.
    expect(await petstore(['help', 'man'], base)).toEqual({
      code: 0,
      stdout: gunzipSync(fs.readFileSync(installed('usr/share/man/man1/petstore.1.gz'))).toString('utf8'),
      stderr: '',
    });
    const sandbox = await startSandbox({ key: 'rpm-key', firstId: 1n });
    try {
      const env = { ...base, PETSTORE_API_KEY: 'rpm-key', PETSTORE_BASE_URL: sandbox.baseUrl };
      const rex = '{"id":1,"name":"Rex","categoryId":1,"status":"available"}';
      expect(await petstore(['add', '--name', 'Rex', '--category-id', '1', '--status', 'available', '--json'], env)).toEqual({
        code: 0,
        stdout: `${rex}\n`,
        stderr: '',
      });
      expect(await petstore(['list', '--json'], env)).toEqual({ code: 0, stdout: `[${rex}]\n`, stderr: '' });
      expect(sandbox.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v1/pets', 'GET /v1/pets?limit=20']);
    } finally {
      await sandbox.close();
    }
  }, 120_000);

  test('rpm -e petstore leaves none of its files and no record of it: only the folders a system owns anyway', () => {
    const erased = rpm(['-e', 'petstore']);
    expect(erased.status, erased.stderr).toBe(0);
    expect(rpm(['-q', 'petstore'])).toMatchObject({ status: 1, stdout: 'package petstore is not installed\n' });
    const left: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const name = path.join(dir, entry.name);
        if (name === installed('var/lib/rpm')) continue;
        left.push(`/${path.relative(scratch, name)}${entry.isDirectory() ? '/' : ''}`);
        if (entry.isDirectory()) walk(name);
      }
    };
    walk(scratch);
    // On Fedora, RHEL and Amazon Linux the `filesystem` package owns these.
    expect(left.sort()).toEqual(
      ['/usr/', '/usr/bin/', '/usr/share/', '/usr/share/licenses/', '/usr/share/man/', '/usr/share/man/man1/', '/var/', '/var/lib/'].sort(),
    );
  }, 120_000);
});
