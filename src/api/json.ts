/**
 * JSON that keeps int64 values exact. `JSON.parse` rounds integers above
 * 2^53, so integer literals are read as `bigint` from their source text
 * (TC39 JSON.parse source text access), and `bigint` is written back as the
 * same digits with `JSON.rawJSON`.
 */

interface ReviverContext {
  source?: string;
}

declare global {
  interface JSON {
    rawJSON(text: string): unknown;
  }
}

const INTEGER_LITERAL = /^-?\d+$/;
const MAYBE_INEXACT = /\d{16}|\d[.eE]|[.eE][-+]?\d/;

function integersToBigInt(value: unknown): unknown {
  if (typeof value === 'number') return BigInt(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) value[i] = integersToBigInt(value[i]);
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = integersToBigInt(record[key]);
  }
  return value;
}

/**
 * Parses JSON text; every integer literal becomes a `bigint`, other numbers stay `number`.
 * Throws SyntaxError on malformed JSON.
 */
export function parseJson(text: string): unknown {
  // Fast path: when no number can be a float or exceed 2^53 (no 16-digit run, no
  // digit beside ".", "e" or "E"), plain JSON.parse is exact and every number an integer.
  if (!MAYBE_INEXACT.test(text)) return integersToBigInt(JSON.parse(text));
  return JSON.parse(text, function (this: unknown, _key: string, value: unknown, context?: ReviverContext) {
    if (typeof value === 'number' && context?.source !== undefined && INTEGER_LITERAL.test(context.source)) {
      return BigInt(context.source);
    }
    return value;
  } as (key: string, value: unknown) => unknown);
}

// DEL and the C1 controls (U+0080..U+009F, among them the single-byte CSI U+009B)
// are legal raw in JSON strings but act on terminals, so they are escaped too.
const RAW_CONTROLS = /[\u007f-\u009f\u2028\u2029]/g;

/**
 * Serialises a value parsed by {@link parseJson} back to compact JSON text:
 * `bigint` as its exact digits, every control character escaped, key order kept.
 */
export function stringifyJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? JSON.rawJSON(v.toString()) : v));
  return text.replace(RAW_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
