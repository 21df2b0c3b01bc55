/**
 * The journal of a bulk load with `--failed F`: append-only NDJSON `F.journal` (its format: journal-codec.ts), so the same command
 * resumes after any death. Each record is written whole (`fs.writeSync` until every byte is taken) before what it records goes on; a
 * write error stops the load, and the item it was about is not sent. Items are numbered from 0 in input order and seen in order. Read
 * back by journal-read.ts: a record cut off by a crash or a full disk is left where it is, and this run's records start after it.
 */
import fs from 'node:fs';
import { UsageError } from '../errors.js';
import { CREATE_NEW, writeAll, type WriteSync } from './failed-file.js';
import { errnoCode } from './load-lock.js';
import { encodeCreated, encodeDecided, encodeEnded, encodeHeader, encodeNotTaken, encodeSeen } from './journal-codec.js';
import { cannotWrite, JournalWriteError, openExisting, refuseOdd } from './journal-file.js';
import { CREATED, DECIDED, type EarlierLoad, NONE, NOT_SENT, PASSED_OVER } from './journal-read.js';
import type { Tally } from './load-summary.js';

export { JournalWriteError } from './journal-file.js';
export type { EarlierLoad } from './journal-read.js';

export type JournalState =
  | { kind: 'new' }
  | { kind: 'not_sent_before' }
  | { kind: 'created' }
  | { kind: 'decided'; record: Record<string, unknown> }
  | { kind: 'no_answer' };

/** What the load's input is, for its journal: `input` shown in messages, `identity` compared (file:<dev>:<ino>, or stream). */
export interface InputIdentity {
  input: string;
  identity: string;
}

/** How a journal is written: `write` (fs.writeSync unless a test injects faults), `guard` run before each write (throws to forbid it). */
export interface JournalWriting {
  write?: WriteSync;
  /** Confirms the load still holds the lock of --failed (lock-lease.ts); throws LeaseLostError when it does not. */
  guard?: () => void;
}

export class LoadJournal {
  private states: Uint8Array = new Uint8Array(1024);
  private hashes: string[] = [];
  private records = new Map<number, Record<string, unknown>>();
  /** Records not yet written, in order: items seen and answers (see {@link itemSeen}, {@link created}). */
  private pending = '';
  /** The header's time of a journal this run started. */
  private begun = '';
  private constructor(
    readonly path: string,
    private readonly fd: number,
    readonly earlier: EarlierLoad | undefined,
    private readonly writing: JournalWriting,
  ) {}

  /** Items the earlier load saw, in input order: this run must see the same ones first. */
  get known(): number {
    return this.earlier?.known ?? 0;
  }

  /**
   * Opens `F.journal` for `input`: resumes one of the same identity (appending after what its runs wrote, a record cut off included),
   * replaces one of another input that ended, or starts anew (always with `restart`). Throws UsageError (exit 2, nothing sent) for an
   * unfinished journal of another input, one whose first line is no header, an odd file, or unwritable.
   */
  static open(path: string, input: InputIdentity, restart: boolean, writing: JournalWriting = {}): LoadJournal {
    refuseOdd(path, restart);
    if (!restart && fs.existsSync(path)) {
      const { fd, read } = openExisting(path);
      const same = read && (read.identity === undefined ? read.input === input.input : read.identity === input.identity);
      if (read && !same && !read.earlier.ended) {
        fs.closeSync(fd);
        throw new UsageError(
          `${path} is the journal of an unfinished load of ${read.input}, not of ${input.input}`,
          'Run that load again to finish it, add --restart to discard its journal and load this input, or give another --failed.',
          'journal_mismatch',
        );
      }
      if (read && same) {
        const journal = new LoadJournal(path, fd, read.earlier, writing);
        journal.states = read.states;
        journal.hashes = read.hashes;
        journal.records = read.records;
        try {
          // A record cut off at the end stays (the reader sets it aside): this run's records start on a line of their own.
          if (read.endsCut) journal.append('\n');
          return journal;
        } catch (error) {
          fs.closeSync(fd);
          throw cannotWrite(path, error);
        }
      }
      fs.closeSync(fd);
    }
    try {
      fs.rmSync(path, { force: true });
      const fd = fs.openSync(path, CREATE_NEW, 0o600);
      const journal = new LoadJournal(path, fd, undefined, writing);
      const started = new Date().toISOString();
      journal.append(encodeHeader(input, started));
      journal.begun = started;
      return journal;
    } catch (error) {
      throw cannotWrite(path, error);
    }
  }

  /** What the journal knows of item `index`. Throws UsageError (exit 2) when it knew another item there (the input changed). */
  state(index: number, hash: string, line: number): JournalState {
    const state = index < this.known ? this.states[index]! : NONE;
    const known = index < this.known ? this.hashes[index] : undefined;
    if (known !== undefined && known !== '' && known !== hash) throw this.differs(`at line ${line}`);
    // A finished load's input had no more items than it saw.
    if (index >= this.known && this.earlier?.finished) throw this.differs(`at line ${line} (the finished load saw ${this.known} items)`);
    if (state === NONE) return index < (this.earlier?.unknownBelow ?? 0) ? { kind: 'no_answer' } : { kind: 'new' };
    if (state === NOT_SENT || state === PASSED_OVER) return { kind: 'not_sent_before' };
    if (state === CREATED) return { kind: 'created' };
    if (state === DECIDED) return { kind: 'decided', record: this.records.get(index)! };
    return { kind: 'no_answer' };
  }

  /** The error for an input that is not the one the journal records (exit 2): thrown before anything of this run is sent. */
  differs(where: string): UsageError {
    return new UsageError(
      `the input differs from the one the journal ${this.path} records, ${where}; nothing was sent by this run`,
      'Add --restart to discard the journal and load this input from the start, or give another --failed.',
      'journal_mismatch',
    );
  }

  /** Records item `index` seen (`sending`: its POST leaves once {@link flush} has written this), kept in order with the answers. */
  itemSeen(index: number, hash: string, sending: boolean): void {
    this.pending += encodeSeen(index, hash, sending);
  }

  /** Takes back item `index`'s record as being sent, not yet written (the load stopped before its POST left): it is not journaled. */
  withdraw(index: number, hash: string): void {
    this.pending = this.pending.replace(encodeSeen(index, hash, true), '');
  }

  /** Writes the records kept since the last write, whole, before the items they record as being sent leave. Throws JournalWriteError. */
  flush(): void {
    if (this.broken) throw new JournalWriteError(this.path, 'an earlier write failed');
    const text = this.pending;
    this.pending = '';
    if (text) this.append(text);
  }

  /** Records item `index` created, written by the next {@link flush} or the end: a death loses only answers, making items unknown. */
  created(index: number, id?: bigint): void {
    this.pending += encodeCreated(index, id);
  }

  /** When this load started: its first run's header (store-ids.ts ties the store's ids to it). */
  get started(): string {
    return this.earlier?.started ?? this.begun;
  }

  /** Records item `index`, refused with Retry-After (429 or 503), not sent again by this run (kept as {@link created} is). */
  notTaken(index: number): void {
    this.pending += encodeNotTaken(index);
  }

  /** Records item `index`'s --failed record (kept as {@link created} is). */
  decided(index: number, record: object): void {
    this.pending += encodeDecided(index, record);
  }

  /** Records the end (before --failed is put in place: a rerun then writes it again); `complete` when not stopped. Throws JournalWriteError. */
  end(tally: Tally, complete: boolean): void {
    this.append(`${this.pending}${encodeEnded(tally, complete)}`);
    this.pending = '';
  }

  /** Writes what is pending (unless the journal failed) and closes it; never throws. */
  close(): void {
    try {
      if (this.pending && !this.broken) this.append(this.pending);
    } catch {
      // Said when the load stopped; the answers not written make their items unknown.
    }
    this.pending = '';
    try {
      fs.closeSync(this.fd);
    } catch {
      // Already closed.
    }
  }

  /** Writes nothing more (the lock was taken over: the journal is its new owner's). */
  abandon(): void {
    this.broken = true;
    this.pending = '';
  }

  /** Set by a write error or a failed guard: nothing more is written (a record after a partial one would join it on its line). */
  private broken = false;

  /** Appends `text` whole; throws JournalWriteError, or the guard's error (then nothing more is written). */
  private append(text: string): void {
    if (this.broken) throw new JournalWriteError(this.path, 'an earlier write failed');
    try {
      this.writing.guard?.();
    } catch (error) {
      this.abandon();
      throw error;
    }
    try {
      writeAll(this.fd, text, this.writing.write);
    } catch (error) {
      this.broken = true;
      throw new JournalWriteError(this.path, errnoCode(error));
    }
  }
}
