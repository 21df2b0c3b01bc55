/** One item of a bulk load's input (read-items.ts splits them): parsed exactly, refused when nested too deep or not UTF-8. */
import { parseJson, stringifyJson } from '../json.js';

const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

export interface InputItem {
  /** 1-based line the item starts on. */
  line: number;
  /** 0-based position in a JSON array (absent for NDJSON). */
  index?: number;
  value?: unknown;
  /** Why the text was not an item: malformed JSON, not UTF-8, or a broken array. */
  error?: string;
  /** The source text, when it did not parse (so `--failed` keeps it). */
  text?: string;
  /** The source bytes, when they were not UTF-8. */
  bytes?: Buffer;
  /** Longer than MAX_ITEM_BYTES and binary (a NUL byte): the input is not read beyond it. */
  endsInput?: boolean;
}

/** The longest item read, in bytes: a longer one fails and the rest of it is passed over (with a NUL byte, the input ends). */
export const MAX_ITEM_BYTES = 16 * 1024 * 1024;
/** The deepest nesting parsed: deeper items fail alone (parsing and writing them back recurse). */
export const MAX_DEPTH = 1000;

/** Whether `text`'s arrays and objects nest deeper than MAX_DEPTH (brackets inside strings not counted). */
function tooDeep(text: string): boolean {
  // Nesting deeper than MAX_DEPTH takes more than MAX_DEPTH brackets: a shorter text cannot.
  if (text.length <= MAX_DEPTH) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > MAX_DEPTH) return true;
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return false;
}

/** The characters of an item's text shown in a message. */
export const EXCERPT = 60;
const strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');
/** `text`, cut at EXCERPT characters with `…`. */
export const excerpt = (text: string) => (text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text);

/** The item `text` at `line` (and array `index`) stands for, numbers exact; when not JSON, an `error` with a 60-character excerpt and the `text`. */
export function itemFromText(text: string, line: number, index?: number): InputItem {
  const base = index === undefined ? { line } : { line, index };
  if (tooDeep(text)) return { ...base, error: `nested deeper than ${MAX_DEPTH} levels: ${excerpt(text)}`, text: excerpt(text) };
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    return { ...base, error: `malformed JSON: ${excerpt(text)}`, text };
  }
  // Written out rather than spread from `base`: an item per line of the input.
  return index === undefined ? { line, value } : { line, index, value };
}

/** `bytes` without JSON whitespace at either end. */
export function trimBytes(bytes: Buffer): Buffer {
  let start = 0;
  let end = bytes.length;
  while (start < end && isSpace(bytes[start]!)) start += 1;
  while (end > start && isSpace(bytes[end - 1]!)) end -= 1;
  return bytes.subarray(start, end);
}

/** As {@link itemFromText}, undefined when blank; text that was not UTF-8 (`source` given) is an error keeping its bytes. */
export function itemFromDecoded(decoded: string, source: Buffer | undefined, line: number, index?: number): InputItem | undefined {
  const text = decoded.trim();
  if (source) {
    const base = index === undefined ? { line } : { line, index };
    return { ...base, error: text ? `not valid UTF-8: ${excerpt(text)}` : 'not valid UTF-8', text, bytes: trimBytes(source) };
  }
  if (!text) return undefined;
  return itemFromText(text, line, index);
}

/** The item of source bytes (a chunk's, or a `--failed` line's `text_base64`), decoded strictly as UTF-8. */
export function itemFromBytes(bytes: Buffer, line: number, index?: number): InputItem | undefined {
  try {
    return itemFromDecoded(strict.decode(bytes), undefined, line, index);
  } catch {
    return itemFromDecoded(lenient.decode(bytes), bytes, line, index);
  }
}

/** An item spanning chunks, kept as bytes (outside the JS heap) and decoded once when it ends. */
export class SpanningText {
  private parts: Buffer[] = [];
  private size = 0;

  get empty(): boolean {
    return this.parts.length === 0;
  }

  /** Holds more than MAX_ITEM_BYTES. */
  get tooLong(): boolean {
    return this.size > MAX_ITEM_BYTES;
  }

  add(bytes: Buffer): void {
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  take(): { text: string; invalid?: Buffer } {
    const bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    this.parts = [];
    this.size = 0;
    try {
      return { text: strict.decode(bytes) };
    } catch {
      return { text: lenient.decode(bytes), invalid: bytes };
    }
  }
}

/** FNV-1a hash (8 hex digits) of an item's source, the journal's (journal.ts): tells an edited item from the recorded one (no defence against crafted collisions). */
export function itemHash(item: InputItem): string {
  // An error item without text (content after the end of an array) is hashed by its message.
  const text = item.bytes
    ? item.bytes.toString('latin1')
    : (item.text ?? (stringifyJson(item.value) as string | undefined) ?? item.error ?? '');
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}
