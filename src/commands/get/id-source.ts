/** The ids of `get ID...` and `get -`: words of standard input, split on any whitespace as they arrive, in flat memory. */
import { StringDecoder } from 'node:string_decoder';
import { INT64_MAX, INT64_MIN, Int64Text } from '../../api/schemas.js';

/** One id as given: its text, its line of standard input, and its value, or why it is none. */
export interface IdToken {
  /** As given; cut to {@link LONGEST_SHOWN} characters and "…" when longer. */
  text: string;
  /** 1-based line of standard input; undefined on the command line. */
  line?: number;
  /** The int64, or undefined when the text is not one (then `error` says why). */
  id?: bigint;
  error?: string;
}

/** Characters of a word kept to name it: longer words are no int64 (20 characters at most), so the rest is passed over unread. */
export const LONGEST_SHOWN = 40;

const DIGITS = /^-?\d{1,19}$/;

/** `text` (at most {@link LONGEST_SHOWN} characters, `long` if it was longer) as a token of `line`; Int64Text's message when not an int64. */
export function tokenOf(text: string, line: number | undefined, long = false): IdToken {
  const base = line === undefined ? {} : { line };
  if (!long && DIGITS.test(text)) {
    const id = BigInt(text);
    if (id >= INT64_MIN && id <= INT64_MAX) return { text, ...base, id };
  }
  const shown = long ? `${text}…` : text;
  if (long) return { text: shown, ...base, error: 'must be an integer written as decimal digits (an int64 has at most 19)' };
  const checked = Int64Text.safeParse(text);
  return { text: shown, ...base, error: checked.success ? 'not an int64' : (checked.error.issues[0]?.message ?? 'not an int64') };
}

/** The ids of the command line, checked already, as tokens. */
export function commandLineTokens(ids: readonly bigint[]): IdToken[] {
  return ids.map((id) => ({ text: String(id), id }));
}

// ASCII whitespace; other Unicode spaces (U+00A0, U+2028, ...) through the regular expression.
const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c > 0x7f && /\s/.test(String.fromCharCode(c)));

/** Splits text into whitespace-separated words with their lines, a chunk at a time; a word may span chunks. */
export class IdTokenizer {
  private line = 1;
  private word = '';
  private wordLine = 1;
  private long = false;
  private readonly decoder = new StringDecoder('utf8');

  /** The words that `chunk` ends, as tokens. */
  push(chunk: Buffer | string): IdToken[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const out: IdToken[] = [];
    let start = -1;
    for (let i = 0; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (!isSpace(c)) {
        if (start === -1) start = i;
        continue;
      }
      if (start !== -1) {
        this.add(text, start, i);
        start = -1;
      }
      this.finishWord(out);
      if (c === 0x0a) this.line += 1;
    }
    if (start !== -1) this.add(text, start, text.length);
    return out;
  }

  /** The last word, if the input ended inside one. */
  end(out: IdToken[] = []): IdToken[] {
    const rest = this.decoder.end();
    if (rest) this.add(rest, 0, rest.length);
    this.finishWord(out);
    return out;
  }

  private finishWord(out: IdToken[]): void {
    if (this.word === '' && !this.long) return;
    out.push(tokenOf(this.word, this.wordLine, this.long));
    this.word = '';
    this.long = false;
  }

  private add(text: string, from: number, to: number): void {
    if (this.word === '' && !this.long) this.wordLine = this.line;
    const room = LONGEST_SHOWN - this.word.length;
    if (to - from > room) {
      this.word += text.slice(from, from + room);
      this.long = true;
    } else this.word += text.slice(from, to);
  }
}

/** Bytes of input split into words at a time: a 64 KiB read holds some 10,000 ids, and the first request waits for its words. */
const SLICE_BYTES = 8192;

/**
 * The tokens of `input`, a batch per 8 KiB read (an empty batch for one of whitespace); the input's end flushes the last word.
 * `slicing` is true while a read's later slices are still to come.
 */
export class IdReader {
  slicing = false;

  constructor(private readonly input: AsyncIterable<Buffer | string>) {}

  async *batches(): AsyncGenerator<IdToken[]> {
    const tokenizer = new IdTokenizer();
    for await (const chunk of this.input) {
      if (typeof chunk === 'string' || chunk.length <= SLICE_BYTES) {
        yield tokenizer.push(chunk);
        continue;
      }
      for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
        this.slicing = at + SLICE_BYTES < chunk.length;
        yield tokenizer.push(chunk.subarray(at, at + SLICE_BYTES));
      }
    }
    const last = tokenizer.end();
    if (last.length) yield last;
  }
}
