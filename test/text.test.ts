import fc from 'fast-check';
import stripAnsi from 'strip-ansi';
import { describe, expect, test } from 'vitest';
import { sanitizeText } from '../src/text.js';

// What sanitizeText did before it skipped text without control characters (issue 37 item 8): the same for every string.
const everyTime = (text: string) => stripAnsi(text).replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ');

/** Strings mostly of the characters escape sequences are made of. */
const controlled = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '\u001b',
      '\u009b',
      '\u009d',
      '\u0090',
      '\u0007',
      '\u009c',
      '\\',
      '[',
      ']',
      ';',
      '3',
      '1',
      'm',
      'P',
      '\u202e',
      '\u2066',
      '\r',
      '\t',
    ),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
});

describe('sanitizeText', () => {
  test('removes escape sequences (ESC and the C1 CSI) and makes every other control character a space', () => {
    expect(sanitizeText('\u001b[31mred\u001b[0m')).toBe('red');
    expect(sanitizeText('\u009b31mx')).toBe('x');
    expect(sanitizeText('a\u0007b\u202ec\td')).toBe('a b c d');
    expect(sanitizeText('Félix 🐈 pet-1')).toBe('Félix 🐈 pet-1');
  });

  test('any string comes out as stripAnsi and the control-character replacement make it', () => {
    fc.assert(
      fc.property(fc.oneof(controlled, fc.string({ unit: 'binary' })), (text) => {
        expect(sanitizeText(text)).toBe(everyTime(text));
      }),
    );
  });
});
