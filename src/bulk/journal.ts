/**
 * The journal of a bulk load with `--failed F`: append-only NDJSON `F.journal`, so the same command resumes after any death. Each record
 * is written whole (`fs.writeSync` until every byte is taken) before what it records goes on; a write error stops the load, and the
 * item it was about is not sent. Items are numbered from 0 in input order and seen in order. Read back by journal-read.ts.
 *
 *   {"petstore_journal":2,"input":"/abs/pets.ndjson","identity":"file:<dev>:<ino>","started":"<ISO 8601>"}   ("stream" for stdin, a pipe)
 *   {"i":0,"h":"<hash of the item>","s":1}     seen; s=1: its POST is about to leave, s=0: not sent (invalid, carried over)
 *   {"c":0}                                    item 0 was created
 *   {"c":0,"id":"7"}                           item 0 was created as pet 7 (with --resolve-unknown: settle-unknown.ts; also once settled)
 *   {"o":3,"r":{<its --failed record>}}        item 3 ended failed, unknown or not_sent
 *   {"n":5}                                    item 5, refused with Retry-After, was not sent again: a resumed load sends it
 *   {"u":9}                                    the journal was damaged here (cut off, garbage): items below 9 not recorded are unknown
 *   {"ended":"<ISO 8601>","complete":true,"tally":{...}}   the load ended (written before F replaces the old one); complete: false when stopped
 */
import fs from 'node:fs';
import { stringifyJson } from '../json.js';
import { UsageError } from '../errors.js';
import { CREATE_NEW, kindOf, writeAll } from './failed-file.js';
import { errnoCode } from './load-lock.js';
import { CREATED, DECIDED, type EarlierLoad, NONE, NOT_SENT, PASSED_OVER, readJournal } from './journal-read.js';
import type { Tally } from './load-summary.js';

export type { EarlierLoad } from './journal-read.js';

export type JournalState =
  | { kind: 'new' }
  | { kind: 'not_sent_before' }
  | { kind: 'created' }
  | { kind: 'decided'; record: Record<string, unknown> }
  | { kind: 'no_answer' };

/** Writing the journal failed (a full disk, say): the item it was about is not sent, and the load stops. */
export class JournalWriteError extends Error {
  override name = 'JournalWriteError';

  constructor(
    readonly file: string,
    readonly code: string,
  ) {
    super(`cannot write the journal ${file}: ${code}`);
  }
}

/** What the load's input is, for its journal: `input` shown in messages, `identity` compared (file:<dev>:<ino>, or stream). */
export interface InputIdentity {
  input: string;
  identity: string;
}

// O_APPEND: after a damaged end is cut off (ftruncate), records go at the new end.
const OPEN_EXISTING = fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/** Refuses a link, folder or FIFO at the journal's path with a clean message (never followed, never waited on). */
function refuseOdd(path: string, restart: boolean): void {
  const found = fs.lstatSync(path, { throwIfNoEntry: false });
  if (!found || found.isFile() || (restart && found.isSymbolicLink())) return;
  throw new UsageError(
    `the journal ${path} is ${kindOf(found)}; refusing to ${found.isSymbolicLink() ? 'write through it' : 'use it'}`,
    found.isSymbolicLink()
      ? 'Remove it, or add --restart to replace the link with a new journal.'
      : 'Move it away, or give another --failed.',
    'journal_unusable',
  );
}

export class LoadJournal {
  private states: Uint8Array = new Uint8Array(1024);
  private hashes: string[] = [];
  private readonly records = new Map<number, Record<string, unknown>>();
  /** Records not yet written, in order: items seen and answers (see {@link itemSeen}, {@link created}). */
  private pending = '';
  /** The header's time of a journal this run started. */
  private begun = '';
  private constructor(
    readonly path: string,
    private readonly fd: number,
    readonly earlier: EarlierLoad | undefined,
  ) {}

  /** Items the earlier load saw, in input order: this run must see the same ones first. */
  get known(): number {
    return this.earlier?.known ?? 0;
  }

  /**
   * Opens `F.journal` for `input`: resumes one of the same identity, replaces one of another input that ended, or starts anew (always
   * with `restart`). Throws UsageError (exit 2, nothing sent) for an unfinished journal of another input, an odd file, or unwritable.
   */
  static open(path: string, input: InputIdentity, restart: boolean): LoadJournal {
    refuseOdd(path, restart);
    if (!restart && fs.existsSync(path)) {
      let fd: number;
      let read: ReturnType<typeof readJournal>;
      try {
        fd = fs.openSync(path, OPEN_EXISTING);
        read = readJournal(fs.readFileSync(fd));
      } catch (error) {
        throw new UsageError(`cannot read the journal ${path}: ${errnoCode(error)}`);
      }
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
        try {
          fs.ftruncateSync(fd, read.goodBytes);
          const journal = new LoadJournal(path, fd, read.earlier);
          journal.states = read.states;
          journal.hashes = read.hashes;
          for (const [i, record] of read.records) journal.records.set(i, record);
          if (read.damage !== undefined) journal.append(`{"u":${read.earlier.unknownBelow}}\n`);
          return journal;
        } catch (error) {
          fs.closeSync(fd);
          throw new UsageError(`cannot write the journal ${path}: ${errnoCode(error)}`);
        }
      }
      fs.closeSync(fd);
    }
    try {
      fs.rmSync(path, { force: true });
      const fd = fs.openSync(path, CREATE_NEW, 0o600);
      const journal = new LoadJournal(path, fd, undefined);
      const started = new Date().toISOString();
      journal.append(`${stringifyJson({ petstore_journal: 2, ...input, started })}\n`);
      journal.begun = started;
      return journal;
    } catch (error) {
      throw new UsageError(`cannot write the journal ${path}: ${errnoCode(error)}`);
    }
  }

  /** What the journal knows of item `index`. Throws UsageError (exit 2) when it knew another item there (the input changed). */
  state(index: number, hash: string, line: number): JournalState {
    const state = index < this.known ? this.states[index]! : NONE;
    if (index < this.known && this.hashes[index] !== hash) throw this.differs(`at line ${line}`);
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
    this.pending += `{"i":${index},"h":"${hash}","s":${sending ? 1 : 0}}\n`;
  }

  /** Takes back item `index`'s record as being sent, not yet written (the load stopped before its POST left): it is not journaled. */
  withdraw(index: number, hash: string): void {
    this.pending = this.pending.replace(`{"i":${index},"h":"${hash}","s":1}\n`, '');
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
    this.pending += id === undefined ? `{"c":${index}}\n` : `{"c":${index},"id":"${id}"}\n`;
  }

  /** When this load started: its first run's header (store-ids.ts ties the store's ids to it). */
  get started(): string {
    return this.earlier?.started ?? this.begun;
  }

  /** Records item `index`, refused with Retry-After (429 or 503), not sent again by this run (kept as {@link created} is). */
  notTaken(index: number): void {
    this.pending += `{"n":${index}}\n`;
  }

  /** Records item `index`'s --failed record (kept as {@link created} is). */
  decided(index: number, record: object): void {
    this.pending += `{"o":${index},"r":${stringifyJson(record)}}\n`;
  }

  /** Records the end (before --failed is put in place: a rerun then writes it again); `complete` when not stopped. Throws JournalWriteError. */
  end(tally: Tally, complete: boolean): void {
    this.append(`${this.pending}${stringifyJson({ ended: new Date().toISOString(), complete, tally })}\n`);
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

  /** Set by a write error: nothing more is written (a record after a partial one would be read as damage). */
  private broken = false;

  /** Appends `text` whole; throws JournalWriteError. */
  private append(text: string): void {
    if (this.broken) throw new JournalWriteError(this.path, 'an earlier write failed');
    try {
      writeAll(this.fd, text);
    } catch (error) {
      this.broken = true;
      throw new JournalWriteError(this.path, errnoCode(error));
    }
  }
}
