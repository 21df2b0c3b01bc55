/** Streams the items of a JSON array or NDJSON with their lines, in flat memory: split on bytes, each decoded alone (input-item.ts). */

import { EXCERPT, excerpt, type InputItem, itemFromBytes, itemFromDecoded, MAX_ITEM_BYTES, SpanningText, trimBytes } from './input-item.js';

export type { InputItem } from './input-item.js';

const NEWLINE = 0x0a;
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** Reads one input in either format; `push` takes each chunk, `end` what is left. */
class ItemReader {
  private mode: 'unknown' | 'ndjson' | 'array' | 'after' = 'unknown';
  private line = 1;
  private started = false;
  private readonly spanning = new SpanningText();
  private partLine = 1;
  private index = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private elementStarted = false;
  private reportedAfter = false;
  /** The first bytes, held until there are three: enough to tell a byte order mark. */
  private head = Buffer.alloc(0);

  /** The rest of an item longer than MAX_ITEM_BYTES (reported) is passed over, up to its end. */
  private skipping = false;

  /** Binary input (an item longer than MAX_ITEM_BYTES holding a NUL byte, such as /dev/zero) was met: nothing more is read. */
  ended = false;

  /** Bytes read that no item handed out yet holds (an item not ended, or the first bytes before a BOM is told). */
  get holding(): boolean {
    return !this.spanning.empty || (!this.started && this.head.length > 0);
  }

  push(input: Buffer, out: InputItem[]): void {
    if (this.ended) return;
    let chunk = input;
    let start = 0;
    if (!this.started) {
      this.head = Buffer.concat([this.head, input]);
      if (this.head.length < 3) return;
      chunk = this.head;
      this.started = true;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) start = 3;
    }
    if (this.mode === 'unknown') start = this.detect(chunk, start);
    if (this.mode === 'ndjson') this.ndjson(chunk, start, out);
    else if (this.mode === 'array' || this.mode === 'after') this.array(chunk, start, out);
    if (this.spanning.tooLong) this.tooLong(out);
  }

  /** Reports the item being read, longer than MAX_ITEM_BYTES, and passes over the rest of it; ends the input if it is binary. */
  private tooLong(out: InputItem[]): void {
    const text = this.spanning.take().text;
    const head = excerpt(text.trimStart().slice(0, EXCERPT + 1));
    // No JSON text holds a NUL byte (RFC 8259 escapes control characters): binary input, which may have no item end at all.
    const binary = text.includes('\u0000');
    const longer = `longer than ${MAX_ITEM_BYTES / 1024 / 1024} MiB`;
    out.push({
      line: this.partLine,
      ...(this.mode === 'array' ? { index: this.index } : {}),
      error: binary ? `${longer}, and not JSON text (a NUL byte); the input is not read beyond it` : `${longer}: ${head}`,
      text: head,
      ...(binary ? { endsInput: true } : {}),
    });
    if (binary) this.ended = true;
    else this.skipping = true;
  }

  end(out: InputItem[]): void {
    if (this.ended) return;
    if (!this.started) {
      this.started = true;
      if (this.head.length) this.push(Buffer.concat([this.head, Buffer.from(' ')]), out);
    }
    const { text: rest, invalid } = this.spanning.take();
    if (this.mode === 'ndjson') {
      const last = itemFromDecoded(rest, invalid, this.partLine);
      if (last) out.push(last);
    } else if (this.mode === 'array') {
      // An element the input ended in is reported with its text and never sent.
      const text = rest.trim();
      out.push(
        text
          ? {
              line: this.partLine,
              index: this.index,
              error: 'the input ends inside the JSON array',
              text,
              ...(invalid ? { bytes: trimBytes(invalid) } : {}),
            }
          : { line: this.line, error: 'the input ends inside the JSON array' },
      );
    }
  }

  private detect(chunk: Buffer, from: number): number {
    let i = from;
    for (; i < chunk.length; i += 1) {
      const b = chunk[i]!;
      if (b === NEWLINE) this.line += 1;
      else if (!isSpace(b)) break;
    }
    if (i === chunk.length) return i;
    this.partLine = this.line;
    if (chunk[i] === 0x5b /* [ */) {
      this.mode = 'array';
      return i + 1;
    }
    this.mode = 'ndjson';
    return i;
  }

  private ndjson(chunk: Buffer, from: number, out: InputItem[]): void {
    let start = from;
    if (this.skipping) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) return;
      this.skipping = false;
      this.line += 1;
      start = newline + 1;
    }
    for (let newline = chunk.indexOf(NEWLINE, start); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, newline);
      let item: InputItem | undefined;
      if (this.spanning.empty) item = itemFromBytes(piece, this.line);
      else {
        this.spanning.add(piece);
        const { text, invalid } = this.spanning.take();
        item = itemFromDecoded(text, invalid, this.line);
      }
      if (item) out.push(item);
      this.line += 1;
      start = newline + 1;
    }
    if (start < chunk.length) {
      if (this.spanning.empty) this.partLine = this.line;
      this.spanning.add(chunk.subarray(start));
    }
  }

  private array(chunk: Buffer, from: number, out: InputItem[]): void {
    let elementStart = from;
    for (let i = from; i < chunk.length; i += 1) {
      const b = chunk[i]!;
      if (this.mode === 'after') {
        if (b === NEWLINE) this.line += 1;
        else if (!isSpace(b) && !this.reportedAfter) {
          out.push({ line: this.line, error: 'unexpected content after the end of the JSON array' });
          this.reportedAfter = true;
        }
        continue;
      }
      if (b === NEWLINE) this.line += 1;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === 0x5c /* \ */) this.escaped = true;
        else if (b === 0x22 /* " */) this.inString = false;
        continue;
      }
      if (this.depth === 0 && (b === 0x2c /* , */ || b === 0x5d) /* ] */) {
        if (this.skipping) this.skipping = false;
        else this.element(chunk.subarray(elementStart, i), b, out);
        this.index += 1;
        this.elementStarted = false;
        elementStart = i + 1;
        if (b === 0x5d) this.mode = 'after';
        continue;
      }
      if (!this.elementStarted && !isSpace(b)) {
        this.elementStarted = true;
        this.partLine = this.line;
      }
      if (b === 0x22) this.inString = true;
      else if (b === 0x7b /* { */ || b === 0x5b /* [ */) this.depth += 1;
      else if (b === 0x7d /* } */ || b === 0x5d) this.depth -= 1;
    }
    if (this.mode === 'array' && elementStart < chunk.length && !this.skipping) this.spanning.add(chunk.subarray(elementStart));
  }

  /** The array element ending with `piece` (and what `spanning` holds of it), ended by `b` (`,` or `]`). */
  private element(piece: Buffer, b: number, out: InputItem[]): void {
    let item: InputItem | undefined;
    if (this.spanning.empty) item = itemFromBytes(piece, this.partLine, this.index);
    else {
      this.spanning.add(piece);
      const { text, invalid } = this.spanning.take();
      item = itemFromDecoded(text, invalid, this.partLine, this.index);
    }
    if (item) out.push(item);
    else if (b === 0x2c || this.index > 0) out.push({ line: this.line, index: this.index, error: 'empty array element' });
  }
}

/** How far {@link readItemBatches} got: kept up to date as it reads, to tell a load cut short from one that had read everything. */
export interface ReadState {
  /** Bytes read so far. */
  bytes: number;
  /** Some of those bytes belong to an item not yet handed out. */
  holding: boolean;
  /** The input's end was met (every item handed out). */
  ended: boolean;
}

/**
 * Bytes of a read split into items at a time: the items of a 64 KiB read (some 1,200 pets) would wait, parsed, for their turn to be
 * sent, and live through the young generation's collections meanwhile (bench/RESULTS.md, issue 37 item 8).
 */
const SLICE_BYTES = 8192;

/** `input`'s items, a batch per 8 KiB of a chunk; `onBytes` hears their sizes, `state` kept current. Never throws (bad content: an `error` item). */
export async function* readItemBatches(
  input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  onBytes?: (count: number) => void,
  state: ReadState = { bytes: 0, holding: false, ended: false },
): AsyncGenerator<InputItem[]> {
  const reader = new ItemReader();
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
      const slice = bytes.length <= SLICE_BYTES ? bytes : bytes.subarray(at, at + SLICE_BYTES);
      onBytes?.(slice.length);
      state.bytes += slice.length;
      const batch: InputItem[] = [];
      reader.push(slice, batch);
      state.holding = reader.holding;
      if (batch.length) yield batch;
      if (reader.ended) return;
    }
  }
  const last: InputItem[] = [];
  reader.end(last);
  state.holding = false;
  state.ended = true;
  if (last.length) yield last;
}
