// Which pager runs: PETSTORE_PAGER, then PAGER, then less -FRX; empty or cat
// turns it off; the command is split into words as sh would split it. The
// pager itself is tested on a terminal in pty-pager.test.ts; below, what it
// concludes from what its input took, with pagers that print nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { Pager } from '../src/terminal/pager.js';
import { pagerCommand, splitWords, terminalCanPage } from '../src/terminal/pager-command.js';

describe('pagerCommand', () => {
  test.each([
    [{}, { words: ['less', '-FRX'], chosen: false }],
    [{ PAGER: 'more' }, { words: ['more'], chosen: true }],
    [
      { PAGER: 'more', PETSTORE_PAGER: 'bat --paging=always' },
      { words: ['bat', '--paging=always'], chosen: true },
    ],
    [{ PAGER: 'more', PETSTORE_PAGER: '' }, undefined],
    [{ PAGER: 'more', PETSTORE_PAGER: 'cat' }, undefined],
    [{ PAGER: ' cat ' }, undefined],
    [{ PAGER: '' }, undefined],
    [{ PAGER: 'cat -n' }, { words: ['cat', '-n'], chosen: true }],
  ])('%j → %j', (env, command) => {
    expect(pagerCommand(env)).toEqual(command);
  });
});

describe('splitWords', () => {
  test.each([
    ['less -R', ['less', '-R']],
    ["  '/opt/my pager/bin/p'   -x ", ['/opt/my pager/bin/p', '-x']],
    ['less "--prompt=a \\"b\\" \\\\ c"', ['less', '--prompt=a "b" \\ c']],
    ['a\\ b c', ['a b', 'c']],
    ['x\'\'y ""', ['xy', '']],
    ["'unterminated", ['unterminated']],
    ['', []],
  ])('%j → %j', (text, words) => {
    expect(splitWords(text)).toEqual(words);
  });
});

describe('terminalCanPage', () => {
  test.each([
    [{}, false],
    [{ TERM: '' }, false],
    [{ TERM: 'dumb' }, false],
    [{ TERM: 'no-such-terminal-42' }, false],
    [{ TERM: '../x/xterm' }, false],
    [{ TERM: 'xterm-256color' }, true],
  ])('%j → %s', (env, can) => {
    expect(terminalCanPage(env)).toBe(can);
  });

  test('an entry in $TERMINFO or $TERMINFO_DIRS (by letter, or by the letter in hex as on macOS) counts', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'terminfo-'));
    fs.mkdirSync(path.join(dir, 'm'));
    fs.writeFileSync(path.join(dir, 'm', 'my-term'), '');
    fs.mkdirSync(path.join(dir, '6f'));
    fs.writeFileSync(path.join(dir, '6f', 'other-term'), '');
    expect(terminalCanPage({ TERM: 'my-term', TERMINFO: dir })).toBe(true);
    expect(terminalCanPage({ TERM: 'other-term', TERMINFO_DIRS: `:${dir}` })).toBe(true);
    expect(terminalCanPage({ TERM: 'my-term' })).toBe(false);
  });
});

/** A Pager running `script` under sh (or the command of `words`), with what it prints directly and warns captured. */
function startPager(script: string, words = ['sh', '-c', script]) {
  const seen = { direct: '', warnings: [] as string[] };
  const pager = new Pager(
    { words, chosen: true },
    process.env,
    { write: (text) => (seen.direct += text), warn: (message) => seen.warnings.push(message) },
    { running: 0 },
  );
  return { pager, seen };
}

const TWO_MB = 'x'.repeat(2_000_000);
const turns = async (n: number) => {
  for (let i = 0; i < n; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

describe('Pager: what its input took', () => {
  test('2 MB written at once, 1 MB of it read, then exit 3: the pager read (each of 20 runs; a pipe merging waiting writes hid it)', async () => {
    for (let run = 0; run < 20; run += 1) {
      const { pager, seen } = startPager('head -c 1000000 >/dev/null; exit 3');
      pager.write(TWO_MB);
      await pager.close();
      expect({ run, failed: pager.failedAfterOutput, direct: seen.direct.length, warnings: seen.warnings }).toEqual({
        run,
        failed: true,
        direct: 0,
        warnings: ['the pager "sh" exited with status 3 before the end of the output; what it showed may be incomplete'],
      });
    }
  });

  test('2 MB written to a pager that exits 3 without reading: printed directly, once, and the command does not fail', async () => {
    const { pager, seen } = startPager('exit 3');
    pager.write(TWO_MB);
    await pager.close();
    expect(pager.failedAfterOutput).toBe(false);
    expect(seen.direct === TWO_MB).toBe(true);
    expect(seen.warnings).toEqual(['the pager "sh" exited with status 3 before showing the output; printing directly']);
  });

  test('20 MB written at once to a pager that cannot start: all of it printed directly, once (no copy was kept past 16 MiB)', async () => {
    const { pager, seen } = startPager('', ['no-such-pager-42']);
    const table = 'x'.repeat(20_000_000);
    pager.write(table);
    await pager.close();
    expect(seen.direct === table).toBe(true);
    expect(seen.warnings).toEqual(['cannot start the pager "no-such-pager-42": ENOENT; printing directly']);
    expect(pager.failedAfterOutput).toBe(false);
  });

  test('a pager killed by a signal after reading 1 MB of 2: a failure (it was taken for a quit: no warning, exit 0)', async () => {
    const { pager, seen } = startPager('head -c 1000000 >/dev/null; kill -KILL $$');
    pager.write(TWO_MB);
    await pager.close();
    expect({ failed: pager.failedAfterOutput, direct: seen.direct.length, warnings: seen.warnings }).toEqual({
      failed: true,
      direct: 0,
      warnings: ['the pager "sh" was killed by SIGKILL before the end of the output; what it showed may be incomplete'],
    });
  });

  test('a pager killed by a signal before reading: the output printed directly, once', async () => {
    const { pager, seen } = startPager('kill -KILL $$');
    pager.write(TWO_MB);
    await pager.close();
    expect(pager.failedAfterOutput).toBe(false);
    expect(seen.direct === TWO_MB).toBe(true);
    expect(seen.warnings).toEqual(['the pager "sh" was killed by SIGKILL before showing the output; printing directly']);
  });

  test("a pager ended by SIGINT (the user's Ctrl-C) is a quit: nothing printed, nothing said", async () => {
    const { pager, seen } = startPager('kill -INT $$');
    pager.write(TWO_MB);
    await pager.close();
    expect({ failed: pager.failedAfterOutput, direct: seen.direct, warnings: seen.warnings }).toEqual({
      failed: false,
      direct: '',
      warnings: [],
    });
  });

  test('a writer waits (drained) while the pager has not read, and goes on once it has', async () => {
    const gate = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pager-')), 'gate');
    const { pager, seen } = startPager(`while [ ! -e '${gate}' ]; do sleep 0.01; done; cat >/dev/null`);
    onTestFinished(() => fs.writeFileSync(gate, ''));
    expect(pager.write(TWO_MB)).toBe(false);
    let drained = false;
    const waiting = pager.drained().then(() => (drained = true));
    // 2 MB cannot all be in a pipe the pager has not read from, however long this waits.
    await turns(5);
    expect(drained).toBe(false);
    fs.writeFileSync(gate, '');
    await waiting;
    await pager.close();
    expect({ failed: pager.failedAfterOutput, direct: seen.direct, warnings: seen.warnings }).toEqual({
      failed: false,
      direct: '',
      warnings: [],
    });
  });

  test('a writer waiting on a pager that quits (q, status 0) goes on, and nothing is printed or said', async () => {
    const { pager, seen } = startPager('exit 0');
    expect(pager.write(TWO_MB)).toBe(false);
    await pager.drained();
    await pager.close();
    expect({ failed: pager.failedAfterOutput, direct: seen.direct, warnings: seen.warnings }).toEqual({
      failed: false,
      direct: '',
      warnings: [],
    });
  });
});
