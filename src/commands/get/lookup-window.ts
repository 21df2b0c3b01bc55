/**
 * The lookups of a `get` of several ids, in flat memory: ids are taken in order into a bounded window, each distinct id fetched once
 * (getPet, at most `concurrency` in flight; or one listPets pass for a batch of ids once getPet is gone), and handed back in input
 * order as they complete, so that printing starts before the input ends.
 */
import type { PetstoreClient } from '../../api/client.js';
import { CliError, ExitCode, InterruptedError, ServiceError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { findPetsViaList, isGetPetGone, type ListPass, LookupProgress, notOnAnyPage, VIA_LIST_GONE } from './find-via-list.js';
import { getPetOfMany } from './http.js';
import type { IdToken } from './id-source.js';
import { type Outcome, stopsEveryLookup } from './outcomes.js';

/** One distinct id's lookup, shared by its repeats: its outcome once known. */
interface Lookup {
  id: bigint;
  outcome?: Outcome;
}

/** One id as read: its token and its lookup (none for a word that is not an int64). */
interface Entry {
  token: IdToken;
  lookup?: Lookup;
}

/** An id handed back in input order: a word that is not an int64 has no outcome. */
export interface Done {
  token: IdToken;
  outcome?: Outcome;
}

export interface WindowLimits {
  /** Requests in flight at once (getPet). */
  concurrency: number;
  /** Ids held at once while getPet answers: in flight, or done and waiting for those before them. */
  window: number;
  /** Ids held at once waiting for a listPets pass; a pass takes all those held, so this is the most ids one pass looks for. */
  passWindow: number;
  /** Distinct ids remembered for their repeats: a repeat within them is not fetched again. */
  recent: number;
  /** Look ids up through listPets from the start (PETSTORE_GET_VIA_LIST=1). */
  viaList: boolean;
}

/** Ids in input order, taken from the front: an array and the index of its first (shift is O(n)). */
class EntryQueue {
  private items: Entry[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(entry: Entry): void {
    this.items.push(entry);
  }

  /** The entries from the front whose outcome is known, taken out (a word that is not an int64 is known). */
  takeDone(): Done[] {
    const done: Done[] = [];
    while (this.head < this.items.length) {
      const entry = this.items[this.head]!;
      if (entry.lookup && !entry.lookup.outcome) break;
      done.push({ token: entry.token, outcome: entry.lookup?.outcome });
      this.items[this.head] = undefined as unknown as Entry;
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return done;
  }
}

/** One run's lookups: {@link run} reads the ids and hands each back to `print`, in order; throws what stopped the run. */
export class LookupWindow {
  private readonly queue = new EntryQueue();
  private readonly recent = new Map<bigint, Lookup>();
  /** Ids waiting for a listPets pass. */
  private pending = new Map<bigint, Lookup>();
  private inFlight = 0;
  private viaList: boolean;
  private goneWarned = false;
  private printing = false;
  private stopped?: unknown;
  private wake?: () => void;
  /** Ends every request in flight when the run stops; Ctrl-C ends them through the Factory's signal. */
  private readonly abort = new AbortController();
  private readonly signal: AbortSignal;
  /** The URL of `pets/`, each getPet's URL made from it. */
  private readonly petsUrl: URL;
  /** Ids read so far: words that are not int64s included. */
  read = 0;

  constructor(
    private readonly f: Factory,
    private readonly client: PetstoreClient,
    private readonly limits: WindowLimits,
    /** Prints what is done (pets and failures), in order; a rejection stops the run. */
    private readonly print: (done: Done[]) => Promise<void>,
  ) {
    this.viaList = limits.viaList;
    this.signal = AbortSignal.any([f.signal, this.abort.signal]);
    this.petsUrl = client.url('pets/');
  }

  /**
   * Looks up the ids of `batches` (a batch per chunk of input) and hands them back in order; `paused()` tells that no more input is
   * waiting to be read (then a listPets pass starts with the ids held). Throws what stopped the run: Ctrl-C's InterruptedError, a
   * 401, a request never sent, a listing's error, the printing's; requests in flight then end.
   */
  async run(batches: AsyncIterable<IdToken[]>, paused: () => boolean): Promise<void> {
    const interrupted = () => this.stop(this.f.signal.reason);
    this.f.signal.addEventListener('abort', interrupted, { once: true });
    try {
      for await (const tokens of batches) {
        for (const token of tokens) await this.take(token);
        if (this.viaList && this.pending.size > 0 && paused()) await this.pass();
        this.throwIfStopped();
      }
      await this.drain();
    } catch (error) {
      // Reading standard input ends with an AbortError on Ctrl-C: the signal's reason says it.
      this.stop(this.f.signal.aborted ? this.f.signal.reason : error);
    } finally {
      this.f.signal.removeEventListener('abort', interrupted);
    }
    if (this.stopped !== undefined) {
      this.abort.abort(this.stopped);
      // What is being printed is printed whole; a second Ctrl-C stops waiting for it.
      await this.waitForPrinting();
      throw this.stopped;
    }
  }

  /** Takes one id into the window, once there is room; fetches it (or holds it for a pass) unless a recent lookup has it. */
  private async take(token: IdToken): Promise<void> {
    this.read += 1;
    await this.room();
    if (token.id === undefined) {
      this.queue.push({ token });
      this.schedulePrint();
      return;
    }
    const known = this.recent.get(token.id);
    if (known) {
      // Remembered as recent again: the oldest are forgotten first.
      this.recent.delete(token.id);
      this.recent.set(token.id, known);
      this.queue.push({ token, lookup: known });
      this.schedulePrint();
      return;
    }
    const lookup: Lookup = { id: token.id };
    this.recent.set(token.id, lookup);
    if (this.recent.size > this.limits.recent) this.recent.delete(this.recent.keys().next().value!);
    this.queue.push({ token, lookup });
    if (!this.viaList) {
      while (this.inFlight >= this.limits.concurrency && !this.viaList) await this.changed();
    }
    if (this.viaList) this.pending.set(lookup.id, lookup);
    else this.send(lookup);
  }

  /** Resolves once the window has room for one more id; a window full of ids held for a pass runs the pass. */
  private async room(): Promise<void> {
    for (;;) {
      this.throwIfStopped();
      const window = this.viaList ? this.limits.passWindow : this.limits.window;
      if (this.queue.length < window) return;
      if (this.viaList && this.pending.size > 0 && this.inFlight === 0) await this.pass();
      else await this.changed();
    }
  }

  /** Waits until every id read is handed back: the last pass run, the last answers printed. */
  private async drain(): Promise<void> {
    for (;;) {
      this.throwIfStopped();
      if (this.pending.size > 0 && this.inFlight === 0) await this.pass();
      else if (this.queue.length === 0 && !this.printing) return;
      else await this.changed();
    }
  }

  private send(lookup: Lookup): void {
    this.inFlight += 1;
    // One reaction per request; each has --timeout of its own, and ends on Ctrl-C or when the run stops.
    getPetOfMany(this.client, this.petsUrl, lookup.id, { signal: this.signal, deadlineMs: this.f.globals.timeout }).then(
      (pet) => this.settle(lookup, { kind: 'found', pet }),
      (error: unknown) => this.failed(lookup, error),
    );
  }

  private settle(lookup: Lookup, outcome: Outcome): void {
    this.inFlight -= 1;
    lookup.outcome = outcome;
    this.schedulePrint();
    this.wake?.();
  }

  private failed(lookup: Lookup, error: unknown): void {
    if (this.stopped !== undefined) {
      this.inFlight -= 1;
      this.wake?.();
      return;
    }
    if (isGetPetGone(error)) {
      // From now on every id goes through listPets; this one waits for the first pass.
      this.inFlight -= 1;
      this.viaList = true;
      this.pending.set(lookup.id, lookup);
      this.wake?.();
      return;
    }
    if (!(error instanceof CliError) || error instanceof InterruptedError || stopsEveryLookup(error)) {
      this.inFlight -= 1;
      this.stop(error);
      return;
    }
    const missing = error instanceof ServiceError && error.exitCode === ExitCode.notFound;
    this.settle(lookup, { kind: missing ? 'missing' : 'failed', error });
  }

  /** One listPets pass for every id held, once no getPet is in flight (their ids may join it); each gets its pet, or exit 3's error. */
  private async pass(): Promise<void> {
    while (this.inFlight > 0) await this.changed();
    const wanted = this.pending;
    this.pending = new Map();
    if (wanted.size === 0) return;
    const progress = new LookupProgress(this.f.io, { count: wanted.size });
    let found: ListPass;
    try {
      found = await findPetsViaList(this.client, wanted, (counts) => {
        // Said once the listing answers: a wrong base URL has neither getPet nor listPets, and its error alone is said.
        if (counts.pages === 1 && !this.limits.viaList && !this.goneWarned) this.f.io.warn(VIA_LIST_GONE, 'get_via_list');
        this.goneWarned = true;
        progress.update(counts);
      });
    } finally {
      progress.stop();
    }
    for (const lookup of wanted.values()) {
      const pet = found.found.get(lookup.id);
      lookup.outcome = pet ? { kind: 'found', pet } : { kind: 'missing', error: notOnAnyPage(lookup.id, found) };
    }
    this.schedulePrint();
  }

  /** Prints the ids done at the front, one printing at a time, until none is left; a failure to print stops the run. */
  private schedulePrint(): void {
    if (this.printing || this.stopped !== undefined) return;
    this.printing = true;
    void this.printDone();
  }

  private async printDone(): Promise<void> {
    try {
      for (let done = this.queue.takeDone(); done.length > 0 && this.stopped === undefined; done = this.queue.takeDone()) {
        await this.print(done);
        this.wake?.();
      }
    } catch (error) {
      this.stop(error);
    } finally {
      this.printing = false;
      this.wake?.();
    }
  }

  private async waitForPrinting(): Promise<void> {
    const halt = this.f.signals.halt;
    while (this.printing && !halt.aborted) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        halt.addEventListener('abort', () => resolve(), { once: true });
      });
    }
  }

  /** Resolves at the next change: an answer, a printing done, a stop. */
  private async changed(): Promise<void> {
    await new Promise<void>((resolve) => (this.wake = resolve));
    this.throwIfStopped();
  }

  private stop(reason: unknown): void {
    this.stopped ??= reason;
    this.wake?.();
  }

  private throwIfStopped(): void {
    if (this.stopped !== undefined) throw this.stopped;
  }
}
