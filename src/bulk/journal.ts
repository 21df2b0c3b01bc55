/**
 * The journal of a bulk load with `--failed F`: append-only NDJSON `F.journal`, so the same command resumes after any death. Each record
 * is handed to the OS (`fs.writeSync`) before what it records goes on. Items are numbered from 0 in input order and seen in order.
 *
 *   {"petstore_journal":1,"input":"/abs/pets.ndjson","started":"<ISO 8601>"}
 *   {"i":0,"h":"<hash of the item>","s":1}     seen; s=1: its POST is about to leave, s=0: not sent (invalid, carried over)
 *   {"c":0}                                    item 0 was created
 *   {"c":0,"id":"7"}                           item 0 was created as pet 7 (with --resolve-unknown: settle-unknown.ts; also once settled)
 *   {"o":3,"r":{<its --failed record>}}        item 3 ended failed, unknown or not_sent
 *   {"n":5}                                    item 5, refused with Retry-After, was not sent again: a resumed load sends it
 *   {"ended":"<ISO 8601>","complete":true,"tally":{...}}   F was written; complete: false when stopped (Ctrl-C, a 401...)
 */
import fs from 'node:fs';
import { parseJson, stringifyJson } from '../json.js';
import { UsageError } from '../errors.js';
import type { Tally } from './load-summary.js';
import type { InputItem } from './read-items.js';

export type JournalState =
  | { kind: 'new' }
  | { kind: 'not_sent_before' }
  | { kind: 'created' }
  | { kind: 'decided'; record: Record<string, unknown> }
  | { kind: 'no_answer' };

const NONE = 0;
const NOT_SENT = 1;
const SENDING = 2;
const CREATED = 3;
const DECIDED = 4;

/** FNV-1a hash (8 hex digits) of an item's source: tells an edited item from the recorded one (no defence against crafted collisions). */
export function itemHash(item: InputItem): string {
  const text = item.bytes ? item.bytes.toString('latin1') : (item.text ?? stringifyJson(item.value));
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

export interface EarlierLoad {
  started: string;
  /** When it ended in order, its --failed file written (a stopped load too). */
  ended?: string;
  /** When it ran to its end. */
  finished?: string;
  tally?: Tally;
  created: number;
  decided: { failed: number; unknown: number; notSent: number };
  /** Sent with no answer recorded: they become unknown. */
  noAnswer: number;
  known: number;
}

export class LoadJournal {
  private states = new Uint8Array(1024);
  private hashes: string[] = [];
  private readonly records = new Map<number, Record<string, unknown>>();
  /** Answers not yet written (see {@link created}). */
  private answers = '';
  /** The header's time of a journal this run started. */
  private begun = '';
  private constructor(
    readonly path: string,
    private readonly fd: number,
    readonly earlier: EarlierLoad | undefined,
  ) {}

  /**
   * Opens `F.journal` for `input` (absolute path or "-"): resumes one of the same input, replaces one of another input that ended, or
   * starts anew (always with `restart`). Throws UsageError (exit 2, nothing sent) for an unfinished journal of another input, or unwritable.
   */
  static open(path: string, input: string, restart: boolean): LoadJournal {
    let earlier: EarlierLoad | undefined;
    let journal: LoadJournal | undefined;
    if (!restart && fs.existsSync(path)) {
      const read = LoadJournal.read(path);
      if (read && read.input !== input && !read.earlier.ended) {
        throw new UsageError(
          `${path} is the journal of an unfinished load of ${read.input}, not of ${input}`,
          'Run that load again to finish it, or add --restart to discard its journal and load this input.',
          'journal_mismatch',
        );
      }
      if (read && read.input === input) {
        earlier = read.earlier;
        journal = read.journal(path, earlier);
      }
    }
    if (!journal) {
      const started = new Date().toISOString();
      let fd: number;
      try {
        fd = fs.openSync(path, 'w', 0o600);
        fs.writeSync(fd, `${stringifyJson({ petstore_journal: 1, input, started })}\n`);
      } catch (error) {
        throw new UsageError(`cannot write the journal ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
      }
      journal = new LoadJournal(path, fd, undefined);
      journal.begun = started;
    }
    return journal;
  }

  /** Undefined when it holds no header (a load that died before writing one). */
  private static read(path: string) {
    const lines = fs.readFileSync(path, 'utf8').split('\n');
    let header: { input: string; started: string } | undefined;
    const states: number[] = [];
    const hashes: string[] = [];
    const records = new Map<number, Record<string, unknown>>();
    const earlier: EarlierLoad = { started: '', created: 0, decided: { failed: 0, unknown: 0, notSent: 0 }, noAnswer: 0, known: 0 };
    for (const line of lines) {
      if (line === '') continue;
      let value: Record<string, unknown>;
      try {
        value = parseJson(line) as Record<string, unknown>;
      } catch {
        continue; // The last line of a load that died while writing it.
      }
      // A record after an "ended" one: that load was resumed.
      if (typeof value.ended !== 'string') earlier.ended = earlier.finished = undefined;
      if (typeof value.petstore_journal !== 'undefined') header = { input: String(value.input), started: String(value.started) };
      else if (typeof value.i === 'bigint') {
        const i = Number(value.i);
        states[i] = value.s === 1n ? SENDING : NOT_SENT;
        hashes[i] = String(value.h);
      } else if (typeof value.c === 'bigint') states[Number(value.c)] = CREATED;
      else if (typeof value.n === 'bigint') states[Number(value.n)] = NOT_SENT;
      else if (typeof value.o === 'bigint') {
        states[Number(value.o)] = DECIDED;
        records.set(Number(value.o), value.r as Record<string, unknown>);
      } else if (typeof value.ended === 'string') {
        earlier.ended = value.ended;
        earlier.finished = value.complete === true ? value.ended : undefined;
        earlier.tally = Object.fromEntries(Object.entries(value.tally as object).map(([k, v]) => [k, Number(v)])) as unknown as Tally;
      }
    }
    if (!header) return undefined;
    earlier.started = header.started;
    earlier.known = states.length;
    for (const [i, state] of states.entries()) {
      if (state === CREATED) earlier.created += 1;
      else if (state === SENDING) earlier.noAnswer += 1;
      else if (state === DECIDED) {
        const outcome = records.get(i)?.outcome;
        if (outcome === 'unknown') earlier.decided.unknown += 1;
        else if (outcome === 'not_sent') earlier.decided.notSent += 1;
        else earlier.decided.failed += 1;
      }
    }
    return {
      input: header.input,
      earlier,
      journal: (file: string, load: EarlierLoad) => {
        const fd = fs.openSync(file, 'a', 0o600);
        const journal = new LoadJournal(file, fd, load);
        journal.states = Uint8Array.from(states, (s) => s ?? NONE);
        journal.hashes = hashes;
        for (const [i, record] of records) journal.records.set(i, record);
        return journal;
      },
    };
  }

  /** What the journal knows of item `index`. Throws UsageError (exit 2) when it knew another item there (the input changed). */
  state(index: number, hash: string, line: number): JournalState {
    const state = index < this.states.length ? this.states[index]! : NONE;
    if (state === NONE) return { kind: 'new' };
    if (this.hashes[index] !== hash) {
      throw new UsageError(
        `the input differs from the one this load started with, at line ${line}; nothing was sent`,
        `The journal ${this.path} records another item there. Add --restart to discard it and load the input from the start.`,
        'journal_mismatch',
      );
    }
    if (state === NOT_SENT) return { kind: 'not_sent_before' };
    if (state === CREATED) return { kind: 'created' };
    if (state === DECIDED) return { kind: 'decided', record: this.records.get(index)! };
    return { kind: 'no_answer' };
  }

  /** Records item `index` seen (`sending`: before its POST leaves), written at once with the answers recorded since. */
  seen(index: number, hash: string, sending: boolean): void {
    const text = `${this.answers}{"i":${index},"h":"${hash}","s":${sending ? 1 : 0}}\n`;
    this.answers = '';
    this.append(text);
  }

  /**
   * Records item `index` created, written with the next `seen` record or at the end: one write per item, and a death loses only
   * answers of slots not yet refilled, which makes those items unknown, never sent twice.
   */
  created(index: number, id?: bigint): void {
    this.answers += id === undefined ? `{"c":${index}}\n` : `{"c":${index},"id":"${id}"}\n`;
  }

  /** When this load started: its first run's header (store-ids.ts ties the store's ids to it). */
  get started(): string {
    return this.earlier?.started ?? this.begun;
  }

  /** Records item `index`, refused with Retry-After (429 or 503), not sent again by this run (written as {@link created} is). */
  notTaken(index: number): void {
    this.answers += `{"n":${index}}\n`;
  }

  /** Records item `index`'s --failed record (written as {@link created} is). */
  decided(index: number, record: object): void {
    this.answers += `{"o":${index},"r":${stringifyJson(record)}}\n`;
  }

  /** Records the end, its --failed file written; `complete` when not stopped. */
  end(tally: Tally, complete: boolean): void {
    this.append(`${this.answers}${stringifyJson({ ended: new Date().toISOString(), complete, tally })}\n`);
    this.answers = '';
  }

  close(): void {
    if (this.answers) this.append(this.answers);
    this.answers = '';
    try {
      fs.closeSync(this.fd);
    } catch {
      // Already closed.
    }
  }

  private append(text: string): void {
    fs.writeSync(this.fd, text);
  }
}
