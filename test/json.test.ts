// Exact JSON: every number comes back out exactly as the service wrote it.
import { describe, expect, test } from 'vitest';
import { JsonNumber, parseAnswerJson, parseJson, stringifyJson } from '../src/json.js';

describe('parseJson and stringifyJson', () => {
  test.each(['1.0', '1e2', '1E+2', '1e400', '-0', '-0.0', '123456789012345678901234567890', '9007199254740993', '0.1', '-1.5e-7'])(
    'the number %s prints back as written, alone and inside objects and arrays',
    (number) => {
      const text = `{"a":${number},"b":[${number},{"c":${number}}]}`;
      expect(stringifyJson(parseJson(text))).toBe(text);
    },
  );

  test.each(['1.50', '-0', '1e400', '9007199254740993', ' 2.5 '])('a text that is only the number %j parses exactly too', (text) => {
    expect(stringifyJson(parseJson(text))).toBe(text.trim());
  });

  test('integers are bigints (exact ids); other numbers keep their source text', () => {
    expect(parseJson('[9007199254740993, 2, 1.5, -0]')).toEqual([9007199254740993n, 2n, new JsonNumber('1.5'), new JsonNumber('-0')]);
  });

  test('control characters in strings are escaped', () => {
    expect(stringifyJson({ s: 'a\u009b\u0007b' })).toBe('{"s":"a\\u009b\\u0007b"}');
  });
});

test('keys are kept as sent, "__proto__" included; the input is not changed', () => {
  const text = '{"__proto__":{"x":1},"constructor":2,"big":9007199254740993}';
  const parsed = parseJson(text);
  expect(stringifyJson(parsed)).toBe(text);
  expect(typeof (parsed as { big: unknown }).big).toBe('bigint');
});

test('"__proto__" stays a key when every number is small (the fast path)', () => {
  const text = '{"__proto__":{"x":1},"a":2}';
  expect(stringifyJson(parseJson(text))).toBe(text);
});

describe('parseAnswerJson: an answer of the service', () => {
  test.each(['1.0', '1e2', '-0', '9007199254740993', '1000000000000000', '123456789012345678901234567890', '0.1'])(
    'beside the number %s, every number prints back as written',
    (number) => {
      const text = `[{"id":1,"n":${number},"__proto__":{"x":-2}},{"id":999999999999999}]`;
      expect(stringifyJson(parseAnswerJson(text))).toBe(text);
    },
  );

  test('integers of up to 15 digits in an answer with no other numbers stay numbers; any other number makes them exact bigints', () => {
    expect(parseAnswerJson('[1, -999999999999999]')).toEqual([1, -999999999999999]);
    expect(parseAnswerJson('[1, 9007199254740993]')).toEqual([1n, 9007199254740993n]);
    expect(parseAnswerJson('[1, 1.5]')).toEqual([1n, new JsonNumber('1.5')]);
  });

  test('"__proto__" stays a key, and numbers inside strings change nothing', () => {
    const text = '{"__proto__":{"x":1},"name":"9007199254740993 1.5"}';
    expect(stringifyJson(parseAnswerJson(text))).toBe(text);
    expect(Object.getPrototypeOf(parseAnswerJson(text))).toBe(Object.prototype);
  });
});

describe.each([
  ['parseJson', parseJson],
  ['parseAnswerJson', parseAnswerJson],
])('ResponseInt32: an int32 field of an answer, as %s gives it', (_, parse) => {
  test('a whole number from -2^31 to 2^31 - 1, however spelt; anything else fails naming int32', async () => {
    const { ResponseInt32 } = await import('../src/api/schemas.js');
    const value = (text: string) => (parse(`{"n":${text}}`) as { n: unknown }).n;
    for (const text of ['0', '-2147483648', '2147483647', '1.0', '1e2']) expect(ResponseInt32.safeParse(value(text)).success).toBe(true);
    const message = (text: string) => ResponseInt32.safeParse(value(text)).error?.issues[0]?.message;
    expect(message('2147483648')).toBe('must be at most 2147483647');
    expect(message('-2147483649')).toBe('must be at least -2147483648');
    for (const text of ['1.5', '"1"', 'null', '2147483648.0']) expect(message(text)).toBe('must be an integer (int32)');
  });
});
