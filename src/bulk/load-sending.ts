/**
 * A bulk load's items one by one: each item's fate decided (item-fate.ts) and carried out here: counted, held back, recorded, or sent
 * (journaled first) until post-policy.ts ends it: created, or an outcome recorded.
 */
import { setTimeout } from 'node:timers/promises';
import type { PetstoreClient, SendRequest } from '../api/client.js';
import { int64Of, type NewPet, type Pet } from '../api/schemas.js';
import type { ErrorReport } from '../errors.js';
import { petCount } from '../counts.js';
import type { BatchedOutput } from './batched-output.js';
import type { Outcome } from './failed-file.js';
import { type InputItem, itemHash } from './input-item.js';
import { fateOf } from './item-fate.js';
import type { LoadContext } from './load-context.js';
import { loadForSettling } from './load-for-settling.js';
import { NO_ANSWER, type LoadRecorder } from './load-recorder.js';
import type { LoadStop } from './load-stop.js';
import { notSentReport } from './load-summary.js';
import { itemName, resolveItem, where, type ResolvedItem } from './outcomes.js';
import { NO_TRIES, PostPolicy, type Tries, UNREACHABLE_MS } from './post-policy.js';
import { RequestPool } from './request-pool.js';
import { type Outgoing, SendBatch } from './send-batch.js';
import type { HeldItem, LoadForSettling } from './settle-unknown.js';
import type { SettlerFeed } from './settler-feed.js';

/** POST /pets: the created Pet (201 or 200); `limits` as in SendRequest. */
export type CreatePet = (client: PetstoreClient, pet: NewPet, limits: Pick<SendRequest, 'signal' | 'deadlineMs' | 'retry'>) => Promise<Pet>;

/** The sending side of one load. */
export class LoadSending {
  private readonly pool: RequestPool;
  private readonly policy: PostPolicy;
  private readonly batch: SendBatch;
  /** Items read so far; the next item's index. */
  itemsRead = 0;
  /** Each POST's: its own deadline (a second Ctrl-C ends them all: BulkLoad.run); never retried by the client (post-policy.ts). */
  private readonly limits: Pick<SendRequest, 'signal' | 'deadlineMs' | 'retry'>;
  /** Items to send held back while the journal's known items are checked (see {@link itemRead}). */
  private readonly heldBack: { raw: ResolvedItem; index: number }[] = [];

  constructor(
    private readonly context: LoadContext,
    private readonly options: { concurrency: number; retryUnknown: boolean },
    private readonly stop: LoadStop,
    private readonly recorder: LoadRecorder,
    private readonly output: BatchedOutput,
    private readonly feed: SettlerFeed,
    private readonly createPet: CreatePet,
  ) {
    this.pool = new RequestPool(options.concurrency);
    this.limits = { signal: null, deadlineMs: context.timeoutMs, retry: false };
    const { hooks, messages } = context;
    this.policy = new PostPolicy({
      retries: context.retries,
      unreachableMs: hooks.unreachableMs ?? UNREACHABLE_MS,
      random: hooks.random ?? Math.random,
      debug: (line) => messages.debug(line),
    });
    this.batch = new SendBatch({
      recorder,
      stop,
      pool: this.pool,
      send: (o: Outgoing) => {
        this.feed.sent(o.index, o.hash);
        this.pool.run(() => this.send(o.client, o.item, o.pet, o.index));
      },
      notSent: (o: Outgoing) => this.notSentAfterStop(o.item, o.index, o.noAnswer, undefined),
    });
  }

  /**
   * Takes the next item read; while the journal's known items are checked, those to send are held back (a different input: exit 2).
   * Returns a promise only when the item must wait (for a free slot, for stdout, for the items held back): await it before the next.
   */
  itemRead(client: PetstoreClient, raw: InputItem): Promise<void> | void {
    const index = this.itemsRead++;
    this.recorder.tally.read += 1;
    const { journal } = this.recorder;
    if (!journal) return this.dispatchItem(client, raw, index, false);
    // Past the items the journal knows: the input proved the same so far, and what was held back goes first.
    if (index >= journal.known) {
      // A finished load's input had no more items than it saw.
      if (journal.earlier?.finished) throw journal.differs(`at line ${raw.line} (the finished load read ${petCount(journal.known)})`);
      if (this.heldBack.length > 0) return this.sendHeldBack(client).then(() => this.dispatchItem(client, raw, index, false));
    }
    return this.dispatchItem(client, raw, index, index < journal.known);
  }

  /** The items held back while the known ones were checked, sent in input order. */
  async sendHeldBack(client: PetstoreClient): Promise<void> {
    const held = this.heldBack.splice(0);
    for (const { raw, index } of held) await this.dispatchItem(client, raw, index, false);
  }

  /** Resolves once no request is in flight. */
  readonly idle = (): Promise<void> => this.pool.idle();

  /** Requests in flight (not the items queued to be sent, which a stop leaves unsent). */
  get inFlight(): number {
    return this.pool.size - this.batch.size;
  }

  /** Carries out item `index`'s fate (item-fate.ts); `checking`: the journal's known items are still compared with the input. A promise as {@link itemRead}'s. */
  private dispatchItem(client: PetstoreClient, raw: ResolvedItem, index: number, checking: boolean): Promise<void> | void {
    const item = resolveItem(raw);
    const { journal, tally } = this.recorder;
    // Throws UsageError (exit 2) when the journal knew another item here. Asked after a stop too: an item created or decided earlier is
    // never written as not sent.
    const hash = journal ? itemHash(raw) : undefined;
    const state = journal?.state(index, hash!, raw.line);
    const noAnswer = state?.kind === 'no_answer';
    // Made unknown by a record set aside, it has no "seen" record yet: one marks it possibly sent before its answer is recorded.
    if (noAnswer && index >= journal!.known) this.recorder.journalItemSeen(index, hash!, true);
    const fate = fateOf(item, { journal: state, checking, retryUnknown: this.options.retryUnknown, stopped: this.stop.why !== undefined });
    switch (fate.fate) {
      case 'created_before':
        tally.created += 1;
        return;
      case 'decided_before':
        if (fate.record.outcome === 'unknown' && this.feed.hold(item, index, hash!, fate.record, 0)) return;
        return this.recorder.repeatEarlierOutcome(item, fate.record);
      case 'unanswered_before': {
        const record = this.recorder.failedRecord(item, 'unknown', NO_ANSWER);
        if (!this.feed.hold(item, index, hash!, record, 0)) return this.recordNotCreated(item, 'unknown', NO_ANSWER, index);
        journal!.decided(index, record);
        return;
      }
      case 'waits_for_check':
        this.heldBack.push({ raw, index });
        return;
      case 'carried_over':
        this.journalSeen(index, hash, false);
        if (hash !== undefined && this.feed.hold(item, index, hash, item.record ?? {}, Number.NEGATIVE_INFINITY, false)) return;
        return this.recorder.carryOverUnknown(item);
      case 'not_sent':
        return this.notSentAfterStop(item, index, noAnswer, hash);
      case 'invalid':
        this.journalSeen(index, hash, false);
        return this.recordNotCreated(item, 'failed', fate.report);
      case 'send':
        return this.queue(client, item, fate.pet, index, hash, noAnswer);
    }
  }

  /**
   * Queues the item to be journaled and sent (send-batch.ts), at once when a slot is free and stdout takes more; else returns a
   * promise that does so once they are.
   */
  private queue(client: PetstoreClient, item: ResolvedItem, pet: NewPet, index: number, hash: string | undefined, noAnswer: boolean) {
    const outgoing: Outgoing = { client, item, pet, index, hash, noAnswer };
    if (this.pool.hasRoom && !this.output.isBlocked) return this.take(outgoing);
    return new Promise<void>((resolve, reject) => this.takeWhenFree(outgoing, resolve, reject));
  }

  /** Takes `outgoing` once a slot is free (the slot given back takes it, in the same turn: pool.onRoom) and stdout takes more. */
  private takeWhenFree(outgoing: Outgoing, taken: () => void, failed: (error: unknown) => void): void {
    if (!this.pool.hasRoom) {
      this.pool.onRoom(() => this.takeWhenFree(outgoing, taken, failed));
      return;
    }
    if (this.output.isBlocked) {
      this.output.drained().then(() => this.takeWhenFree(outgoing, taken, failed), failed);
      return;
    }
    try {
      this.take(outgoing);
      taken();
    } catch (error) {
      failed(error);
    }
  }

  /** Takes a free slot for `outgoing` and queues it (not sent after a stop). */
  private take(outgoing: Outgoing): void {
    const { item, index, hash, noAnswer } = outgoing;
    if (this.stop.why) {
      this.notSentAfterStop(item, index, noAnswer, hash);
      return;
    }
    this.journalSeen(index, hash, true);
    this.pool.take();
    this.batch.add(outgoing);
  }

  /** Journals item `index` seen (`sending`: its POST may leave once written); nothing without a journal (`hash` undefined). */
  private journalSeen(index: number, hash: string | undefined, sending: boolean): void {
    if (hash !== undefined) this.recorder.journalItemSeen(index, hash, sending);
  }

  /** An item the stopped load does not send: not_sent, unless an earlier run sent it (no answer journaled, or an `unknown` line): unknown. */
  private notSentAfterStop(item: ResolvedItem, index: number, noAnswer: boolean, hash: string | undefined): void {
    if (noAnswer) this.recordNotCreated(item, 'unknown', NO_ANSWER, index);
    else if (item.previous === 'unknown') {
      this.journalSeen(index, hash, false);
      this.recorder.carryOverUnknown(item);
    } else this.recordNotCreated(item, 'not_sent', notSentReport(this.stop.why!));
  }

  /**
   * Sends item `index`, journaled before, again as post-policy.ts says, until it is created or ends with an outcome. A reaction, not
   * an async function, for the POST that succeeds: a bulk load sends thousands.
   */
  private send(client: PetstoreClient, item: ResolvedItem, pet: NewPet, index: number, tries: Tries = NO_TRIES): Promise<void> {
    let answer: Promise<Pet>;
    try {
      this.feed.resent(index);
      answer = this.createPet(client, pet, this.limits);
    } catch (error) {
      answer = Promise.reject(error);
    }
    return answer.then(
      (created) => this.recordCreated(index, created),
      (error: unknown) => this.sendFailed(client, item, pet, index, tries, error),
    );
  }

  /** After item `index`'s POST failed with `error`: sent again (after a wait), or its outcome recorded, as post-policy.ts says. */
  private async sendFailed(client: PetstoreClient, item: ResolvedItem, pet: NewPet, index: number, tries: Tries, error: unknown) {
    const after = this.policy.afterFailure(error, tries, this.stop.why);
    if (after.stop) this.stop.record(after.stop);
    if (after.next === 'created') return this.createdUnreadable(item, index, after.status, after.why);
    if (after.next === 'end') return this.recordNotCreated(item, after.outcome, after.report, index);
    // No journal write goes before a resend: the lease is confirmed here.
    if ((await this.waitUnlessStopped(after.waitMs)) && this.recorder.confirmLease())
      return this.send(client, item, pet, index, after.tries);
    if (!this.stop.why) return this.recordNotCreated(item, after.outcome, after.report, index);
    this.recorder.journal?.notTaken(index);
    return this.recordNotCreated(item, 'not_sent', notSentReport(this.stop.why));
  }

  /** Item `index` was created as `pet`: journaled (with its id for the settling), counted and printed. */
  private recordCreated(index: number, pet: Pet): void {
    const { journal, tally } = this.recorder;
    this.policy.answered();
    if (this.feed.settler) {
      journal?.created(index, int64Of(pet.id));
      this.feed.settler.created(int64Of(pet.id));
    } else journal?.created(index);
    this.feed.answered(index);
    tally.created += 1;
    this.output.push(this.context.printPet(pet));
  }

  /** Created (a 2xx), but its answer could not be read: journaled created, never sent again, and said. */
  private createdUnreadable(item: ResolvedItem, index: number, status: number, why: string): void {
    this.recorder.journal?.created(index);
    this.recorder.tally.created += 1;
    this.recorder.message(
      `warning: ${where(item)} was created (HTTP ${status}), but its answer could not be read: ${why}; it is not sent again`,
      'created_unreadable',
      this.recorder.firstRead(item),
    );
  }

  /** Waits `ms` milliseconds; false when the load stopped before or meanwhile. */
  private async waitUnlessStopped(ms: number): Promise<boolean> {
    const waited = !this.stop.why && (await setTimeout(ms, true, { signal: this.stop.signal }).catch(() => false));
    return waited && !this.stop.why;
  }

  /**
   * Counts an item not created, says why (a stop is said once), writes it to --failed and, when sent (`sentIndex`), the journal; an
   * unknown item this load sent goes to the settling when there is one.
   */
  private recordNotCreated(item: ResolvedItem, outcome: Outcome, report: ErrorReport, sentIndex?: number): void {
    const { journal, tally } = this.recorder;
    const sending = this.feed.answered(sentIndex);
    if (outcome === 'unknown' && sending) {
      const record = this.recorder.failedRecord(item, outcome, report);
      if (this.feed.hold(item, sentIndex!, sending.hash, record, sending.at)) {
        journal?.decided(sentIndex!, record);
        return;
      }
    }
    tally[outcome === 'failed' ? 'failed' : outcome === 'unknown' ? 'unknown' : 'notSent'] += 1;
    if (outcome !== 'not_sent' || report.code !== 'not_sent') {
      const status = report.status ? ` (HTTP ${report.status})` : '';
      this.recorder.message(`${outcome.replace('_', ' ')}: ${where(item)} ${itemName(item.value)}: ${report.message}${status}`, outcome, {
        ...this.recorder.firstRead(item),
        error: report,
      });
    }
    const record = this.recorder.failedRecord(item, outcome, report);
    if (sentIndex !== undefined) journal?.decided(sentIndex, record);
    this.recorder.writeFailed(item.line, record);
  }

  /** The load as the settling (settle-unknown.ts, run by the command) sees it: its journal, tally, output and pool. */
  forSettling(client: PetstoreClient): LoadForSettling {
    const { context, stop, recorder, output, pool, feed } = this;
    const send = (held: HeldItem) => pool.run(() => this.send(client, held.item, held.pet, held.index));
    return loadForSettling({ context, stop, recorder, output, pool, feed, send, idle: this.idle });
  }
}
