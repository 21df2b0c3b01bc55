// Wrapping at word boundaries: help text and messages (src/terminal/wrap.ts),
// and cells of record tables (src/output/table-fit.ts). Nothing is dropped,
// no word is split where a space or a URL's "/" or "." can break the line.
import { describe, expect, test } from 'vitest';
import { wrapCell, wrapColumns } from '../src/output/table-fit.js';
import { columnsOf, wrapHelpText, wrapLine, wrapMessage } from '../src/terminal/wrap.js';

describe('wrapLine and wrapMessage', () => {
  test('breaks at spaces with a hanging indent; a word wider than the line stays whole', () => {
    expect(wrapLine('aa bb cc dd', 5, '', '  ')).toEqual(['aa bb', '  cc', '  dd']);
    expect(wrapLine('a https://example.com/very/long b', 10)).toEqual(['a', 'https://example.com/very/long', 'b']);
    expect(wrapMessage('warning: one two three\nshort', 14)).toBe('warning: one\n  two three\nshort');
  });

  test('CJK and emoji count two columns', () => {
    expect(columnsOf('名前🐶a')).toBe(7);
    expect(wrapLine('名前 名前 名前', 9)).toEqual(['名前 名前', '名前']);
  });

  test('help: tables keep their column, or put the description below a wide term; paragraphs are joined and refilled', () => {
    const text = [
      'Exit codes:',
      '  1    general failure: network, timeout,',
      '       a 404 of a path',
      '',
      'A paragraph longer than the width,',
      'and another line.',
    ].join('\n');
    expect(wrapHelpText(text, 32)).toBe(
      [
        'Exit codes:',
        '  1    general failure: network,',
        '       timeout, a 404 of a path',
        '',
        'A paragraph longer than the',
        'width, and another line.',
      ].join('\n'),
    );
    expect(wrapHelpText('  VERY_LONG_VARIABLE_NAME=1   what it does here', 40)).toBe(
      '  VERY_LONG_VARIABLE_NAME=1\n      what it does here',
    );
    // What fits is left as written.
    expect(wrapHelpText(text, 80)).toBe(text);
  });

  test('help: when one item of a table goes below its term, every item of that table does (one layout per table)', () => {
    const text = [
      'Environment variables:',
      '  A_RATHER_LONG_NAME=1   what it does',
      '  SHORT=1                stack traces',
      '',
      '  0    kept',
    ].join('\n');
    expect(wrapHelpText(text, 36)).toBe(
      ['Environment variables:', '  A_RATHER_LONG_NAME=1', '      what it does', '  SHORT=1', '      stack traces', '', '  0    kept'].join(
        '\n',
      ),
    );
  });

  test('help: an example that wraps continues with " \\" on every line but its last, so that its pasted lines run as one command', () => {
    const text = [
      'Examples:',
      '  petstore add --file pets.ndjson --json > created.ndjson',
      '',
      'Notes:',
      '  an indented line that is no command wraps',
    ].join('\n');
    expect(wrapHelpText(text, 36)).toBe(
      [
        'Examples:',
        '  petstore add --file pets.ndjson \\',
        '      --json > created.ndjson',
        '',
        'Notes:',
        '  an indented line that is no',
        '      command wraps',
      ].join('\n'),
    );
  });
});

describe('record table cells', () => {
  test('wrapCell: at spaces, a URL after "/" or ".", else between characters; nothing lost', () => {
    expect(wrapCell('not checked', 8)).toEqual(['not', 'checked']);
    expect(wrapCell('https://petstore-staging.example.com/v1/', 20)).toEqual(['https://petstore-', 'staging.example.com/', 'v1/']);
    expect(wrapCell('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapCell('名前名前名', 4)).toEqual(['名前', '名前', '名']);
  });

  test('wrapColumns: unchanged when it fits; undefined when even wrapped it cannot', () => {
    const headers = ['NAME', 'BASE URL'];
    const rows = [['x', 'https://example.com/v1/']];
    expect(wrapColumns(headers, rows, 80)).toEqual({ headers, rows });
    expect(wrapColumns(headers, rows, undefined)).toEqual({ headers, rows });
    expect(wrapColumns(headers, rows, 24)).toEqual({ headers, rows: [['x', 'https://\nexample.com/\nv1/']] });
    expect(wrapColumns(headers, rows, 12)).toBeUndefined();
  });
});
