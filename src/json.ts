/**
 * JSON that keeps every number as the service wrote it (`JSON.parse` rounds integers above 2^53 and rewrites `1.0`, `1e400`):
 * via TC39 JSON.parse source text access an integer becomes a `bigint`, any other number a {@link JsonNumber}; both are written back unchanged.
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
  constructor(readonly source: string) {}

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

const INTEGER_LITERAL = /^(?:0|-?[1-9]\d*)$/;
// Any number other than an integer below 2^53 (16+ digits, a fraction or exponent, "-0")? Matches in strings only cost the exact path.
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

/** Parses JSON text (integers → `bigint`, other numbers → {@link JsonNumber}); throws SyntaxError on malformed JSON. */
export function parseJson(text: string): unknown {
  if (!MAYBE_INEXACT.test(text)) return integersToBigInt(JSON.parse(text));
  return JSON.parse(text, exactNumber as (key: string, value: unknown) => unknown);
}

/**
 * Parses a service's answer as {@link parseJson} does, except that when every number in it is an integer of at most 15 digits (exact as
 * a double) they stay `number`s: the pages of a whole listing are read several times faster. Throws SyntaxError on malformed JSON.
 */
export function parseAnswerJson(text: string): unknown {
  if (!MAYBE_INEXACT.test(text)) return JSON.parse(text);
  return JSON.parse(text, exactNumber as (key: string, value: unknown) => unknown);
}

// DEL and the C1 controls (among them the single-byte CSI U+009B) are legal raw in JSON strings but act on terminals.
const RAW_CONTROLS = /[\u007f-\u009f\u2028\u2029]/g;
const HAS_RAW_CONTROL = /[\u007f-\u009f\u2028\u2029]/;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A copy with bigints as numbers or raw JSON (faster than a replacer); "__proto__" is defined as an own key, as JSON.parse does. */
function withRawNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return value >= -MAX_SAFE && value <= MAX_SAFE ? Number(value) : JSON.rawJSON(value.toString());
  if (typeof value !== 'object' || value === null || value instanceof JsonNumber || JSON.isRawJSON(value)) return value;
  if (Array.isArray(value)) return value.map(withRawNumbers);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = withRawNumbers((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(copy, key, { value: field, enumerable: true, writable: true, configurable: true });
    else copy[key] = field;
  }
  return copy;
}

/**
 * Serialises a value from {@link parseJson} or {@link parseAnswerJson} to compact JSON: numbers as their source text, control
 * characters escaped, key order kept.
 */
export function stringifyJson(value: unknown): string {
  let json: string;
  try {
    // Values without a bigint need no copy (JsonNumber writes itself through toJSON); JSON.stringify throws TypeError on the first bigint.
    json = JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    json = JSON.stringify(withRawNumbers(value));
  }
  return escapeRawControls(json);
}

/** JSON text with DEL, the C1 controls, U+2028 and U+2029 as `\uXXXX` escapes, safe on a terminal. */
export function escapeRawControls(json: string): string {
  return HAS_RAW_CONTROL.test(json) ? json.replace(RAW_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}
