// The man page: built by `npm run build` (scripts/man.mjs) from the same
// command tree as --help, rendered here by man and groff, and found by
// `man petstore` after a global npm install. man and groff are missing on
// some machines: the tests then fail in CI (.ci/run installs them) and are
// skipped elsewhere.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { run, runsHere } from './helpers.js';

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
    expect(r.stdout).toContain(
      '\n           petstore add --file pets.ndjson --failed failed.ndjson --json >\n             created.ndjson\n',
    );
  });
});
