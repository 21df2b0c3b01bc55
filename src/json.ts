/**
 * JSON that keeps every number exactly as the service wrote it. `JSON.parse`
 * rounds integers above 2^53 and rewrites other numbers (`1.0` → `1`, `1e400`
 * → `Infinity`), so numbers are read from their source text (TC39 JSON.parse
 * source text access): an integer literal becomes a `bigint`, any other number
 * a {@link JsonNumber} holding its text. {@link stringifyJson} writes both back
 * as the same characters, through `JSON.rawJSON`.
 */

interface ReviverContext {
  source?: string;
}

declare global {
  interface JSON {
    rawJSON(text: string): unknown;
    isRawJSON(value: unknown): boolean;
  }
}

/** A JSON number that is not a plain integer (`1.5`, `1.0`, `1e400`, `-0`), kept as written. */
export class JsonNumber {
  constructor(
    /** The number's source text, e.g. "1e400". */
    readonly source: string,
  ) {}

  /** The number's value as a double (may be rounded, or Infinity). */
  valueOf(): number {
    return Number(this.source);
  }

  toString(): string {
    return this.source;
  }

  toJSON(): unknown {
    return JSON.rawJSON(this.source);
  }
}

// An integer literal whose bigint prints back as the same text ("-0" does not).
const INTEGER_LITERAL = /^(?:0|-?[1-9]\d*)$/;
// Could any number be other than a plain integer below 2^53? A number starts
// the text or follows ":", "," or "[" (and white space): one of 16 digits or
// more, with a fraction or exponent, or "-0". Text inside strings may match
// too; that only costs the slower exact path.
const MAYBE_INEXACT = /(?:^|[:,[])\s*-?(?:\d{16}|\d+[.eE]|0(?![\d.eE])(?<=-0))/;

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

function exactNumber(this: unknown, _key: string, value: unknown, context?: ReviverContext): unknown {
  if (typeof value !== 'number' || context?.source === undefined) return value;
  return INTEGER_LITERAL.test(context.source) ? BigInt(context.source) : new JsonNumber(context.source);
}

/**
 * Parses JSON text: every integer literal becomes a `bigint`, every other
 * number a {@link JsonNumber}. Throws SyntaxError on malformed JSON.
 */
export function parseJson(text: string): unknown {
  // Fast path: when every number is a plain integer below 2^53, JSON.parse is exact.
  if (!MAYBE_INEXACT.test(text)) return integersToBigInt(JSON.parse(text));
  return JSON.parse(text, exactNumber as (key: string, value: unknown) => unknown);
}

// DEL and the C1 controls (U+0080..U+009F, among them the single-byte CSI U+009B)
// are legal raw in JSON strings but act on terminals, so they are escaped too.
const RAW_CONTROLS = /[\u007f-\u009f\u2028\u2029]/g;
const HAS_RAW_CONTROL = /[\u007f-\u009f\u2028\u2029]/;

/**
 * `value` with every bigint and JsonNumber as raw JSON text, copied (the
 * input is left as it is). Faster than a replacer, which JSON.stringify calls
 * back for every property. Copies go to null-prototype objects, so that a
 * "__proto__" key stays a key.
 */
function withRawNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return JSON.rawJSON(value.toString());
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof JsonNumber) return JSON.rawJSON(value.source);
  if (Array.isArray(value)) return value.map(withRawNumbers);
  if (JSON.isRawJSON(value)) return value;
  const copy: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) copy[key] = withRawNumbers((value as Record<string, unknown>)[key]);
  return copy;
}

/**
 * Serialises a value parsed by {@link parseJson} back to compact JSON text:
 * numbers as their source digits, every control character escaped, key order kept.
 */
export function stringifyJson(value: unknown): string {
  return escapeRawControls(JSON.stringify(withRawNumbers(value)));
}

/**
 * JSON text with DEL, the C1 controls, U+2028 and U+2029 written as `\uXXXX`
 * escapes (still the same JSON), so that it is safe on a terminal.
 */
export function escapeRawControls(json: string): string {
  // Tested first: a replace that finds nothing may still copy a large text.
  return HAS_RAW_CONTROL.test(json) ? json.replace(RAW_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}
