// The man page: built by `npm run build` (scripts/man.mjs) from the same
// command tree as --help, rendered here by man and groff, and found by
// `man petstore` after a global npm install. man and groff are missing on
// some machines: the tests then fail in CI (.ci/run installs them) and are
// skipped elsewhere.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { BIN, run, runsHere, spawnPetstore } from './helpers.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGE = path.join(ROOT, 'dist', 'man', 'petstore.1');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string; man: string[]; files: string[] };
const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const withTools = (...tools: string[]) =>
  test.runIf(
    runsHere(
      tools.every(has) || Boolean(process.env.CI),
      `the man page with ${tools.join(' and ')}`,
      `install ${tools.join(' and ')} (apt-get install man-db groff-base), then npx vitest run test/man.test.ts`,
    ),
  );
const requireTools = (...tools: string[]) => {
  for (const tool of tools) expect(has(tool), `${tool} is not installed (CI installs it in .ci/run)`).toBe(true);
};

/** The page as man shows it at `width` columns (no pager, no hyphenation, plain text). */
function rendered(args: string[], env: NodeJS.ProcessEnv = process.env, width = 100) {
  return spawnSync('man', args, {
    env: { ...env, MANWIDTH: String(width), MANPAGER: 'cat', PAGER: 'cat', LANG: 'C.UTF-8', MAN_KEEP_FORMATTING: '' },
    encoding: 'utf8',
  });
}

describe('the man page', () => {
  test('package.json ships it: a "man" entry that the build wrote, inside "files"', () => {
    expect(pkg.man).toEqual(['./dist/man/petstore.1']);
    expect(fs.existsSync(PAGE)).toBe(true);
    expect(pkg.files).toContain('dist');
  });

  withTools('groff')('groff reads it without a warning', () => {
    requireTools('groff');
    const r = spawnSync('groff', ['-man', '-ww', '-z', PAGE], { encoding: 'utf8' });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  });

  withTools('man')('man shows every command with its usage, flags and examples, as --help does', async () => {
    requireTools('man');
    const r = rendered(['-l', PAGE]);
    expect(r.status).toBe(0);
    const page = r.stdout;
    expect(page).toMatch(/^PETSTORE\(1\) +User Commands +PETSTORE\(1\)\n/);
    expect(page).toContain(`petstore ${pkg.version}`);
    expect(page).toContain('NAME\n       petstore - Command-line client for the pet store service\n');
    for (const heading of ['GLOBAL FLAGS', 'COMMANDS', 'EXIT CODES', 'ENVIRONMENT VARIABLES']) expect(page).toContain(`\n${heading}\n`);
    for (const usage of [
      'petstore list [options]',
      'petstore auth login [options]',
      'petstore config set [options] <key> <value>',
      'petstore completion bash [options]',
    ]) {
      expect(page).toContain(`\n       ${usage}\n`);
    }
    expect(page).toContain('\n       --limit <n>\n              animals per page, 1 to 100 (default: 20)\n');
    expect(page).toContain('\n       --status <status>\n              only animals with this status (one of: available, pending, sold)\n');
    // The examples of each command's help, word for word.
    const examples = (await run(['list', '--help'])).stdout
      .split('Examples:\n')[1]!
      .trim()
      .split('\n')
      .map((line) => line.trim());
    expect(examples.length).toBeGreaterThan(1);
    for (const example of examples) expect(page).toContain(`\n           ${example}\n`);
    expect(page).not.toContain('__complete');
  });

  withTools('man')('at 60 columns no line is wider and no word is split (no hyphenation)', () => {
    requireTools('man');
    const narrow = rendered(['-l', PAGE], process.env, 60).stdout;
    const wide = rendered(['-l', PAGE], process.env, 200).stdout;
    // Only a word wider than the column (a path) passes it, whole.
    expect(narrow.split('\n').filter((line) => line.length > 60 && line.trim().includes(' '))).toEqual([]);
    // The same words in the same order as at 200 columns (the header and footer lines aside).
    const words = (page: string) => page.split('\n').slice(1, -2).join(' ').split(/\s+/).filter(Boolean);
    expect(words(narrow)).toEqual(words(wide));
  });

  withTools('man')('at 80 columns no line is wider: exit codes and variables as tagged paragraphs, long examples wrapped', () => {
    requireTools('man');
    const r = rendered(['-l', PAGE], process.env, 80);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').filter((line) => line.length > 80)).toEqual([]);
    expect(r.stdout).toContain(
      '\n       2      invalid usage or input: bad flags or values, a 400 from the\n              service, no base URL configured, unusable config file\n',
    );
    expect(r.stdout).toContain('\n       PETSTORE_DEBUG=1\n              stack traces on errors\n');
    // An example too long for a terminal of 60 columns continues with the shell's " \\", at 80 columns as at 60, never between a
    // flag and its value, nor a redirection and its file.
    const example =
      '\n           petstore add --file pets.ndjson \\\n               --failed failed.ndjson --json \\\n               > created.ndjson\n';
    expect(r.stdout).toContain(example);
    expect(rendered(['-l', PAGE], process.env, 60).stdout).toContain(example);
    // No word of a command wider than a terminal of 60 columns (the bash-completion folder is named through a variable).
    for (const line of rendered(['-l', PAGE], process.env, 60).stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
  });

  withTools('man', 'groff')(
    'man and troff say nothing at 60 and 80 columns (MANWIDTH=60 man -l dist/man/petstore.1 2>&1 >/dev/null)',
    () => {
      requireTools('man', 'groff');
      for (const width of [60, 80]) {
        const r = spawnSync('sh', ['-c', 'man -l "$0" 2>&1 >/dev/null', PAGE], {
          env: { ...process.env, MANWIDTH: String(width), MANPAGER: 'cat', PAGER: 'cat', LANG: 'C.UTF-8' },
          encoding: 'utf8',
        });
        expect({ width, status: r.status, said: r.stdout }).toEqual({ width, status: 0, said: '' });
        // troff itself, every warning on, at that line length (man's: two less than its width).
        const troff = spawnSync('groff', ['-man', '-ww', '-z', '-Tutf8', `-rLL=${width - 2}n`, `-rLT=${width - 2}n`, PAGE], {
          encoding: 'utf8',
        });
        expect({ width, stderr: troff.stderr }).toEqual({ width, stderr: '' });
      }
    },
  );

  withTools('man')('the commands of completion --help (lines for a startup file) are set as commands, whole', () => {
    requireTools('man');
    const page = rendered(['-l', PAGE], process.env, 80).stdout;
    expect(page).toContain('to ~/.bashrc:\n           eval "$(petstore completion bash)"\n');
    expect(page).toContain(
      '\n           dir=~/.local/share/bash-completion/completions\n           mkdir -p "$dir" && petstore completion bash \\\n               > "$dir/petstore"\n',
    );
  });
});

describe('petstore help man: the man page where no man page is installed (the standalone executable)', () => {
  test('prints the page that the build wrote, byte for byte; piped, nothing else', async () => {
    const r = await spawnPetstore(['help', 'man'], { PATH: process.env.PATH, HOME: os.tmpdir() });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(fs.readFileSync(PAGE, 'utf8'));
  });

  test('at a terminal where no program can be started (in-process) it says how to read it; help lists it with its example', async () => {
    const r = await run(['help', 'man'], { stdoutIsTTY: true, columns: 80 });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\.TH PETSTORE 1 \d{4}-\d{2}-\d{2} "petstore 1\.2\.3" "User Commands"\n/);
    expect(r.stderr).toBe('That is the man page as troff; to read it:\n  petstore help man | man -l -\n');
    const help = await run(['help', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      ' petstore help man: print the man page, every command in one page (troff), for man to read or to install ',
    );
    expect(help.stdout).toContain('\n  petstore help man | man -l -\n');
  });

  withTools('man')('saved as docs/install.md says, beside a petstore in ~/.local/bin, "man petstore" finds it', async () => {
    requireTools('man');
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-man-home-'));
    fs.mkdirSync(path.join(home, '.local', 'bin'), { recursive: true });
    const env = { ...process.env, HOME: home, PATH: `${path.join(home, '.local', 'bin')}:/usr/bin:/bin` };
    const installed = spawnSync(
      'sh',
      ['-c', 'mkdir -p ~/.local/share/man/man1 && "$0" "$1" help man > ~/.local/share/man/man1/petstore.1', process.execPath, BIN],
      { env, encoding: 'utf8' },
    );
    expect(installed.status, installed.stderr).toBe(0);
    const shown = rendered(['petstore'], env, 80);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(rendered(['-l', PAGE], process.env, 80).stdout);
  });

  withTools('man')('piped to man -l -, it is the page man shows', async () => {
    requireTools('man');
    const r = spawnSync('sh', ['-c', `"$0" "$1" help man | man -l -`, process.execPath, BIN], {
      env: { ...process.env, MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat', LANG: 'C.UTF-8' },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(rendered(['-l', PAGE], process.env, 80).stdout);
  });
});
