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
    // for...in, not Object.keys: no array per object (JSON.parse's objects inherit no enumerable key).
    for (const key in record) record[key] = integersToBigInt(record[key]);
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

/** As {@link parseJson}, but numbers stay `number`s when all are integers of at most 15 digits (much faster); throws SyntaxError. */
export function parseAnswerJson(text: string): unknown {
  if (!MAYBE_INEXACT.test(text)) return JSON.parse(text);
  return JSON.parse(text, exactNumber as (key: string, value: unknown) => unknown);
}

// DEL and the C1 controls (among them the single-byte CSI U+009B) are legal raw in JSON strings but act on terminals.
const RAW_CONTROLS = /[\u007f-\u009f\u2028\u2029]/g;
const HAS_RAW_CONTROL = /[\u007f-\u009f\u2028\u2029]/;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** `value` with each bigint as a number (when exact) or raw JSON, copying only the arrays and objects that hold one. */
function withRawNumbers(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value !== 'bigint') return value;
    return value >= -MAX_SAFE && value <= MAX_SAFE ? Number(value) : JSON.rawJSON(value.toString());
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i += 1) {
      const item = value[i];
      const written = withRawNumbers(item);
      if (copy) copy.push(written);
      else if (written !== item) copy = [...value.slice(0, i), written];
    }
    return copy ?? value;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && (prototype !== null || JSON.isRawJSON(value))) return value;
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key in record) {
    const written = withRawNumbers(record[key]);
    if (!copy && written !== record[key]) {
      copy = {};
      for (const before in record) {
        if (before === key) break;
        setField(copy, before, record[before]);
      }
    }
    if (copy) setField(copy, key, written);
  }
  return copy ?? value;
}

function setField(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/** Whether `value` is a JSON object: an object that is neither null nor an array. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Serialises a value from {@link parseJson} or {@link parseAnswerJson} to compact JSON: numbers as written, controls escaped. */
export function stringifyJson(value: unknown): string {
  return escapeRawControls(JSON.stringify(withRawNumbers(value)));
}

/** JSON text with DEL, the C1 controls, U+2028 and U+2029 as `\uXXXX` escapes, safe on a terminal. */
export function escapeRawControls(json: string): string {
  return HAS_RAW_CONTROL.test(json) ? json.replace(RAW_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}
