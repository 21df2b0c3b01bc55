// The Debian package (npm run build:deb), where PETSTORE_DEB names it: what
// it holds, its control fields and copyright file; and, with
// PETSTORE_DEB_INSTALL=1 (as root on Debian or Ubuntu, as CI runs it), that
// `apt-get install` of it gives a working /usr/bin/petstore, `man petstore`
// and Tab completion in a new bash, and that `apt-get remove` leaves nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';
import { BIN, runsHere, spawnAsync } from './helpers.js';
import { interactiveShell } from './support/interactive-shell.js';
import { startSandbox } from './support/sandbox.js';

const ROOT = path.dirname(path.dirname(BIN));
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const deb = process.env.PETSTORE_DEB ? path.resolve(process.env.PETSTORE_DEB) : '';
const arch = deb.match(/_([a-z0-9]+)\.deb$/)?.[1] ?? '';
const sh = (command: string, args: string[], options: { env?: NodeJS.ProcessEnv } = {}) =>
  spawnSync(command, args, { encoding: 'utf8', maxBuffer: 2 ** 28, ...options });

/** What the package installs, and the mode of each file. */
const FILES = {
  'usr/bin/petstore': '-rwxr-xr-x',
  'usr/share/bash-completion/completions/petstore': '-rw-r--r--',
  'usr/share/doc/petstore/changelog.Debian.gz': '-rw-r--r--',
  'usr/share/doc/petstore/copyright': '-rw-r--r--',
  'usr/share/fish/vendor_completions.d/petstore.fish': '-rw-r--r--',
  'usr/share/lintian/overrides/petstore': '-rw-r--r--',
  'usr/share/man/man1/petstore.1.gz': '-rw-r--r--',
  'usr/share/zsh/vendor-completions/_petstore': '-rw-r--r--',
};

const debHere = runsHere(
  deb !== '',
  'the Debian package',
  'npm run build:deb, then PETSTORE_DEB=dist/petstore_<version>_amd64.deb npx vitest run --config vitest.packaging.config.ts test/deb.test.ts',
);
const installHere = runsHere(
  debHere && process.env.PETSTORE_DEB_INSTALL === '1',
  'the installed Debian package',
  'as root on Debian or Ubuntu, PETSTORE_DEB_INSTALL=1 with PETSTORE_DEB set; it runs apt-get install',
);

describe.runIf(debHere)('Debian package (PETSTORE_DEB)', () => {
  let unpacked = '';
  beforeAll(() => {
    unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-deb-'));
  });
  const file = (name: string) => fs.readFileSync(path.join(unpacked, name));

  test(`is dist/petstore_<version>_<arch>.deb and holds exactly the executable, man page, completions and documentation, owned by root`, () => {
    expect(path.basename(deb)).toBe(`petstore_${pkg.version}_${arch}.deb`);
    expect(['amd64', 'arm64']).toContain(arch);
    const listed = sh('dpkg-deb', ['--contents', deb]).stdout.trim().split('\n');
    const files = listed.filter((line) => !line.startsWith('d')).map((line) => line.split(/\s+/));
    expect(Object.fromEntries(files.map((f) => [f.at(-1)!.replace(/^\.\//, ''), f[0]]))).toEqual(FILES);
    for (const line of listed) expect(line.split(/\s+/)[1]).toBe('root/root');
    for (const line of listed.filter((l) => l.startsWith('d'))) expect(line.slice(0, 10)).toBe('drwxr-xr-x');
    expect(sh('dpkg-deb', ['--extract', deb, unpacked]).status).toBe(0);
  });

  test("control: package.json's version, the architecture, Depends on the libraries the executable links against", () => {
    const field = (name: string) => sh('dpkg-deb', ['--field', deb, name]).stdout.trim();
    expect(field('Package')).toBe('petstore');
    expect(field('Version')).toBe(pkg.version);
    expect(field('Architecture')).toBe(arch);
    expect(field('Maintainer')).toBe(pkg.author);
    expect(field('Section')).toBe('utils');
    expect(field('Priority')).toBe('optional');
    expect(field('Homepage')).toBe(pkg.homepage);
    expect(field('Recommends')).toBe('bash-completion');
    expect(field('Description').split('\n')[0]).toBe('command-line client for the pet store service');
    const depends = field('Depends');
    expect(depends).toMatch(/^libc6 \(>= 2\.\d+\), libgcc-s1 \(>= [\d.]+\), libstdc\+\+6 \(>= [\d.]+\)$/);
    const needed = [...sh('readelf', ['--dynamic', path.join(unpacked, 'usr/bin/petstore')]).stdout.matchAll(/\[(lib[^\]]+|ld-[^\]]+)\]/g)];
    expect(needed.map((m) => m[1]).sort()).toEqual(
      [
        'libc.so.6',
        'libdl.so.2',
        'libgcc_s.so.1',
        'libm.so.6',
        'libpthread.so.0',
        'libstdc++.so.6',
        arch === 'amd64' ? 'ld-linux-x86-64.so.2' : 'ld-linux-aarch64.so.1',
      ].sort(),
    );
    const installed = Number(field('Installed-Size'));
    expect(installed).toBeGreaterThanOrEqual(Math.ceil(fs.statSync(path.join(unpacked, 'usr/bin/petstore')).size / 1024));
  });

  test('the completions are what `petstore completion <shell>` prints; the man page is dist/man/petstore.1, gzipped', () => {
    for (const [shell, name] of [
      ['bash', 'usr/share/bash-completion/completions/petstore'],
      ['zsh', 'usr/share/zsh/vendor-completions/_petstore'],
      ['fish', 'usr/share/fish/vendor_completions.d/petstore.fish'],
    ] as const) {
      const printed = sh(process.execPath, [BIN, 'completion', shell], { env: { PATH: '/usr/bin:/bin', HOME: unpacked } });
      expect(printed.status).toBe(0);
      expect(file(name).toString('utf8'), shell).toBe(printed.stdout);
    }
    expect(gunzipSync(file('usr/share/man/man1/petstore.1.gz')).toString('utf8')).toBe(
      fs.readFileSync(path.join(ROOT, 'dist/man/petstore.1'), 'utf8'),
    );
    const changelog = gunzipSync(file('usr/share/doc/petstore/changelog.Debian.gz')).toString('utf8');
    expect(changelog).toMatch(
      new RegExp(
        `^petstore \\(${pkg.version.replaceAll('.', '\\.')}\\) unstable; urgency=medium\n\n  \\* .+\n\n -- ${pkg.author}  \\w{3}, \\d{2} \\w{3} \\d{4} \\d{2}:\\d{2}:\\d{2} \\+0000\n$`,
      ),
    );
  });

  test("copyright is machine-readable (DEP-5): petstore's licence, Node.js's and the third-party notice, each License named has its text", () => {
    const copyright = file('usr/share/doc/petstore/copyright').toString('utf8');
    const paragraphs = copyright.trimEnd().split('\n\n');
    expect(paragraphs[0]).toMatch(
      /^Format: https:\/\/www\.debian\.org\/doc\/packaging-manuals\/copyright-format\/1\.0\/\nUpstream-Name: petstore\n/,
    );
    const files = paragraphs.filter((p) => p.startsWith('Files: '));
    expect(files.map((p) => p.split('\n')[0])).toEqual(['Files: *', 'Files: usr/bin/petstore']);
    expect(files[0]).toBe('Files: *\nCopyright: 2026 the petstore contributors\nLicense: MIT');
    expect(files[1]).toMatch(/\nLicense: MIT and Node\.js and petstore-third-party$/);
    const licences = paragraphs.filter((p) => p.startsWith('License: '));
    expect(licences.map((p) => p.split('\n')[0])).toEqual(['License: MIT', 'License: Node.js', 'License: petstore-third-party']);
    const asField = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((line) => (line.trim() ? ` ${line.trimEnd()}` : ' .'))
        .join('\n');
    expect(licences[0]).toBe(`License: MIT\n${asField(fs.readFileSync(path.join(ROOT, 'LICENSE'), 'utf8'))}`);
    expect(licences[1]).toContain('\n Node.js is licensed for use as follows:\n');
    expect(licences[1]).toContain(
      '\n Apache License, Version 2.0: on Debian systems, its full text is in /usr/share/common-licenses/Apache-2.0.\n',
    );
    expect(licences[1]).not.toContain('TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION');
    // Every bundled package and compiled-in library, as in the notice, with its licence text.
    const notice = fs.readFileSync(path.join(ROOT, 'dist/THIRD-PARTY-NOTICES.txt'), 'utf8');
    expect(licences[2]).toBe(`License: petstore-third-party\n${asField(notice)}`);
    for (const line of paragraphs.flatMap((p) => p.split('\n')))
      expect(line.startsWith(' ') || /^[A-Z][A-Za-z-]*: /.test(line), line).toBe(true);
  });
});

describe.runIf(installHere)('Debian package installed with apt-get (PETSTORE_DEB_INSTALL=1)', () => {
  const apt = (args: string[]) => sh('apt-get', ['-y', '-q', ...args], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  let home = '';
  beforeAll(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-deb-home-'));
  });

  // Unpacking the 100 MiB executable and man-db's trigger take their time on a busy machine: a longer timeout.
  test('apt-get install ./<deb> gives /usr/bin/petstore, which adds and lists against the sandbox', async () => {
    const installed = apt(['install', deb]);
    expect(installed.status, installed.stderr).toBe(0);
    expect(await spawnAsync('/usr/bin/petstore', ['--version'], {})).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    const sandbox = await startSandbox({ key: 'deb-key', firstId: 1n });
    try {
      const env = { PATH: '/usr/bin:/bin', HOME: home, PETSTORE_API_KEY: 'deb-key', PETSTORE_BASE_URL: sandbox.baseUrl };
      const rex = '{"id":1,"name":"Rex","categoryId":1,"status":"available"}';
      expect(await spawnAsync('petstore', ['add', '--name', 'Rex', '--category-id', '1', '--status', 'available', '--json'], env)).toEqual({
        code: 0,
        stdout: `${rex}\n`,
        stderr: '',
      });
      expect(await spawnAsync('petstore', ['list', '--json'], env)).toEqual({ code: 0, stdout: `[${rex}]\n`, stderr: '' });
      expect(sandbox.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v1/pets', 'GET /v1/pets?limit=20']);
    } finally {
      await sandbox.close();
    }
  }, 180_000);

  test('man petstore shows the page', () => {
    const man = sh('man', ['petstore'], { env: { PATH: '/usr/bin:/bin', HOME: home, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '80' } });
    expect(man.status, man.stderr).toBe(0);
    expect(man.stdout).toMatch(/^PETSTORE\(1\) +User Commands +PETSTORE\(1\)\n/);
    expect(man.stdout).toContain('\n       petstore list [options]\n');
  });

  test('petstore l<Tab> completes to "list" in a new bash of a user with the default ~/.bashrc', async () => {
    const user = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bash-'));
    fs.copyFileSync('/etc/skel/.bashrc', path.join(user, '.bashrc'));
    const bash = interactiveShell('bash', ['-i'], { PATH: '/usr/bin:/bin', HOME: user, TERM: 'xterm', PS1: '$ ' }, user);
    // Readline turns bracketed paste on when it waits for input; without ~/.bashrc's bash-completion, Tab only rings the bell.
    await bash.seen(/\x1b\[\?2004h/);
    bash.type('petstore l\t');
    await bash.seen(/petstore list $/);
    bash.type('\x15exit\r');
    expect(await bash.exited).toBe(0);
  });

  test('apt-get remove petstore leaves none of its files and no record of it', () => {
    const files = sh('dpkg', ['--listfiles', 'petstore']).stdout.trim().split('\n');
    expect(files).toContain('/usr/bin/petstore');
    const removed = apt(['remove', 'petstore']);
    expect(removed.status, removed.stderr).toBe(0);
    for (const name of Object.keys(FILES)) expect(fs.existsSync(`/${name}`), name).toBe(false);
    for (const dir of ['/usr/share/doc/petstore']) expect(fs.existsSync(dir), dir).toBe(false);
    expect(sh('dpkg-query', ['--show', 'petstore'])).toMatchObject({
      status: 1,
      stdout: '',
      stderr: 'dpkg-query: no packages found matching petstore\n',
    });
    expect(sh('sh', ['-c', 'command -v petstore']).stdout).toBe('');
  }, 180_000);
});
