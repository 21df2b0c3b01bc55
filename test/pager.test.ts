// Which pager runs: PETSTORE_PAGER, then PAGER, then less -FRX; empty or cat
// turns it off; the command is split into words as sh would split it. The
// pager itself is tested on a terminal in pty-pager.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { pagerCommand, splitWords, terminalCanPage } from '../src/terminal/pager.js';

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
