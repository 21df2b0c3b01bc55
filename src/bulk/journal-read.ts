/**
 * Reads a load journal (journal-codec.ts) without trusting it. A line that is no valid record (cut off by a crash or a full disk,
 * garbage) is set aside, the items it may name count as unknown (possibly sent, never unsent), and the reading goes on with the next
 * line: the records of the runs after it are read whatever came before.
 */
import { decodeRecord, highestIndexIn, isAnswerPrefix, type JournalRecord } from './journal-codec.js';
import type { Tally } from './load-summary.js';

export const NONE = 0;
export const NOT_SENT = 1;
export const SENDING = 2;
export const CREATED = 3;
export const DECIDED = 4;
/** Seen and not sent: invalid, or an earlier `unknown` carried over (s=0). */
export const PASSED_OVER = 5;

export interface EarlierLoad {
  started: string;
  /** When it ended in order, its --failed file written (a stopped load too). */
  ended?: string;
  /** When it ran to its end. */
  finished?: string;
  tally?: Tally;
  created: number;
  decided: { failed: number; unknown: number; notSent: number };
  /** Sent with no answer recorded (or named by a record set aside): they become unknown. */
  noAnswer: number;
  /** Seen and not sent: invalid, or an earlier `unknown` carried over. */
  passedOver: number;
  /** Items the journal knows of, in input order. */
  known: number;
  /** Items below this index not recorded are unknown: a record set aside may name them (0: none). */
  unknownBelow: number;
  /** Lines set aside: records cut off by a crash or a full disk, or garbage. */
  setAside: number;
}

export interface ReadJournal {
  input: string;
  /** The input's identity (file:<dev>:<ino>, or stream), absent in a version 1 journal. */
  identity?: string;
  earlier: EarlierLoad;
  states: Uint8Array;
  /** Each known item's hash; '' for an item an earlier petstore journaled without one (its text is not compared). */
  hashes: string[];
  records: Map<number, Record<string, unknown>>;
  /** The journal does not end with a newline (its last record was cut off): the next record must start on a line of its own. */
  endsCut: boolean;
}

/** The journal's first line is no header, yet records follow it: it is not read as no journal (that would send everything again). */
export class JournalUnreadableError extends Error {
  override name = 'JournalUnreadableError';
}

/** What one record does to the items read so far; false when it cannot stand where it is (set aside). */
class Reading {
  states = new Uint8Array(1024);
  readonly hashes: string[] = [];
  readonly records = new Map<number, Record<string, unknown>>();
  readonly earlier: EarlierLoad = {
    started: '',
    created: 0,
    decided: { failed: 0, unknown: 0, notSent: 0 },
    noAnswer: 0,
    passedOver: 0,
    known: 0,
    unknownBelow: 0,
    setAside: 0,
  };

  private set(i: number, state: number): void {
    if (i >= this.states.length) {
      const grown = new Uint8Array(Math.max(this.states.length * 2, i + 1));
      grown.set(this.states);
      this.states = grown;
    }
    this.states[i] = state;
  }

  /** Marks the next item known (its hash '' when unknown). */
  private see(i: number, hash: string): void {
    if (i === this.earlier.known) this.earlier.known += 1;
    this.hashes[i] = hash;
  }

  apply(record: JournalRecord): boolean {
    const { earlier } = this;
    const known = earlier.known;
    switch (record.kind) {
      case 'header':
        return false;
      case 'seen':
        // Items are seen in order: the next one, or one seen before (a resumed load) with the same text (or one whose hash is not known).
        if (record.i > known || (record.i < known && this.hashes[record.i] !== record.hash && this.hashes[record.i] !== '')) return false;
        this.see(record.i, record.hash);
        this.set(record.i, record.sending ? SENDING : PASSED_OVER);
        break;
      case 'decided':
        // petstore before issue 38 journaled an item that a damaged journal made unknown without its "seen" record: taken as seen.
        if (record.i === known && record.i < earlier.unknownBelow) this.see(record.i, '');
        if (record.i >= earlier.known) return false;
        this.set(record.i, DECIDED);
        this.records.set(record.i, record.record);
        break;
      case 'created':
      case 'not_taken':
        if (record.i >= known) return false;
        this.set(record.i, record.kind === 'created' ? CREATED : NOT_SENT);
        break;
      case 'damaged':
        earlier.unknownBelow = Math.max(earlier.unknownBelow, record.below);
        break;
      case 'ended':
        earlier.ended = record.ended;
        earlier.finished = record.complete ? record.ended : undefined;
        earlier.tally = record.tally;
        return true;
    }
    // A record after an "ended" one: that load was resumed.
    earlier.ended = earlier.finished = undefined;
    return true;
  }

  /**
   * A line that is no valid record where it stands: the items it may name are unknown. Cut off as an answer, it is about an item seen
   * before it; otherwise it may be the next item's "seen" record, its index cut short, so the next item is unknown too.
   */
  setAside(line: string): void {
    const { earlier } = this;
    earlier.setAside += 1;
    earlier.unknownBelow = Math.max(earlier.unknownBelow, highestIndexIn(line) + 1, isAnswerPrefix(line) ? 0 : earlier.known + 1);
    earlier.ended = earlier.finished = undefined;
  }

  /** The counts of the items known. */
  count(): void {
    const { earlier, states, records } = this;
    for (let i = 0; i < earlier.known; i += 1) {
      const state = states[i];
      if (state === CREATED) earlier.created += 1;
      else if (state === SENDING) earlier.noAnswer += 1;
      else if (state === PASSED_OVER) earlier.passedOver += 1;
      // Seen, then proven never sent (its connection never opened): not sent, as an outcome record says of the others.
      else if (state === NOT_SENT) earlier.decided.notSent += 1;
      else if (state === DECIDED) {
        const outcome = records.get(i)?.outcome;
        if (outcome === 'unknown') earlier.decided.unknown += 1;
        else if (outcome === 'not_sent') earlier.decided.notSent += 1;
        else earlier.decided.failed += 1;
      }
    }
  }
}

/**
 * The journal in `data`; undefined when it holds no header and nothing after it (a load that died before its first record). Throws
 * JournalUnreadableError when its first line is no header and more lines follow. Memory grows with the records read, never with a
 * number in one.
 */
export function readJournal(data: Buffer): ReadJournal | undefined {
  const reading = new Reading();
  let header: Extract<JournalRecord, { kind: 'header' }> | undefined;
  let offset = 0;
  while (offset < data.length) {
    const newline = data.indexOf(0x0a, offset);
    const end = newline === -1 ? data.length : newline;
    const line = data.toString('utf8', offset, end);
    offset = end + 1;
    // A last line without its newline is read as it stands: whole but for it, it records what it says; else it is set aside.
    const record = decodeRecord(line, header === undefined);
    if (header === undefined) {
      if (record?.kind === 'header') {
        header = record;
        continue;
      }
      if (offset >= data.length) return undefined;
      throw new JournalUnreadableError('its first line is not the header of a petstore journal');
    }
    if (!record || !reading.apply(record)) reading.setAside(line);
  }
  if (!header) return undefined;
  reading.count();
  const { earlier } = reading;
  earlier.started = header.started;
  return {
    input: header.input,
    ...(header.identity === undefined ? {} : { identity: header.identity }),
    earlier,
    states: reading.states.subarray(0, earlier.known),
    hashes: reading.hashes,
    records: reading.records,
    endsCut: data.length > 0 && data[data.length - 1] !== 0x0a,
  };
}
