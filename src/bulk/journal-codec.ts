/**
 * The format of a bulk load's journal (`F.journal` beside `--failed F`), version 2: one NDJSON record per line, each written whole
 * before what it records goes on. The writer (journal.ts), the reader (journal-read.ts) and the store's ids (store-ids.ts) all go
 * through this module, so that the format has one definition.
 *
 *   {"petstore_journal":2,"input":"/abs/pets.ndjson","identity":"file:<dev>:<ino>","started":"<ISO 8601>"}   ("stream" for stdin, a pipe)
 *   {"i":0,"h":"<hash of the item>","s":1}     seen; s=1: its POST may leave once this is written, s=0: not sent (invalid, carried over)
 *   {"c":0}                                    item 0 was created
 *   {"c":0,"id":"7"}                           item 0 was created as pet 7 (with --resolve-unknown; also once settled)
 *   {"o":3,"r":{<its --failed record>}}        item 3 ended failed, unknown or not_sent
 *   {"n":5}                                    item 5, refused with Retry-After, was not sent again: a resumed load sends it
 *   {"u":9}                                    written by petstore before issue 38 where it cut a damaged journal: items below 9 not
 *                                              recorded are unknown (read, never written now)
 *   {"ended":"<ISO 8601>","complete":true,"tally":{...}}   the load ended (written before F replaces the old one); complete: false when stopped
 *
 * The journal is a log that any run appends to. A record cut off by a crash or a full disk stays where it is: the next run starts its
 * records on a line of their own after it, and the reader sets the cut record aside (journal-read.ts) and reads on.
 */
import * as z from 'zod/mini';
import { parseJson, stringifyJson } from '../json.js';

/** The version this petstore writes; version 1 (no `identity`) is read too. */
export const JOURNAL_VERSION = 2;

const Index = z.bigint().check(z.gte(0n), z.lte(BigInt(Number.MAX_SAFE_INTEGER)));
const Header = z.object({
  petstore_journal: z.union([z.literal(1n), z.literal(2n)]),
  input: z.string(),
  identity: z.optional(z.string()),
  started: z.string(),
});
const Seen = z.strictObject({ i: Index, h: z.string().check(z.regex(/^[0-9a-f]{8}$/)), s: z.union([z.literal(0n), z.literal(1n)]) });
const Created = z.strictObject({ c: Index, id: z.optional(z.string().check(z.regex(/^-?\d{1,19}$/))) });
const NotTaken = z.strictObject({ n: Index });
const Decided = z.strictObject({
  o: Index,
  r: z.looseObject({ outcome: z.enum(['failed', 'unknown', 'not_sent']), line: z.unknown() }),
});
const Damaged = z.strictObject({ u: Index });
const Count = z.bigint().check(z.gte(0n));
const Ended = z.strictObject({
  ended: z.iso.datetime(),
  complete: z.boolean(),
  tally: z.strictObject({ read: Count, created: Count, failed: Count, unknown: Count, notSent: Count, skipped: Count }),
});

/** A load's counts (load-summary.ts), as its end record holds them. */
export interface Tally {
  read: number;
  created: number;
  failed: number;
  unknown: number;
  notSent: number;
  /** Unknown-outcome items of an earlier --failed file, not sent again. */
  skipped: number;
}

/** One record of the journal, decoded and checked. */
export type JournalRecord =
  | { kind: 'header'; version: number; input: string; identity?: string; started: string }
  | { kind: 'seen'; i: number; hash: string; sending: boolean }
  | { kind: 'created'; i: number; id?: bigint }
  | { kind: 'not_taken'; i: number }
  | { kind: 'decided'; i: number; record: Record<string, unknown> }
  | { kind: 'damaged'; below: number }
  | { kind: 'ended'; ended: string; complete: boolean; tally: Tally };

/** The journal's first line, naming the input (`identity` compared on a resume). */
export function encodeHeader(input: { input: string; identity: string }, started: string): string {
  return `${stringifyJson({ petstore_journal: JOURNAL_VERSION, ...input, started })}\n`;
}

/** Item `i` seen, with its hash; `sending`: its POST may leave once this record is written. */
export function encodeSeen(i: number, hash: string, sending: boolean): string {
  return `{"i":${i},"h":"${hash}","s":${sending ? 1 : 0}}\n`;
}

/** Item `i` created (as pet `id`, when known). */
export function encodeCreated(i: number, id?: bigint): string {
  return id === undefined ? `{"c":${i}}\n` : `{"c":${i},"id":"${id}"}\n`;
}

/** Item `i`, refused with Retry-After, not sent again. */
export function encodeNotTaken(i: number): string {
  return `{"n":${i}}\n`;
}

/** Item `i`'s `--failed` record. */
export function encodeDecided(i: number, record: object): string {
  return `{"o":${i},"r":${stringifyJson(record)}}\n`;
}

/** The load's end; `complete` unless it stopped. */
export function encodeEnded(tally: Tally, complete: boolean, ended = new Date().toISOString()): string {
  return `${stringifyJson({ ended, complete, tally })}\n`;
}

const toNumber = (value: bigint): number => Number(value);

/** The record of one line (without its newline); `first`: the journal's first line, its header. Undefined when not a valid record. */
export function decodeRecord(line: string, first: boolean): JournalRecord | undefined {
  let value: unknown;
  try {
    value = parseJson(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (first) {
    const header = Header.safeParse(value);
    if (!header.success) return undefined;
    const { petstore_journal: version, input, identity, started } = header.data;
    return { kind: 'header', version: Number(version), input, started, ...(identity === undefined ? {} : { identity }) };
  }
  if ('i' in value) {
    const seen = Seen.safeParse(value);
    return seen.success ? { kind: 'seen', i: toNumber(seen.data.i), hash: seen.data.h, sending: seen.data.s === 1n } : undefined;
  }
  if ('c' in value) {
    const created = Created.safeParse(value);
    if (!created.success) return undefined;
    return { kind: 'created', i: toNumber(created.data.c), ...(created.data.id === undefined ? {} : { id: BigInt(created.data.id) }) };
  }
  if ('n' in value) {
    const notTaken = NotTaken.safeParse(value);
    return notTaken.success ? { kind: 'not_taken', i: toNumber(notTaken.data.n) } : undefined;
  }
  if ('o' in value) {
    const decided = Decided.safeParse(value);
    return decided.success ? { kind: 'decided', i: toNumber(decided.data.o), record: decided.data.r } : undefined;
  }
  if ('u' in value) {
    const damaged = Damaged.safeParse(value);
    return damaged.success ? { kind: 'damaged', below: toNumber(damaged.data.u) } : undefined;
  }
  const ended = Ended.safeParse(value);
  if (!ended.success) return undefined;
  const tally = Object.fromEntries(Object.entries(ended.data.tally).map(([k, v]) => [k, Number(v)])) as unknown as Tally;
  return { kind: 'ended', ended: ended.data.ended, complete: ended.data.complete, tally };
}

/** Whether a line that is no valid record began as an answer (created, not taken, decided): about an item seen before it. */
export function isAnswerPrefix(line: string): boolean {
  return /^\{"[cno]":/.test(line);
}

const INDEX_IN_TEXT = /"[icnou]":\s*(\d{1,20})/g;

/** The highest item index named in text that is no valid record, parsed as a number only (never allocated for); -1 for none. */
export function highestIndexIn(text: string): number {
  let highest = -1;
  for (const match of text.matchAll(INDEX_IN_TEXT)) highest = Math.max(highest, Number(match[1]));
  return highest;
}
