/** A bulk load's items one by one: checked against the journal, sent (journaled first), each answer classified and recorded. */
import { setTimeout } from 'node:timers/promises';
import type { PetstoreClient, SendRequest } from '../api/client.js';
import { describeIssue, int64Of, NewPet, type Pet, plainNewPet } from '../api/schemas.js';
import type { ErrorReport } from '../errors.js';
import type { Factory } from '../factory.js';
import { PET_VIEW } from '../output/views.js';
import type { BatchedOutput } from './batched-output.js';
import type { Outcome } from './failed-file.js';
import { NO_ANSWER, type LoadRecorder } from './load-recorder.js';
import type { LoadStateMachine } from './load-state.js';
import { notSentReport } from './load-summary.js';
import { classifySendError, itemName, resolveItem, where, type ResolvedItem } from './outcomes.js';
import { type InputItem, itemHash } from './input-item.js';
import { loadSideOf } from './load-side.js';
import { Reachability, UNREACHABLE_MS } from './reachability.js';
import { NO_TRIES, nextTry, type Tries } from './resend.js';
import { RequestPool } from './request-pool.js';
import { type Outgoing, SendBatch } from './send-batch.js';
import type { HeldItem, LoadSide } from './settle-unknown.js';
import type { UnknownHolding } from './unknown-holding.js';
import { petCount } from '../text.js';

/** POST /pets: the created Pet (201 or 200); `limits` as in SendRequest. */
export type CreatePet = (client: PetstoreClient, pet: NewPet, limits: Pick<SendRequest, 'signal' | 'deadlineMs' | 'retry'>) => Promise<Pet>;

/** The sending side of one load. */
export class LoadSending {
  private readonly pool: RequestPool;
  /** Whether the service is reached: every connection failing for a while stops the load. */
  private readonly reach: Reachability;
  private readonly batch: SendBatch;
  /** Items read so far; the next item's index. */
  itemsRead = 0;
  /** Items to send held back while the journal's known items are checked (see {@link itemRead}). */
  private readonly heldBack: { raw: ResolvedItem; index: number }[] = [];

  constructor(
    private readonly f: Factory,
    private readonly options: { concurrency: number; retryUnknown: boolean },
    private readonly machine: LoadStateMachine,
    private readonly recorder: LoadRecorder,
    private readonly output: BatchedOutput,
    private readonly holding: UnknownHolding,
    private readonly createPet: CreatePet,
  ) {
    this.pool = new RequestPool(options.concurrency);
    this.reach = new Reachability(f.bulkSeams.unreachableMs ?? UNREACHABLE_MS);
    this.batch = new SendBatch({
      recorder,
      machine,
      pool: this.pool,
      send: (o: Outgoing) => {
        this.holding.sent(o.index, o.hash);
        this.pool.run(() => this.send(o.client, o.item, o.pet, o.index));
      },
      notSent: (o: Outgoing) => this.recordUnsentAfterStop(o.item, o.index, o.noAnswer, () => undefined),
    });
  }

  /** Takes the next item read; while the journal's known items are checked, those to send are held back (a different input: exit 2). */
  async itemRead(client: PetstoreClient, raw: InputItem): Promise<void> {
    const index = this.itemsRead++;
    this.recorder.tally.read += 1;
    const { journal } = this.recorder;
    if (journal && index >= journal.known) {
      // A finished load's input had no more items than it saw.
      if (journal.earlier?.finished) throw journal.differs(`at line ${raw.line} (the finished load read ${petCount(journal.known)})`);
      if (index === journal.known && index > 0) this.machine.fire('checked');
      await this.sendHeldBack(client);
    }
    await this.dispatchItem(client, raw, index, journal !== undefined && index < journal.known);
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

  /** Ends item `index` as the journal and the load's state say: counted, held back, carried over, recorded not created, or sent. */
  private async dispatchItem(client: PetstoreClient, raw: ResolvedItem, index: number, holdBack: boolean): Promise<void> {
    const item = resolveItem(raw);
    const { journal, tally } = this.recorder;
    let hash: string | undefined;
    let noAnswer = false;
    // Consulted after a stop too: an item created or decided earlier is never written as not sent.
    if (journal) {
      hash = itemHash(raw);
      const state = journal.state(index, hash, raw.line);
      if (state.kind === 'created') {
        tally.created += 1;
        return;
      }
      // not_sent (the connection never opened) proves nothing was sent: the resumed load sends it.
      if (state.kind === 'decided' && state.record.outcome !== 'not_sent') {
        if (state.record.outcome === 'unknown' && this.holding.hold(item, index, hash, state.record, 0)) return;
        return this.recorder.repeatEarlierOutcome(item, state.record);
      }
      noAnswer = state.kind === 'no_answer';
      // Made unknown by a record set aside, it has no "seen" record yet: one marks it possibly sent before its answer is recorded.
      if (noAnswer && index >= journal.known) this.recorder.journalItemSeen(index, hash, true);
      if (noAnswer && !this.options.retryUnknown) {
        const record = this.recorder.failedRecord(item, 'unknown', NO_ANSWER);
        if (this.holding.hold(item, index, hash, record, 0)) {
          journal.decided(index, record);
          return;
        }
        return this.recordNotCreated(item, 'unknown', NO_ANSWER, index);
      }
      if (holdBack) {
        this.heldBack.push({ raw, index });
        return;
      }
    }
    const markSeen = (sending: boolean) => hash === undefined || this.recorder.journalItemSeen(index, hash, sending);
    if (item.previous === 'unknown' && !this.options.retryUnknown) {
      markSeen(false);
      if (hash !== undefined && this.holding.hold(item, index, hash, item.record ?? {}, Number.NEGATIVE_INFINITY, false)) return;
      return this.recorder.carryOverUnknown(item);
    }
    if (this.machine.stop) return this.recordUnsentAfterStop(item, index, noAnswer, markSeen);
    if (item.error !== undefined) {
      markSeen(false);
      return this.recordNotCreated(item, 'failed', { code: 'invalid_input', message: item.error, status: null });
    }
    const plain = plainNewPet(item.value);
    const checked = plain ? { success: true as const, data: plain } : NewPet.safeParse(item.value);
    if (!checked.success) {
      markSeen(false);
      return this.recordNotCreated(item, 'failed', { code: 'invalid_item', message: describeIssue(checked.error, 'item'), status: null });
    }
    await this.pool.slot();
    // Checked first: awaiting even a settled promise costs every item a microtask turn.
    if (this.output.isBlocked) await this.output.drained();
    if (this.machine.stop) return this.recordUnsentAfterStop(item, index, noAnswer, markSeen);
    // Its record is written with those of the other items queued on this turn, before any of them leaves (send-batch.ts).
    markSeen(true);
    this.pool.take();
    this.batch.add({ client, item, pet: checked.data, index, hash, noAnswer });
  }

  /** An item the stopped load does not send: not_sent, unless an earlier run sent it (no answer journaled, or an `unknown` line): unknown. */
  private recordUnsentAfterStop(item: ResolvedItem, index: number, noAnswer: boolean, markSeen: (sending: boolean) => void): void {
    if (noAnswer) this.recordNotCreated(item, 'unknown', NO_ANSWER, index);
    else if (item.previous === 'unknown') {
      markSeen(false);
      this.recorder.carryOverUnknown(item);
    } else this.recordNotCreated(item, 'not_sent', notSentReport(this.machine.stop!));
  }

  /** Sends item `index`, journaled before; `tries`: how often it was sent again so far (resend.ts decides when it is). */
  private async send(client: PetstoreClient, item: ResolvedItem, pet: NewPet, index: number, tries: Tries = NO_TRIES): Promise<void> {
    const { journal, tally } = this.recorder;
    try {
      this.holding.resent(index);
      // Own deadline per POST (a second Ctrl-C ends them all: BulkLoad.run); never retried once sent (docs/internals.md).
      const created = await this.createPet(client, pet, { signal: null, deadlineMs: this.f.globals.timeout, retry: false });
      this.reach.contact();
      if (this.holding.settler) {
        journal?.created(index, int64Of(created.id));
        this.holding.settler.created(int64Of(created.id));
      } else journal?.created(index);
      this.holding.answered(index);
      tally.created += 1;
      this.output.push(this.f.exporter.streamText([created], PET_VIEW));
    } catch (error) {
      const result = classifySendError(error);
      const { unreachable, stop } = this.reach.observe(error);
      // Every connection failed for a while: the load stops (said once, at its end), rather than trying each pet in turn.
      if (stop && !this.machine.stop) this.machine.recordStop(stop);
      if (this.machine.stop?.reason === 'unreachable' && result.outcome === 'not_sent')
        return this.recordNotCreated(item, 'not_sent', notSentReport(this.machine.stop), index);
      const next = nextTry(error, result, tries, unreachable, {
        client,
        reach: this.reach,
        retries: this.f.globals.retries,
        debug: (line) => this.f.io.debug(line),
      });
      if (next) {
        // No journal write goes before a resend: the lease is confirmed here.
        if ((await this.waitUnlessStopped(next.waitMs)) && this.recorder.confirmLease())
          return this.send(client, item, pet, index, next.tries);
        if (this.machine.stop) {
          journal?.notTaken(index);
          return this.recordNotCreated(item, 'not_sent', notSentReport(this.machine.stop));
        }
      }
      if (result.outcome === 'created_unreadable') {
        journal?.created(index);
        tally.created += 1;
        this.recorder.message(
          `warning: ${where(item)} was created (HTTP ${result.status}), but its answer could not be read: ${result.why}; it is not sent again`,
          'created_unreadable',
          this.recorder.firstRead(item),
        );
        return;
      }
      if (result.stop) this.machine.recordStop(result.stop);
      this.recordNotCreated(item, result.outcome, result.report, index);
    }
  }

  /** Waits `ms` milliseconds; false when the load stopped before or meanwhile. */
  private async waitUnlessStopped(ms: number): Promise<boolean> {
    const waited = !this.machine.stop && (await setTimeout(ms, true, { signal: this.machine.stopped }).catch(() => false));
    return waited && !this.machine.stop;
  }

  /**
   * Counts an item not created, says why (a stop is said once), writes it to --failed and, when sent (`sentIndex`), the journal; an
   * unknown item this load sent goes to the settling when there is one.
   */
  private recordNotCreated(item: ResolvedItem, outcome: Outcome, report: ErrorReport, sentIndex?: number): void {
    const { journal, tally } = this.recorder;
    const sending = this.holding.answered(sentIndex);
    if (outcome === 'unknown' && sending) {
      const record = this.recorder.failedRecord(item, outcome, report);
      if (this.holding.hold(item, sentIndex!, sending.hash, record, sending.at)) {
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

  /** What the settling (settle-unknown.ts, run by the command) may do to this load: its journal, tally, output and pool. */
  loadSide(client: PetstoreClient): LoadSide {
    const { f, machine, recorder, output, pool, holding } = this;
    const send = (held: HeldItem) => pool.run(() => this.send(client, held.item, held.pet, held.index));
    return loadSideOf({ f, machine, recorder, output, pool, holding, send, idle: this.idle });
  }
}
