// Which pager runs: PETSTORE_PAGER, then PAGER, then less -FRX; empty or cat
// turns it off; the command is split into words as sh would split it. The
// pager itself is tested on a terminal in pty-pager.test.ts.
import { describe, expect, test } from 'vitest';
import { pagerCommand, splitWords } from '../src/output/pager.js';

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
