/**
 * The lookups of a `get` of several ids, in flat memory: ids are taken in order into a bounded window, each distinct id fetched once
 * (getPet, at most `concurrency` in flight; or one listPets pass for the ids held once getPet is gone), and handed back in input order
 * as they complete, so that printing starts before the input ends.
 */
import type { PetstoreClient } from '../../api/client.js';
import { CliError, ExitCode, InterruptedError, OutputClosedError, ServiceError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { findPetsViaList, isGetPetGone, type ListPass, LookupProgress, newListPass, notOnAnyPage, VIA_LIST_GONE } from './find-via-list.js';
import { getPetOfMany } from './http.js';
import type { IdToken } from './id-source.js';
import { type Outcome, stopsEveryLookup } from './outcomes.js';
import { type Done, EntryQueue, type Lookup, RecentLookups, Waiter, type WindowLimits } from './window-state.js';

export type { Done, WindowLimits } from './window-state.js';

/** An id whose lookup the run stopped, passed over to print the ones after it. */
const UNANSWERED: Outcome = {
  kind: 'failed',
  error: new CliError('the run stopped before its lookup finished; not printed', ExitCode.failure, 'unanswered'),
};

/**
 * One run's lookups: {@link run} reads the ids and hands each back to `print`, in order; throws what stopped the run. Answers take the
 * next ids themselves as they free room ({@link pump}), as a script of undici's does: no promise per id.
 */
export class LookupWindow {
  private readonly queue = new EntryQueue();
  private readonly recent: RecentLookups;
  /** Ids waiting for a listPets pass. */
  private pending = new Map<bigint, Lookup>();
  private inFlight = 0;
  private viaList: boolean;
  private goneWarned = false;
  private printing = false;
  private stopped?: unknown;
  /** The batch of ids being taken, and the index of the next to take. */
  private tokens: readonly IdToken[] = [];
  private next = 0;
  /** What {@link run} waits for, looked at again by {@link notify}. */
  private readonly waiter = new Waiter();
  /** The URL of `pets/`, each getPet's URL made from it. */
  private readonly petsUrl: URL;
  /** Each getPet's: its own --timeout, no signal (see {@link send}). */
  private readonly requestLimits: { signal: null; deadlineMs: number };
  /** Ids read so far: words that are not int64s included, and those read but not yet taken in. */
  read = 0;
  /** Ids handed to `print` so far. */
  private handedBack = 0;
  /** Ids read when the input last paused, until every one of them is handed back (then `caughtUp` is called). */
  private pausedAt?: number;

  constructor(
    private readonly f: Factory,
    private readonly client: PetstoreClient,
    private readonly limits: WindowLimits,
    /** Prints what is done (pets and failures), in order; a rejection stops the run. */
    private readonly print: (done: Done[]) => Promise<void>,
    /**
     * Called once every id read before the input paused is handed to `print` (a person typing ids waits for their answers): what is
     * gathered is drawn then (a table). A rejection stops the run.
     */
    private readonly caughtUp: () => Promise<void> = async () => undefined,
  ) {
    this.viaList = limits.viaList;
    this.recent = new RecentLookups(limits.recent);
    this.petsUrl = client.url('pets/');
    this.requestLimits = { signal: null, deadlineMs: f.globals.timeout };
  }

  /**
   * Looks up the ids of `batches` (a batch per chunk of input) and hands them back in order; `paused()` tells that no more input is
   * waiting to be read (then a listPets pass starts with the ids held, and `caughtUp` is called once they are all handed back). Throws
   * what stopped the run: Ctrl-C's InterruptedError, a 401, a request never sent, a listing's error, the printing's; requests in flight
   * then end.
   */
  async run(batches: AsyncIterable<IdToken[]>, paused: () => boolean): Promise<void> {
    const interrupted = () => this.stop(this.f.signal.reason);
    this.f.signal.addEventListener('abort', interrupted, { once: true });
    try {
      for await (const tokens of batches) {
        this.read += tokens.length;
        this.tokens = tokens;
        this.next = 0;
        await this.takeAll();
        if (!paused()) continue;
        if (this.viaList && this.pending.size > 0) await this.pass();
        this.pausedAt = this.read;
        this.schedulePrint();
      }
      await this.drain();
    } catch (error) {
      // Reading standard input ends with an AbortError on Ctrl-C: the signal's reason says it.
      this.stop(this.f.signal.aborted ? this.f.signal.reason : error);
    } finally {
      this.f.signal.removeEventListener('abort', interrupted);
    }
    if (this.stopped === undefined) return;
    // Nothing is sent after, and the process need not wait for answers no one prints.
    if (this.inFlight > 0) await this.client.abortAll(this.stopped instanceof Error ? this.stopped : new Error(String(this.stopped)));
    // What is being printed is printed whole; a second Ctrl-C stops waiting for it.
    await this.waitForPrinting();
    await this.printReadBeforeStop();
    throw this.stopped;
  }

  /**
   * Prints what was read before the stop but not printed yet, in input order, past the ids still waiting (an answer read in the turn of
   * a 401; the pets a listPets pass found before its listing failed): what was read stays printed, and each id passed over is named as
   * unanswered, so that the output is never taken for the first pets of the input. Not after a second Ctrl-C, nor when printing itself
   * failed (the stop's error is thrown anyway).
   */
  private async printReadBeforeStop(): Promise<void> {
    // The pager quit: nothing more is shown, nor said.
    if (this.f.signals.halt.aborted || this.printing || this.stopped instanceof OutputClosedError) return;
    const settled = this.queue.takeSettled(UNANSWERED);
    if (settled.length === 0) return;
    try {
      await this.print(settled);
    } catch {
      // The printing's own failure (stdout closed): nothing more can be printed.
    }
  }

  /** Resolves once every id of the batch is taken: the answers take them as they free room; a full window of a pass runs it. */
  private async takeAll(): Promise<void> {
    for (;;) {
      this.pump();
      this.throwIfStopped();
      if (this.next >= this.tokens.length) return;
      if (this.passDue()) await this.pass();
      else await this.until(() => this.next >= this.tokens.length || this.passDue());
    }
  }

  /** Takes ids of the batch while the window has room. */
  private pump(): void {
    while (this.next < this.tokens.length && this.stopped === undefined && !this.full()) this.take(this.tokens[this.next++]!);
  }

  /** Whether the window cannot take one more id now: it holds as many as it may, or (through getPet) a request would be one too many. */
  private full(): boolean {
    if (this.viaList) return this.queue.length >= this.limits.passWindow;
    return this.queue.length >= this.limits.window || this.inFlight >= this.limits.concurrency;
  }

  /** A window full of ids held for a pass, with no getPet in flight (whose ids may join it): the pass must run. */
  private passDue(): boolean {
    return this.viaList && this.full() && this.pending.size > 0 && this.inFlight === 0;
  }

  /** Takes one id into the window: fetched, or held for a pass, unless a recent lookup has it. */
  private take(token: IdToken): void {
    const known = token.id === undefined ? undefined : this.recent.recall(token.id);
    if (token.id === undefined || known) {
      this.queue.push(token, known);
      this.schedulePrint();
      return;
    }
    const lookup: Lookup = { id: token.id };
    this.recent.remember(lookup);
    this.queue.push(token, lookup);
    if (this.viaList) this.pending.set(lookup.id, lookup);
    else this.send(lookup);
  }

  /** Waits until every id taken is handed back: the last pass run, the last answers printed. */
  private async drain(): Promise<void> {
    const passDue = () => this.pending.size > 0 && this.inFlight === 0;
    const printed = () => this.queue.length === 0 && !this.printing;
    for (;;) {
      this.throwIfStopped();
      if (passDue()) await this.pass();
      else if (printed()) return;
      else await this.until(() => passDue() || printed());
    }
  }

  private send(lookup: Lookup): void {
    this.inFlight += 1;
    // One reaction per request; each has --timeout of its own. No signal: a listener per request on a long-lived signal costs memory
    // (bench/RESULTS.md); the run's stop ends them all at once (client.abortAll).
    getPetOfMany(this.client, this.petsUrl, lookup.id, this.requestLimits).then(
      (pet) => this.settle(lookup, { kind: 'found', pet }),
      (error: unknown) => this.failed(lookup, error),
    );
  }

  private settle(lookup: Lookup, outcome: Outcome | undefined): void {
    this.inFlight -= 1;
    if (outcome) {
      lookup.outcome = outcome;
      this.schedulePrint();
    }
    this.pump();
    this.notify();
  }

  private failed(lookup: Lookup, error: unknown): void {
    this.settle(lookup, this.stopped === undefined ? this.outcomeOf(lookup, error) : undefined);
  }

  /** What `error` means for `lookup`: missing or failed; none yet when getPet is gone (it waits for a pass) or the run stops. */
  private outcomeOf(lookup: Lookup, error: unknown): Outcome | undefined {
    if (isGetPetGone(error)) {
      // From now on every id goes through listPets.
      this.viaList = true;
      this.pending.set(lookup.id, lookup);
      return undefined;
    }
    if (!(error instanceof CliError) || error instanceof InterruptedError || stopsEveryLookup(error)) {
      this.stop(error);
      return undefined;
    }
    const missing = error instanceof ServiceError && error.exitCode === ExitCode.notFound;
    return { kind: missing ? 'missing' : 'failed', error };
  }

  /** One listPets pass for every id held, once no getPet is in flight (their ids may join it); each gets its pet, or exit 3's error. */
  private async pass(): Promise<void> {
    await this.until(() => this.inFlight === 0);
    this.throwIfStopped();
    const wanted = this.pending;
    this.pending = new Map();
    if (wanted.size === 0) return;
    const progress = new LookupProgress(this.f.io, { count: wanted.size });
    const found: ListPass = newListPass();
    try {
      await findPetsViaList(this.client, wanted, found, (counts) => {
        // Said once the listing answers: a wrong base URL has neither getPet nor listPets, and its error alone is said.
        if (counts.pages === 1 && !this.limits.viaList && !this.goneWarned) this.f.io.warn(VIA_LIST_GONE, 'get_via_list');
        this.goneWarned = true;
        progress.update(counts);
      });
    } catch (error) {
      // The pets found before the listing stopped were read: they print (printReadBeforeStop); the others stay unresolved.
      for (const [id, pet] of found.found) {
        const lookup = wanted.get(id);
        if (lookup) lookup.outcome = { kind: 'found', pet };
      }
      throw error;
    } finally {
      progress.stop();
    }
    for (const lookup of wanted.values()) {
      const pet = found.found.get(lookup.id);
      lookup.outcome = pet ? { kind: 'found', pet } : { kind: 'missing', error: notOnAnyPage(lookup.id, found) };
    }
    this.schedulePrint();
  }

  /**
   * Prints the ids done at the front, one printing at a time, until none is left, and calls `caughtUp` once the ids read before the
   * input paused are all printed; a failure to print stops the run. It starts after the answers that came with this one are read
   * (setImmediate), so that one printing carries them all.
   */
  private schedulePrint(): void {
    if (this.printing || this.stopped !== undefined) return;
    this.printing = true;
    setImmediate(() => void this.printDone());
  }

  private async printDone(): Promise<void> {
    try {
      // Nothing is taken off the queue once the run stops: printReadBeforeStop prints what is done then.
      while (this.stopped === undefined) {
        const done = this.queue.takeDone();
        if (done.length > 0) {
          await this.print(done);
          this.handedBack += done.length;
          this.pump();
        } else if (this.pausedAt !== undefined && this.handedBack >= this.pausedAt) {
          this.pausedAt = undefined;
          await this.caughtUp();
        } else break;
      }
    } catch (error) {
      this.stop(error);
    } finally {
      this.printing = false;
      this.pump();
      this.notify();
    }
  }

  /** Resolves once nothing is being printed, or at a second Ctrl-C. */
  private async waitForPrinting(): Promise<void> {
    await this.waiter.until(() => !this.printing, this.f.signals.halt);
  }

  /** Resolves once `condition` holds (told by {@link notify}) or the run stops. */
  private until(condition: () => boolean): Promise<void> {
    return this.waiter.until(() => this.stopped !== undefined || condition());
  }

  private notify(): void {
    this.waiter.notify();
  }

  private stop(reason: unknown): void {
    this.stopped ??= reason;
    this.notify();
  }

  private throwIfStopped(): void {
    if (this.stopped !== undefined) throw this.stopped;
  }
}
