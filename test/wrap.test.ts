// Wrapping at word boundaries: help text and messages (src/terminal/wrap.ts),
// and cells of record tables (src/output/table-fit.ts). Nothing is dropped,
// no word is split where a space or a URL's "/" or "." can break the line.
import { describe, expect, test } from 'vitest';
import { wrapCell, wrapColumns } from '../src/output/table-fit.js';
import { columnsOf, plainSpaces, UNBROKEN, wrapHelpText, wrapLine, wrapMessage } from '../src/terminal/wrap.js';

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

  test('help: a command that wraps (an example, a line to add to a startup file) continues with " \\" on every line but its last, so that its pasted lines run as one', () => {
    const text = [
      'Examples:',
      '  petstore add --file pets.ndjson --json > created.ndjson',
      '',
      'Load it in every new bash: add this line to ~/.bashrc:',
      '  eval "$(petstore completion bash)"',
    ].join('\n');
    expect(wrapHelpText(text, 36)).toBe(
      [
        'Examples:',
        '  petstore add --file pets.ndjson \\',
        '      --json > created.ndjson',
        '',
        'Load it in every new bash: add this',
        'line to ~/.bashrc:',
        '  eval "$(petstore completion bash)"',
      ].join('\n'),
    );
  });

  test('an unbreakable space joins words a line must not break between, and prints as a space', () => {
    const text = `with --file: requests in flight at once, 1 to 64 (default:${UNBROKEN}8)`;
    expect(wrapLine(text, 55).map(plainSpaces)).toEqual(['with --file: requests in flight at once, 1 to 64', '(default: 8)']);
  });
});

describe('messages on stderr', () => {
  test("a hint's command too wide for the line continues with ` \\` at a space, its next lines indented deeper, never split inside a word", () => {
    const hint =
      'error: no API key for environment "a-long-environment-name"\nLog in (or set PETSTORE_API_KEY):\n  petstore auth login --env a-long-environment-name\n';
    expect(wrapMessage(hint, 40)).toBe(
      'error: no API key for environment\n  "a-long-environment-name"\nLog in (or set PETSTORE_API_KEY):\n  petstore auth login \\\n      --env a-long-environment-name\n',
    );
    // A quoted word is never broken: a backslash and a line break inside quotes would be taken as they are.
    expect(wrapMessage("Fix it:\n  rm '/home/a user/.config/petstore/config.json' --force", 40)).toBe(
      "Fix it:\n  rm \\\n      '/home/a user/.config/petstore/config.json' \\\n      --force",
    );
    // A flag stays with its value: "--file" and "pets.ndjson" are never split, nor "-X" and "GET".
    expect(wrapMessage('Run:\n  petstore add --name Rex --file pets.ndjson -X GET --json', 36)).toBe(
      'Run:\n  petstore add --name Rex \\\n      --file pets.ndjson -X GET \\\n      --json',
    );
    // ... unless the two are too wide for a line of their own: then the line that fits wins.
    expect(wrapMessage('Run:\n  petstore list --base-url https://petstore.internal.example.com/v1/', 40)).toBe(
      'Run:\n  petstore list --base-url \\\n      https://petstore.internal.example.com/v1/',
    );
    // What fits stays as it is.
    expect(wrapMessage(hint, 80)).toBe(hint);
  });

  test("a hint's lead-in that wraps stays flush on its next lines, so that only the command under it is indented", () => {
    const hint = 'Or keep a separate environment for it (or set PETSTORE_API_KEY):\n  petstore auth login --env <name>';
    expect(wrapMessage(hint, 40)).toBe(
      'Or keep a separate environment for it\n(or set PETSTORE_API_KEY):\n  petstore auth login --env <name>',
    );
    // A line that no command follows keeps its hanging indent.
    expect(wrapMessage('error: a message that is much too long\nnext', 30)).toBe('error: a message that is much\n  too long\nnext');
  });

  test('at 80 and 60 columns every line fits, broken between words: the same words in the same order', () => {
    const message =
      'warning: getPet is deprecated, removed 2030-12-05; after that, get reads listPets pages to find the pet. PETSTORE_NO_DEPRECATION_WARNING=1 silences this';
    for (const width of [80, 60]) {
      const lines = wrapMessage(message, width).split('\n');
      for (const line of lines) expect(columnsOf(line)).toBeLessThanOrEqual(width);
      expect(lines.join(' ').split(/\s+/)).toEqual(message.split(' '));
    }
    expect(wrapMessage(message, 80)).toBe(
      'warning: getPet is deprecated, removed 2030-12-05; after that, get reads\n' +
        '  listPets pages to find the pet. PETSTORE_NO_DEPRECATION_WARNING=1 silences\n' +
        '  this',
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
