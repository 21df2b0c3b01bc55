// Builds the RPM package dist/petstore-<version>-<release>.<arch>.rpm (x86_64,
// or aarch64 with --target linux-arm64), for Fedora, RHEL and its rebuilds,
// and Amazon Linux, with rpmbuild (rpm 4.18, Debian's `rpm` package) from the
// spec that scripts/rpm.mjs writes. It holds:
//
//   /usr/bin/petstore                                  the standalone executable (stripped, then the blob injected)
//   /usr/share/man/man1/petstore.1.gz                  package.json's man pages, gzipped
//   /usr/share/bash-completion/completions/petstore
//   /usr/share/zsh/site-functions/_petstore
//   /usr/share/fish/vendor_completions.d/petstore.fish what that executable's `petstore completion <shell>` prints
//   /usr/share/licenses/petstore/LICENSE               petstore's licence (MIT)
//   /usr/share/licenses/petstore/THIRD-PARTY-NOTICES.txt  the bundle's third-party notice (dist/THIRD-PARTY-NOTICES.txt)
//   /usr/share/licenses/petstore/NODEJS-LICENSE        the licence of the Node.js inside the executable
//
// Requires comes from rpmbuild's own ELF dependency generator (the libraries
// the executable links against, with the symbol versions it uses). Beside the
// package goes dist/petstore.rpmlintrc, which rpmlint reads when it checks a
// package of that folder (scripts/rpm.mjs says why each filter is there).
//
//   node scripts/build-rpm.mjs [--target linux-x64|linux-arm64]
//
// Needs rpmbuild (Debian, Ubuntu: apt-get install rpm); for arm64 what
// scripts/build-standalone.mjs needs to build that executable. Run after
// scripts/build.mjs (npm run build:rpm does both).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDate, buildExecutable, nodeLicenceOf, pkg, root, stageCommonFiles, targetOf } from './linux-package.mjs';
import { RELEASE, RPMLINTRC, rpmArch, rpmFileName, specFile } from './rpm.mjs';

function fail(message) {
  process.stderr.write(`build:rpm: ${message}\n`);
  process.exit(1);
}

/** Runs `command` and gives its stdout; stops the build when it fails. */
function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 2 ** 20, ...options });
  if (r.error?.code === 'ENOENT') fail(`${command} is needed (Debian, Ubuntu: apt-get install rpm)`);
  if (r.status !== 0) fail(`${[command, ...args].join(' ')} failed (${r.status}):\n${r.stderr}`);
  return r.stdout;
}

const { target } = targetOf(fail);
const arch = rpmArch(target);
// Before the executable is built: a missing rpmbuild stops the build at once.
run('rpmbuild', ['--version']);
const executable = buildExecutable(target);

const scratch = mkdtempSync(join(tmpdir(), 'petstore-rpm-'));
try {
  // The files as installed, under stage/; rpmbuild's %install copies them into its build root.
  const stage = join(scratch, 'stage');
  const put = stageCommonFiles(stage, { target, executable, zshFolder: 'usr/share/zsh/site-functions', run, fail });
  const { node, licence } = nodeLicenceOf(target);
  put('usr/share/licenses/petstore/LICENSE', readFileSync(join(root, 'LICENSE')));
  put('usr/share/licenses/petstore/THIRD-PARTY-NOTICES.txt', readFileSync(join(root, 'dist', 'THIRD-PARTY-NOTICES.txt')));
  put('usr/share/licenses/petstore/NODEJS-LICENSE', licence);

  const date = buildDate();
  const spec = join(scratch, 'petstore.spec');
  writeFileSync(spec, specFile({ pkg, node, date, stage }));
  const topdir = join(scratch, 'rpmbuild');
  run(
    'rpmbuild',
    [
      '-bb',
      '--quiet',
      '--target',
      `${arch}-linux`,
      '--define',
      `_topdir ${topdir}`,
      // Build host and time as recorded in the header: the same tree builds the same package.
      '--define',
      'use_source_date_epoch_as_buildtime 1',
      '--define',
      '_buildhost petstore.invalid',
      spec,
    ],
    { env: { ...process.env, SOURCE_DATE_EPOCH: String(Math.floor(date.getTime() / 1000)) } },
  );
  const name = rpmFileName(pkg.version, arch);
  const output = join(root, 'dist', name);
  rmSync(output, { force: true });
  copyFileSync(join(topdir, 'RPMS', arch, name), output);
  writeFileSync(join(root, 'dist', 'petstore.rpmlintrc'), RPMLINTRC);
  process.stderr.write(`built ${output} (${(statSync(output).size / 2 ** 20).toFixed(1)} MiB), release ${RELEASE}\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
