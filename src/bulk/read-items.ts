/**
 * Streams the items of a JSON array or of NDJSON, a chunk's worth at a time,
 * with the line each starts on, so that memory stays flat whatever the input
 * size. The first non-blank character decides: `[` is a JSON array, anything
 * else NDJSON. Integers are read exactly (see parseJson).
 */
import { StringDecoder } from 'node:string_decoder';
import { parseJson } from '../api/json.js';

export interface InputItem {
  /** 1-based line the item starts on. */
  line: number;
  /** 0-based position in a JSON array (absent for NDJSON). */
  index?: number;
  /** The parsed item, when it parsed. */
  value?: unknown;
  /** Why the text was not an item: malformed JSON, or a broken array. */
  error?: string;
  /** The item's source text, whole, when it did not parse (so that `--failed` keeps it). */
  text?: string;
}

/**
 * The item that source `text` found at `line` (and array `index`) stands for:
 * its value parsed with exact integers, or, when it is not JSON, an `error`
 * with an excerpt of at most 60 characters and the whole `text`.
 */
export function itemFromText(text: string, line: number, index?: number): InputItem {
  const base = index === undefined ? { line } : { line, index };
  try {
    return { ...base, value: parseJson(text) };
  } catch {
    return { ...base, error: `malformed JSON: ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`, text };
  }
}

/**
 * Yields the items of `input` (bytes or text) in order, as one batch per chunk
 * read (an async step per chunk rather than per item: a bulk load reads
 * thousands). Never throws for malformed content, which becomes an item with `error`.
 */
export async function* readItemBatches(input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>): AsyncGenerator<InputItem[]> {
  const decoder = new StringDecoder('utf8');
  let mode: 'unknown' | 'ndjson' | 'array' | 'done' = 'unknown';
  let line = 1;
  // NDJSON: the text of the line being read.
  let pending = '';
  // JSON array: the element being read, and where it started.
  let element = '';
  let elementLine = 1;
  let index = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;

  function* ndjson(text: string, final: boolean): Generator<InputItem> {
    pending += text;
    let newline: number;
    while ((newline = pending.indexOf('\n')) !== -1) {
      const content = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (content) yield itemFromText(content, line);
      line += 1;
    }
    if (final && pending.trim()) yield itemFromText(pending.trim(), line);
  }

  function* array(text: string): Generator<InputItem> {
    for (const ch of text) {
      if (mode === 'done') {
        if (!/\s/.test(ch)) {
          yield { line, error: 'unexpected content after the end of the JSON array' };
          mode = 'ndjson'; // report once, ignore the rest
          pending = '';
        }
        if (ch === '\n') line += 1;
        continue;
      }
      if (ch === '\n') line += 1;
      if (inString) {
        element += ch;
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
        continue;
      }
      if (depth === 0 && (ch === ',' || ch === ']')) {
        if (element.trim()) yield itemFromText(element.trim(), elementLine, index);
        else if (ch === ',' || index > 0) yield { line, index, error: 'empty array element' };
        element = '';
        index += 1;
        if (ch === ']') mode = 'done';
        continue;
      }
      if (!element && /\s/.test(ch)) continue;
      if (!element) elementLine = line;
      element += ch;
      if (ch === '"') inString = true;
      else if (ch === '{' || ch === '[') depth += 1;
      else if (ch === '}' || ch === ']') depth -= 1;
    }
  }

  for await (const chunk of input) {
    let text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (mode === 'unknown') {
      const start = text.search(/\S/);
      if (start === -1) {
        line += text.split('\n').length - 1;
        continue;
      }
      line += text.slice(0, start).split('\n').length - 1;
      mode = text[start] === '[' ? 'array' : 'ndjson';
      if (mode === 'array') text = text.slice(start + 1);
    }
    const batch = [...(mode === 'ndjson' ? ndjson(text, false) : array(text))];
    if (batch.length) yield batch;
  }
  const rest = decoder.end();
  const last = mode === 'ndjson' ? [...ndjson(rest, true)] : mode === 'array' ? [...array(rest)] : [];
  if ((mode as string) === 'array') {
    // An element the input ended in is reported with its text, complete or not, and never sent.
    const text = element.trim();
    last.push(text ? { line: elementLine, index, error: 'the input ends inside the JSON array', text } : { line, error: 'the input ends inside the JSON array' });
  }
  if (last.length) yield last;
}
