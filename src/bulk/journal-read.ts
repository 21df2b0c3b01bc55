/** Reads a load journal (journal.ts) without trusting it: the first invalid record ends it, and the items it may name count as unknown. */

import * as z from 'zod/mini';
import { parseJson } from '../json.js';
import type { Tally } from './load-summary.js';

export const NONE = 0;
export const NOT_SENT = 1;
export const SENDING = 2;
export const CREATED = 3;
export const DECIDED = 4;
/** Seen and not sent: invalid, or an earlier `unknown` carried over (s=0). */
export const PASSED_OVER = 5;

const Index = z.bigint().check(z.gte(0n), z.lte(BigInt(Number.MAX_SAFE_INTEGER)));
const Header = z.object({
  petstore_journal: z.union([z.literal(1n), z.literal(2n)]),
  input: z.string(),
  identity: z.optional(z.string()),
  started: z.string(),
});
const Seen = z.strictObject({ i: Index, h: z.string().check(z.regex(/^[0-9a-f]{8}$/)), s: z.union([z.literal(0n), z.literal(1n)]) });
// With --resolve-unknown a created record carries the pet's id (store-ids.ts reads it).
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

export interface EarlierLoad {
  started: string;
  /** When it ended in order, its --failed file written (a stopped load too). */
  ended?: string;
  /** When it ran to its end. */
  finished?: string;
  tally?: Tally;
  created: number;
  decided: { failed: number; unknown: number; notSent: number };
  /** Sent with no answer recorded (or named by a damaged record): they become unknown. */
  noAnswer: number;
  /** Seen and not sent: invalid, or an earlier `unknown` carried over. */
  passedOver: number;
  /** Items the journal knows of, in input order. */
  known: number;
  /** Items below this index not recorded are unknown: the journal was damaged there (0: not damaged). */
  unknownBelow: number;
}

export interface ReadJournal {
  input: string;
  /** The input's identity (file:<dev>:<ino>, or stream), absent in a version 1 journal. */
  identity?: string;
  earlier: EarlierLoad;
  states: Uint8Array;
  hashes: string[];
  records: Map<number, Record<string, unknown>>;
  /** Bytes of whole, valid records: the rest is cut off before the journal is written again. */
  goodBytes: number;
  /** Why the reading stopped early, for messages. */
  damage?: string;
}

const INDEX_IN_TEXT = /"[icnou]":\s*(\d{1,20})/g;

/** The highest item index named in unreadable text, parsed as a number only (never allocated for). */
function highestIndexIn(text: string): number {
  let highest = -1;
  for (const match of text.matchAll(INDEX_IN_TEXT)) highest = Math.max(highest, Number(match[1]));
  return highest;
}

/** The journal in `data`; undefined when it holds no valid header (a load that died before writing one). */
export function readJournal(data: Buffer): ReadJournal | undefined {
  let states = new Uint8Array(1024);
  const hashes: string[] = [];
  const records = new Map<number, Record<string, unknown>>();
  const earlier: EarlierLoad = {
    started: '',
    created: 0,
    decided: { failed: 0, unknown: 0, notSent: 0 },
    noAnswer: 0,
    passedOver: 0,
    known: 0,
    unknownBelow: 0,
  };
  let header: z.infer<typeof Header> | undefined;
  let offset = 0;
  let goodBytes = 0;
  let damage: string | undefined;
  let lineNumber = 1;
  const set = (i: number, state: number) => {
    if (i >= states.length) {
      const grown = new Uint8Array(Math.max(states.length * 2, i + 1));
      grown.set(states);
      states = grown;
    }
    states[i] = state;
  };
  while (offset < data.length) {
    const newline = data.indexOf(0x0a, offset);
    if (newline === -1) {
      damage = 'its last record was cut off';
      break;
    }
    const line = data.toString('utf8', offset, newline);
    let value: unknown;
    try {
      value = parseJson(line);
    } catch {
      damage = `its record on line ${lineNumber} is not JSON`;
      break;
    }
    const known = earlier.known;
    const ok = (() => {
      if (!header) {
        const parsed = Header.safeParse(value);
        if (parsed.success) header = parsed.data;
        return parsed.success;
      }
      let parsed: { success: boolean; data?: unknown } = Seen.safeParse(value);
      if (parsed.success) {
        const seen = parsed.data as z.infer<typeof Seen>;
        const [i, h, s] = [Number(seen.i), seen.h, seen.s];
        // Items are seen in order: the next one, or one seen before (a resumed load) with the same source.
        if (i > known || (i < known && hashes[i] !== h)) return false;
        if (i === known) earlier.known += 1;
        hashes[i] = h;
        set(i, s === 1n ? SENDING : PASSED_OVER);
        return true;
      }
      for (const [schema, state] of [
        [Created, CREATED],
        [NotTaken, NOT_SENT],
        [Decided, DECIDED],
      ] as const) {
        parsed = schema.safeParse(value);
        if (!parsed.success) continue;
        const record = parsed.data as { c?: bigint; n?: bigint; o?: bigint; r?: Record<string, unknown> };
        const i = Number(record.c ?? record.n ?? record.o!);
        if (i >= known) return false;
        set(i, state);
        if (record.r) records.set(i, record.r);
        return true;
      }
      parsed = Damaged.safeParse(value);
      if (parsed.success) {
        earlier.unknownBelow = Math.max(earlier.unknownBelow, Number((parsed.data as { u: bigint }).u));
        return true;
      }
      parsed = Ended.safeParse(value);
      if (!parsed.success) return false;
      const ended = parsed.data as z.infer<typeof Ended>;
      earlier.ended = ended.ended;
      earlier.finished = ended.complete ? ended.ended : undefined;
      earlier.tally = Object.fromEntries(Object.entries(ended.tally).map(([k, v]) => [k, Number(v)])) as unknown as Tally;
      return true;
    })();
    if (!ok) {
      damage = `its record on line ${lineNumber} is not valid`;
      break;
    }
    // A record after an "ended" one: that load was resumed.
    if (!(typeof value === 'object' && value !== null && 'ended' in value)) earlier.ended = earlier.finished = undefined;
    offset = newline + 1;
    goodBytes = offset;
    lineNumber += 1;
  }
  if (!header) return undefined;
  if (damage !== undefined) {
    // What the bad record and those after it may name was perhaps sent: unknown up to the highest index they hold (the next item at least).
    const rest = data.subarray(goodBytes, goodBytes + (1 << 20) * 64).toString('latin1');
    earlier.unknownBelow = Math.max(earlier.unknownBelow, earlier.known + 1, highestIndexIn(rest) + 1);
    earlier.ended = earlier.finished = undefined;
  }
  earlier.started = header.started;
  for (let i = 0; i < earlier.known; i += 1) {
    const state = states[i];
    if (state === CREATED) earlier.created += 1;
    else if (state === SENDING) earlier.noAnswer += 1;
    else if (state === PASSED_OVER) earlier.passedOver += 1;
    else if (state === DECIDED) {
      const outcome = records.get(i)?.outcome;
      if (outcome === 'unknown') earlier.decided.unknown += 1;
      else if (outcome === 'not_sent') earlier.decided.notSent += 1;
      else earlier.decided.failed += 1;
    }
  }
  return {
    input: header.input,
    identity: header.identity,
    earlier,
    states: states.subarray(0, earlier.known),
    hashes,
    records,
    goodBytes,
    damage,
  };
}
