// What the Debian package (scripts/build-deb.mjs) and the RPM package
// (scripts/build-rpm.mjs) hold alike: the standalone executable for a target,
// stripped before the blob goes in; what it prints as its shell completion;
// package.json's man pages, gzipped; Node.js's licence as the executable's
// notice file carries it; and the date of the build (SOURCE_DATE_EPOCH, else
// the last commit's), so that the same tree builds the same package.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { ARCHITECTURES, HOST, pinnedNode, runOn } from './targets.mjs';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/**
 * The target named by `--target` (default: this machine's), as `{ target, arch }`
 * (`linux-arm64`, ARCHITECTURES' entry); calls `fail` with the targets there are
 * on anything else.
 */
export function targetOf(fail) {
  let target;
  try {
    target = parseArgs({ options: { target: { type: 'string', default: HOST } } }).values.target;
  } catch (error) {
    fail(error.message);
  }
  const arch = ARCHITECTURES[target.replace(/^linux-/, '')];
  if (!target.startsWith('linux-') || !arch)
    fail(
      `--target ${target}: the targets are ${Object.keys(ARCHITECTURES)
        .map((a) => `linux-${a}`)
        .join(' and ')}`,
    );
  return { target, arch };
}

/** Builds dist/petstore-<target>, stripped before the blob goes in (the build stops when it cannot be); returns its path. */
export function buildExecutable(target) {
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build-standalone.mjs'), '--target', target, '--strip'], {
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
  return join(root, 'dist', `petstore-${target}`);
}

/**
 * What `executable` (for `target`, run under qemu-user on another
 * architecture) prints for `petstore completion bash`, `zsh` and `fish`, in an
 * environment of its own beside `scratch`; `run(command, args, options)` runs
 * it and gives its stdout.
 */
function completionScripts(target, executable, scratch, run) {
  const home = join(scratch, '..', `${basename(scratch)}-home`);
  const [command, ...prefix] = runOn(target, executable);
  const completion = (shell) =>
    run(command, [...prefix, 'completion', shell], { env: { PATH: '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, '.config') } });
  try {
    return { bash: completion('bash'), zsh: completion('zsh'), fish: completion('fish') };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Lays out under `stage` what both packages hold, as installed: the
 * executable as usr/bin/petstore, the man pages, and the completion scripts it
 * prints (zsh's in `zshFolder`, which the distributions name differently).
 * Returns `put(path, content, mode)`, which adds a file.
 */
export function stageCommonFiles(stage, { target, executable, zshFolder, run, fail }) {
  const put = (path, content, mode = 0o644) => {
    mkdirSync(dirname(join(stage, path)), { recursive: true });
    writeFileSync(join(stage, path), content);
    chmodSync(join(stage, path), mode);
  };
  mkdirSync(join(stage, 'usr', 'bin'), { recursive: true });
  copyFileSync(executable, join(stage, 'usr', 'bin', 'petstore'));
  chmodSync(join(stage, 'usr', 'bin', 'petstore'), 0o755);
  for (const page of manPages(fail)) put(`usr/share/man/man${page.section}/${page.name}`, page.gzipped);
  const completion = completionScripts(target, executable, stage, run);
  put('usr/share/bash-completion/completions/petstore', completion.bash);
  put(`${zshFolder}/_petstore`, completion.zsh);
  put('usr/share/fish/vendor_completions.d/petstore.fish', completion.fish);
  return put;
}

/** package.json's man pages: for each, its section, its installed name (`petstore.1.gz`) and its text gzipped. */
function manPages(fail) {
  return pkg.man.map((page) => {
    const section = page.match(/\.(\d)$/)?.[1] ?? fail(`${page}: a man page's name ends in its section`);
    return { section, name: `${basename(page)}.gz`, gzipped: gzipSync(readFileSync(join(root, page)), { level: 9 }) };
  });
}

/** The pinned Node.js version and its licence, as dist/petstore-<target>.NOTICES.txt (written by build-standalone.mjs) ends with it. */
export function nodeLicenceOf(target) {
  const node = pinnedNode(root);
  const notices = readFileSync(join(root, 'dist', `petstore-${target}.NOTICES.txt`), 'utf8');
  return { node, licence: notices.slice(notices.lastIndexOf(`Node.js ${node}\n\n`) + `Node.js ${node}\n\n`.length) };
}

/** The date the package records: SOURCE_DATE_EPOCH (reproducible builds), else the last commit's, else now. */
export function buildDate() {
  const gitDate = spawnSync('git', ['-C', root, 'log', '-1', '--format=%ct'], { encoding: 'utf8' }).stdout?.trim();
  return new Date((Number(process.env.SOURCE_DATE_EPOCH || gitDate) || Math.floor(Date.now() / 1000)) * 1000);
}
