// Builds the Debian package dist/petstore_<version>_<arch>.deb (amd64, or
// arm64 with --target linux-arm64) with dpkg-deb from a staged tree:
//
//   usr/bin/petstore                              the standalone executable (stripped, then the blob injected)
//   usr/share/man/man1/petstore.1.gz              package.json's man pages, gzipped
//   usr/share/bash-completion/completions/petstore
//   usr/share/zsh/vendor-completions/_petstore
//   usr/share/fish/vendor_completions.d/petstore.fish
//                                                 what that executable's `petstore completion <shell>` prints
//   usr/share/doc/petstore/copyright              machine-readable (DEP-5): petstore's licence, Node.js's, the notices
//   usr/share/doc/petstore/changelog.Debian.gz
//   usr/share/lintian/overrides/petstore          the tags that cannot apply to an executable carrying its Node.js
//
// Depends comes from the executable's ELF: the libraries it needs and the
// newest symbol version it uses of each (readelf), mapped to the Debian
// package and version that introduced it (this machine's dpkg symbols files).
// Needs dpkg-deb, readelf and gzip (Debian, Ubuntu: dpkg, binutils); for
// arm64 what scripts/build-standalone.mjs needs to build that executable.
// Run after scripts/build.mjs (npm run build:deb does both).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { copyrightFile, debianDepends, LINTIAN_OVERRIDES } from './debian.mjs';
import { buildDate, buildExecutable, nodeLicenceOf, pkg, root, stageCommonFiles, targetOf } from './linux-package.mjs';

function fail(message) {
  process.stderr.write(`build:deb: ${message}\n`);
  process.exit(1);
}

/** Runs `command` and gives its stdout; stops the build when it fails. */
function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 2 ** 20, ...options });
  if (r.error?.code === 'ENOENT') fail(`${command} is needed (Debian, Ubuntu: ${options.hint ?? 'apt-get install dpkg binutils'})`);
  if (r.status !== 0) fail(`${[command, ...args].join(' ')} failed (${r.status}):\n${r.stderr}`);
  return r.stdout;
}

const { target, arch } = targetOf(fail);
const executable = buildExecutable(target);

const stage = mkdtempSync(join(tmpdir(), 'petstore-deb-'));
try {
  // The executable, its man pages and what it prints as its completion, in an environment of its own.
  const put = stageCommonFiles(stage, { target, executable, zshFolder: 'usr/share/zsh/vendor-completions', run, fail });

  const { node, licence: nodeLicence } = nodeLicenceOf(target);
  put(
    'usr/share/doc/petstore/copyright',
    copyrightFile({
      licence: readFileSync(join(root, 'LICENSE'), 'utf8'),
      node,
      nodeLicence,
      thirdParty: readFileSync(join(root, 'dist', 'THIRD-PARTY-NOTICES.txt'), 'utf8'),
      homepage: pkg.homepage,
    }),
  );

  const date = buildDate();
  const rfc5322 = date.toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) (\S+) GMT$/, '$1, $2 $3 $4 $5 +0000');
  const maintainer = pkg.author;
  const changelog = `petstore (${pkg.version}) unstable; urgency=medium\n\n  * petstore ${pkg.version}: the standalone executable, carrying Node.js ${node}.\n\n -- ${maintainer}  ${rfc5322}\n`;
  put('usr/share/doc/petstore/changelog.Debian.gz', gzipSync(changelog, { level: 9 }));
  put('usr/share/lintian/overrides/petstore', LINTIAN_OVERRIDES);

  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        chmodSync(path, 0o755);
        walk(path);
      } else files.push(path);
    }
  };
  walk(join(stage, 'usr'));
  chmodSync(stage, 0o755);
  const installedSize = Math.ceil(files.reduce((sum, file) => sum + statSync(file).size, 0) / 1024);
  const control = [
    `Package: petstore`,
    `Version: ${pkg.version}`,
    `Architecture: ${arch.deb}`,
    `Maintainer: ${maintainer}`,
    `Installed-Size: ${installedSize}`,
    `Depends: ${debianDepends(run('readelf', ['--wide', '--dynamic', '--version-info', executable]))}`,
    // Without it, bash does not load the completion in usr/share/bash-completion (Debian and Ubuntu install it by default).
    'Recommends: bash-completion',
    `Section: utils`,
    `Priority: optional`,
    `Homepage: ${pkg.homepage}`,
    `Description: ${pkg.description.replace(/^Command-line/, 'command-line')}`,
    " petstore lists the pet store service's animals, adds one or thousands from",
    " a file, looks one up, and sends any request under the service's base URL.",
    ' At a terminal it prints tables; piped, tab-separated rows; with --json,',
    " exactly the service's JSON. Its exit codes are stable, for scripts.",
    ' .',
    ` This package holds the standalone executable, which carries its own`,
    ` Node.js ${node}, with its manual page and bash, zsh and fish completion.`,
  ];
  put('DEBIAN/control', `${control.join('\n')}\n`);
  const md5sums = files
    .map((file) => `${createHash('md5').update(readFileSync(file)).digest('hex')}  ${relative(stage, file)}`)
    .sort((a, b) => a.slice(34).localeCompare(b.slice(34)));
  put('DEBIAN/md5sums', `${md5sums.join('\n')}\n`);
  chmodSync(join(stage, 'DEBIAN'), 0o755);

  const output = join(root, 'dist', `petstore_${pkg.version}_${arch.deb}.deb`);
  rmSync(output, { force: true });
  run('dpkg-deb', ['--root-owner-group', '-Zxz', '--build', stage, output], {
    env: { ...process.env, SOURCE_DATE_EPOCH: String(date.getTime() / 1000) },
  });
  process.stderr.write(`built ${output} (${(statSync(output).size / 2 ** 20).toFixed(1)} MiB)\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
