/**
 * `petstore add --file <path|->`: creates every NewPet of a JSON array or NDJSON input, streamed, with bounded concurrency. Every item
 * ends created or written to `--failed` (failed, not_sent or unknown), so one rerun on that file finishes the load, creating nothing twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import type { PetstoreClient } from '../../api/client.js';
import { createPet } from './http.js';
import { MAX_RETRY_AFTER_MS } from '../../api/retry.js';
import { describeIssue, NewPet, type Pet } from '../../api/schemas.js';
import { BatchedOutput } from '../../bulk/batched-output.js';
import { FailedFile, FailedWriteError, type FailedRecord, type Outcome } from '../../bulk/failed-file.js';
import { type EarlierLoad, itemHash, JournalWriteError, LoadJournal } from '../../bulk/journal.js';
import { openInput } from '../../bulk/open-input.js';
import { notSentReport, summarise, type Stop, type Tally } from '../../bulk/load-summary.js';
import { classifySendError, itemName, resolveItem, where, type ResolvedItem } from '../../bulk/outcomes.js';
import { Progress } from '../../bulk/progress.js';
import { type ReadState, readItemBatches } from '../../bulk/read-items.js';
import { RequestPool } from '../../bulk/request-pool.js';
import type { HeldItem, SettleCounts, UnknownSettler } from '../../bulk/settle-unknown.js';
import { int64Of } from '../../bulk/store-ids.js';
import { openSettler, settleActions } from './resolve-unknown.js';
import { CliError, ExitCode, InterruptedError, type ErrorReport } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { JqStream } from '../../output/jq.js';
import { PET_VIEW } from '../../output/views.js';
import { petCount } from '../../text.js';

export interface AddFileOptions {
  /** A path, or "-" for standard input. */
  file: string;
  concurrency: number;
  /** Where the items not created go as NDJSON, for a second run. */
  failed?: string;
  /** Send again items recorded as `unknown` (they may have been created). */
  retryUnknown: boolean;
  /** Discard the journal of an earlier load and start from the top. */
  restart?: boolean;
  /** Settle `unknown` items against listings of the store (resolve-unknown.ts). */
  resolveUnknown?: boolean;
}

/**
 * Runs the bulk load, printing each created pet through the exporter (the `stream` shape, `--jq` when given). Throws UsageError when the
 * input or `--failed` cannot be opened (nothing sent); later, the error of what stopped it (130/143, 4, 1), or exit 1 if any item was not created.
 */
export async function runAddFile(f: Factory, options: AddFileOptions): Promise<void> {
  const input = openInput(options.file, f.io.raw.stdin as Readable, f.signals.halt, f.signal);
  // Typed at the terminal: no progress line (its redraws would wipe the echo).
  const typed = options.file === '-' && f.io.raw.stdinIsTTY;
  let failed: FailedFile | undefined;
  let journal: LoadJournal | undefined;
  try {
    // What can refuse the load (no key: exit 4) comes first: a load that never starts leaves no journal.
    const client = await f.client();
    // Each jq run has --timeout, as each request has; a second Ctrl-C ends one, as it ends the requests in flight.
    const limits = { stop: f.signals.halt, timeoutMs: f.globals.timeout };
    const jq = await f.exporter.jqStream(limits);
    // The journal's last write before this run: when the earlier runs' last POST left, at the latest (--resolve-unknown waits past it).
    let journalWritten = 0;
    if (options.failed) {
      failed = await FailedFile.open(options.failed);
      const source = options.file === '-' ? '-' : path.resolve(options.file);
      journalWritten = fs.statSync(failed.journalPath, { throwIfNoEntry: false })?.mtimeMs ?? 0;
      journal = LoadJournal.open(failed.journalPath, { input: source, identity: input.identity }, options.restart ?? false);
    }
    if (journal?.earlier) sayResuming(f, journal.earlier, journal.path, options.file);
    if (typed && f.io.raw.stderrIsTTY)
      f.io.info('reading pets from the terminal, one JSON object per line; Ctrl-D ends the input', 'reading_terminal');
    const settler = options.resolveUnknown ? await openSettler(f, client, journal, journalWritten) : undefined;
    await new BulkLoad(f, options, failed, input.size, !typed, jq, journal, settler).run(client, input.stream);
  } finally {
    input.stream.destroy();
    journal?.close();
    await failed?.dispose();
  }
}

/** Says what the journal holds of an earlier load of this input: resumed, or finished (then only what was not created is looked at). */
function sayResuming(f: Factory, earlier: EarlierLoad, journalPath: string, file: string): void {
  const { failed, unknown, notSent } = earlier.decided;
  const parts = [`${earlier.created} created`, `${failed} failed`, `${unknown + earlier.noAnswer} unknown`];
  if (notSent) parts.push(`${notSent} not sent`);
  const fields = { created: earlier.created, failed, unknown: unknown + earlier.noAnswer, notSent, known: earlier.known };
  if (earlier.finished && earlier.tally) {
    // Its end record counts every item, also those the journal holds no outcome for (invalid, or unknown ones skipped).
    const t = earlier.tally;
    parts.splice(0, parts.length, `${t.created} created`, `${t.failed} failed`, `${t.unknown} unknown`);
    if (t.notSent) parts.push(`${t.notSent} not sent`);
    if (t.skipped) parts.push(`${t.skipped} of unknown outcome skipped`);
    Object.assign(fields, { created: t.created, failed: t.failed, unknown: t.unknown, notSent: t.notSent, skipped: t.skipped });
  }
  if (earlier.finished) {
    f.io.info(
      `this load of ${file === '-' ? 'standard input' : file} finished at ${earlier.finished} (journal ${journalPath}): of its ${petCount(earlier.known)}, ${parts.join(', ')}; ` +
        `the input is read again to check it is the same; the pets created are not sent again${notSent ? ', those not sent are sent now' : ''}. --restart loads it anew`,
      'load_finished',
      { ...fields, finished: earlier.finished },
    );
    return;
  }
  f.io.info(
    `resuming the load started at ${earlier.started} (journal ${journalPath}): of its first ${petCount(earlier.known)}, ${parts.join(', ')}` +
      `${earlier.noAnswer ? ` (${earlier.noAnswer} sent with no answer recorded: unknown, not sent again without --retry-unknown)` : ''}; the items left are sent now`,
    'resuming',
    fields,
  );
}

const NO_ANSWER = {
  code: 'unknown',
  message: 'sent before the load stopped, and no answer was recorded: it may have been created',
  status: null,
};

class BulkLoad {
  private readonly tally: Tally = { read: 0, created: 0, failed: 0, unknown: 0, notSent: 0, skipped: 0 };
  private readonly pool: RequestPool;
  private readonly output: BatchedOutput;
  private stop?: Stop;
  /** Aborted when the load stops: ends a wait for a Retry-After resend. */
  private readonly stopped = new AbortController();
  private readonly unrecorded: number[] = [];
  /** Lines written to the temporary --failed file: unrecorded should it not replace --failed. */
  private readonly written: number[] = [];
  private lastLine = 0;
  private inputCut = false;
  private readonly readState: ReadState = { bytes: 0, holding: false, ended: false };
  private readonly progress: Progress;
  private index = 0;
  private readonly source: string;
  /** Items to send held back until the journal's known items are checked (see take). */
  private readonly deferred: { raw: ResolvedItem; index: number }[] = [];
  /** With --resolve-unknown, each item in flight: Date.now() of its last POST (for the settling's wait) and its journal hash. */
  private readonly sends = new Map<number, { at: number; hash: string }>();
  private settled?: SettleCounts;

  constructor(
    private readonly f: Factory,
    private readonly options: AddFileOptions,
    private readonly failed: FailedFile | undefined,
    private readonly inputSize: number | undefined,
    showProgress: boolean,
    private readonly jq?: JqStream,
    private readonly journal?: LoadJournal,
    private readonly settler?: UnknownSettler,
  ) {
    this.progress = new Progress(f.io, this.tally, inputSize, showProgress);
    this.source = options.file === '-' ? '-' : path.resolve(options.file);
    this.pool = new RequestPool(options.concurrency);
    const stdout = f.io.raw.stdout;
    const sink = { write: (text: string) => f.io.writeOut(text), once: stdout.once?.bind(stdout) };
    this.output = new BatchedOutput(jq ? jq.into(sink, (error) => this.jqStopped(error)) : sink);
  }

  async run(client: PetstoreClient, input: Readable): Promise<void> {
    const onSignal = () => {
      this.halt({ reason: 'signal', error: this.f.signal.reason as InterruptedError });
      this.sayStopping();
    };
    this.f.signal.addEventListener('abort', onSignal, { once: true });
    if (this.f.signal.aborted) onSignal();
    const onHalt = () => void client.abortAll(this.f.signals.halt.reason as InterruptedError);
    this.f.signals.halt.addEventListener('abort', onHalt, { once: true });
    this.failed?.onLockLost((error) => this.lockLost(error));
    const detach = this.f.io.raw.onStdoutError?.((error) => {
      this.output.fail();
      this.halt({
        reason: 'stdout',
        error: new CliError(`cannot write to standard output: ${error.code ?? error.message}`, ExitCode.failure, 'stdout_error'),
      });
    });
    try {
      try {
        await this.readAll(client, input);
        await this.pool.idle();
        if (this.settler) this.settled = await settleActions(this.settler, this.settling(client));
      } finally {
        this.output.flush();
        this.progress.stop();
      }
      await this.jq?.idle();
      // A write error of the last rows surfaces on a later turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      // Only a load that ran to its end is finished: after a stop, the same command resumes it. Written before --failed is put in
      // place, so that `--file F --failed F` killed between the two finds the journal of the F it read.
      if (this.stop?.reason !== 'failed_file' && this.stop?.reason !== 'journal' && this.stop?.reason !== 'lock') this.endJournal();
      await this.commitFailed();
      this.report();
    } finally {
      this.f.signal.removeEventListener('abort', onSignal);
      this.f.signals.halt.removeEventListener('abort', onHalt);
      detach?.();
    }
  }

  /** Reads the input to its end unless a second Ctrl-C; after another stop the rest is counted and recorded as not sent. */
  private async readAll(client: PetstoreClient, input: Readable): Promise<void> {
    await this.readItems(client, input);
    // An input with fewer items than the journal knows is not the one it records: nothing of this run was sent yet (see take).
    if (!this.inputCut && this.journal && this.index < this.journal.known)
      throw this.journal.differs(`its ${this.index} items end before the ${this.journal.known} the journal records`);
    await this.sendDeferred(client);
  }

  private async readItems(client: PetstoreClient, input: Readable): Promise<void> {
    try {
      for await (const batch of readItemBatches(input, (bytes) => this.progress.read(bytes), this.readState)) {
        this.progress.batch(batch.length);
        for (const item of batch) {
          await this.take(client, item);
          this.progress.took();
        }
        if (this.f.signals.halt.aborted) {
          this.inputCut = !this.readToEnd();
          return;
        }
      }
    } catch (error) {
      if (!this.f.signals.halt.aborted) throw error;
      this.inputCut = !this.readToEnd();
    }
  }

  /** Every item of the input was taken: its end was met, or a regular file's every byte was read and no item is left half read. */
  private readToEnd(): boolean {
    const state = this.readState;
    return state.ended || (this.inputSize !== undefined && state.bytes >= this.inputSize && !state.holding);
  }

  /**
   * Takes the next item. While the journal's known items are read again, those to send are held back: a different input is then
   * refused (exit 2) before this run sends anything.
   */
  private async take(client: PetstoreClient, raw: ResolvedItem): Promise<void> {
    const index = this.index++;
    this.tally.read += 1;
    this.lastLine = raw.line;
    if (raw.endsInput) this.inputCut = true;
    if (this.journal && index >= this.journal.known) {
      // A finished load's input had no more items than it saw.
      if (this.journal.earlier?.finished)
        throw this.journal.differs(`at line ${raw.line} (the finished load read ${petCount(this.journal.known)})`);
      await this.sendDeferred(client);
    }
    await this.takeAt(client, raw, index, this.journal !== undefined && index < this.journal.known);
  }

  /** The items held back while the known ones were checked, sent in input order. */
  private async sendDeferred(client: PetstoreClient): Promise<void> {
    const deferred = this.deferred.splice(0);
    for (const { raw, index } of deferred) await this.takeAt(client, raw, index, false);
  }

  private async takeAt(client: PetstoreClient, raw: ResolvedItem, index: number, holdBack: boolean): Promise<void> {
    const item = resolveItem(raw);
    let hash: string | undefined;
    let noAnswer = false;
    // Consulted after a stop too: an item created or decided earlier is never written as not sent.
    if (this.journal) {
      hash = itemHash(raw);
      const state = this.journal.state(index, hash, raw.line);
      if (state.kind === 'created') {
        this.tally.created += 1;
        return;
      }
      // not_sent (the connection never opened) proves nothing was sent: the resumed load sends it.
      if (state.kind === 'decided' && state.record.outcome !== 'not_sent') {
        if (state.record.outcome === 'unknown' && this.hold(item, index, hash, state.record, 0)) return;
        return this.replay(item, state.record);
      }
      noAnswer = state.kind === 'no_answer';
      if (noAnswer && !this.options.retryUnknown) {
        const record = this.failedRecord(item, 'unknown', NO_ANSWER);
        if (this.hold(item, index, hash, record, 0)) {
          this.journal!.decided(index, record);
          return;
        }
        return this.record(item, 'unknown', NO_ANSWER, index);
      }
      if (holdBack) {
        this.deferred.push({ raw, index });
        return;
      }
    }
    const seen = (sending: boolean) => hash === undefined || this.journalSeen(index, hash, sending);
    if (item.previous === 'unknown' && !this.options.retryUnknown) {
      seen(false);
      if (hash !== undefined && this.hold(item, index, hash, item.record ?? {}, Number.NEGATIVE_INFINITY, false)) return;
      return this.carry(item);
    }
    if (this.stop) return this.notSending(item, index, noAnswer, seen);
    if (item.error !== undefined) {
      seen(false);
      return this.record(item, 'failed', { code: 'invalid_input', message: item.error, status: null });
    }
    const checked = NewPet.safeParse(item.value);
    if (!checked.success) {
      seen(false);
      return this.record(item, 'failed', { code: 'invalid_item', message: describeIssue(checked.error, 'item'), status: null });
    }
    await this.pool.slot();
    // Checked first: awaiting even a settled promise costs every item a microtask turn.
    if (this.output.isBlocked) await this.output.drained();
    if (this.stop) return this.notSending(item, index, noAnswer, seen);
    // Journaled before the POST leaves: a death from here on leaves it unknown, never sent twice. Not journaled: not sent.
    if (!seen(true)) return this.notSending(item, index, noAnswer, () => undefined);
    if (this.settler && hash !== undefined) this.sends.set(index, { at: Date.now(), hash });
    this.pool.run(() => this.send(client, item, checked.data, index));
  }

  /** Journals item `index` seen; false (the load stopped) when the journal cannot be written. */
  private journalSeen(index: number, hash: string, sending: boolean): boolean {
    try {
      this.journal!.seen(index, hash, sending);
      return true;
    } catch (error) {
      if (!(error instanceof JournalWriteError)) throw error;
      this.halt({ reason: 'journal', error: new CliError(`${error.message}; the load stopped`, ExitCode.failure, 'journal_write_error') });
      return false;
    }
  }

  private endJournal(): void {
    try {
      this.journal?.end(this.tally, !this.stop);
    } catch (error) {
      if (!(error instanceof JournalWriteError)) throw error;
      this.halt({ reason: 'journal', error: new CliError(`${error.message}; the load stopped`, ExitCode.failure, 'journal_write_error') });
    }
  }

  /** Another process took the lock of --failed over: nothing more is sent, the rest is recorded not sent (never committed over theirs). */
  private lockLost(error: Error): void {
    // Its new owner writes the journal now.
    this.journal?.abandon();
    this.halt({
      reason: 'lock',
      error: new CliError(
        `another process took over the lock of --failed ${this.failed!.path} (${(error as NodeJS.ErrnoException).code ?? error.message}); this load stopped sending`,
        ExitCode.failure,
        'lock_lost',
      ),
    });
  }

  /**
   * Keeps an unknown item for the settling (resolve-unknown.ts) and says true; false without --resolve-unknown or for an item that is
   * no NewPet. `sentAt`: Date.now() of its last POST, 0 for an earlier run of this load, -Infinity for an earlier load; `ours`: sent
   * by this load.
   */
  private hold(item: ResolvedItem, index: number, hash: string, record: Record<string, unknown>, sentAt: number, ours = true): boolean {
    const pet = this.settler && NewPet.safeParse(item.value);
    if (!pet?.success) return false;
    this.settler!.hold({ item, pet: pet.data, index, hash, record, afterListing: ours && this.settler!.hasListing, sentAt });
    return true;
  }

  /** The settling's actions on this load: its journal, tally, output and pool. */
  private settling(client: PetstoreClient) {
    return {
      f: this.f,
      stopped: this.stopped.signal,
      isStopped: () => this.stop !== undefined,
      settled: (held: HeldItem, pet: Pet) => {
        this.journal?.created(held.index, int64Of(pet.id));
        this.tally.created += 1;
        this.output.push(this.f.exporter.streamText([pet], PET_VIEW));
        this.message(`settled: ${where(held.item)} ${itemName(held.item.value)} was created: pet ${pet.id}`, 'settled_created', {
          ...this.firstRead(held.item),
          id: pet.id,
        });
      },
      send: async (held: HeldItem) => {
        await this.pool.slot();
        if (this.output.isBlocked) await this.output.drained();
        if (this.stop) return false;
        if (this.journal && !this.journalSeen(held.index, held.hash, true)) return false;
        this.sends.set(held.index, { at: Date.now(), hash: held.hash });
        this.pool.run(() => this.send(client, held.item, held.pet, held.index));
        return true;
      },
      idle: () => this.pool.idle(),
      stays: (held: HeldItem, record: Record<string, unknown>, message: string) => {
        this.tally.unknown += 1;
        this.message(`unknown: ${where(held.item)} ${itemName(held.item.value)}: ${message}`, 'unknown', this.firstRead(held.item));
        this.writeFailed(held.item.line, record);
      },
      message: (line: string, code: string, fields?: Record<string, unknown>) => this.message(line, code, fields),
    };
  }

  /** An item the stopped load does not send: not_sent, unless an earlier run sent it (no answer journaled, or an `unknown` line): unknown. */
  private notSending(item: ResolvedItem, index: number, noAnswer: boolean, seen: (sending: boolean) => void): void {
    if (noAnswer) this.record(item, 'unknown', NO_ANSWER, index);
    else if (item.previous === 'unknown') {
      seen(false);
      this.carry(item);
    } else this.record(item, 'not_sent', notSentReport(this.stop!));
  }

  /** An item the journal decided earlier: its --failed record as written then. */
  private replay(item: ResolvedItem, record: Record<string, unknown>): void {
    const outcome = record.outcome;
    this.tally[outcome === 'unknown' ? 'unknown' : outcome === 'not_sent' ? 'notSent' : 'failed'] += 1;
    this.writeFailed(item.line, record);
  }

  private async send(client: PetstoreClient, item: ResolvedItem, pet: NewPet, index: number, resent = 0): Promise<void> {
    try {
      const sending = this.sends.get(index);
      if (sending) sending.at = Date.now();
      // Own deadline per POST; a second Ctrl-C ends them all at once (run).
      const created = await createPet(client, pet, { signal: null, deadlineMs: this.f.globals.timeout });
      if (this.settler) {
        this.journal?.created(index, int64Of(created.id));
        this.settler.created(int64Of(created.id));
      } else this.journal?.created(index);
      this.sends.delete(index);
      this.tally.created += 1;
      this.output.push(this.f.exporter.streamText([created], PET_VIEW));
    } catch (error) {
      const result = classifySendError(error);
      // A 429 or 503 with Retry-After was not taken: resent after the wait (at most --retries times) unless the load stops.
      if ('retryAfterMs' in result && result.retryAfterMs !== undefined && resent < this.f.globals.retries) {
        const waited =
          !this.stop &&
          (await setTimeout(Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS), true, { signal: this.stopped.signal }).catch(() => false));
        if (waited && !this.stop) return this.send(client, item, pet, index, resent + 1);
        if (this.stop) {
          this.journal?.notTaken(index);
          return this.record(item, 'not_sent', notSentReport(this.stop));
        }
      }
      if (result.outcome === 'created_unreadable') {
        this.journal?.created(index);
        this.tally.created += 1;
        this.message(
          `warning: ${where(item)} was created (HTTP ${result.status}), but its answer could not be read: ${result.why}; it is not sent again`,
          'created_unreadable',
          this.firstRead(item),
        );
        return;
      }
      if (result.stop) this.halt(result.stop);
      this.record(item, result.outcome, result.report, index);
    }
  }

  /**
   * Counts an item not created, says why (not for the items a stop leaves unsent: the stop is said once), writes it to --failed (and
   * the journal, as item `sent`, when it was sent).
   */
  private record(item: ResolvedItem, outcome: Outcome, report: ErrorReport, sent?: number): void {
    const sending = sent === undefined ? undefined : this.sends.get(sent);
    if (sending) this.sends.delete(sent!);
    if (outcome === 'unknown' && sending) {
      const record = this.failedRecord(item, outcome, report);
      if (this.hold(item, sent!, sending.hash, record, sending.at)) {
        this.journal?.decided(sent!, record);
        return;
      }
    }
    this.tally[outcome === 'failed' ? 'failed' : outcome === 'unknown' ? 'unknown' : 'notSent'] += 1;
    if (outcome !== 'not_sent' || report.code !== 'not_sent') {
      const status = report.status ? ` (HTTP ${report.status})` : '';
      this.message(`${outcome.replace('_', ' ')}: ${where(item)} ${itemName(item.value)}: ${report.message}${status}`, outcome, {
        ...this.firstRead(item),
        error: report,
      });
    }
    const record = this.failedRecord(item, outcome, report);
    if (sent !== undefined) this.journal?.decided(sent, record);
    this.writeFailed(item.line, record);
  }

  /** The item's `--failed` record. */
  private failedRecord(item: ResolvedItem, outcome: Outcome, report: ErrorReport): Record<string, unknown> {
    const text = item.value === undefined ? item.text : undefined;
    return {
      ...this.firstRead(item),
      outcome,
      item: item.value ?? null,
      ...(text === undefined ? {} : { text }),
      ...(text !== undefined && item.bytes ? { text_base64: item.bytes.toString('base64') } : {}),
      error: report,
    };
  }

  /** An earlier `unknown` item, not sent again without --retry-unknown: carried over unchanged. */
  private carry(item: ResolvedItem): void {
    this.tally.skipped += 1;
    this.writeFailed(item.line, item.record ?? {});
  }

  private writeFailed(line: number, record: FailedRecord | Record<string, unknown>): void {
    if (!this.failed || this.stop?.reason === 'failed_file') {
      if (this.stop?.reason === 'failed_file') this.unrecorded.push(line);
      return;
    }
    try {
      this.failed.write(record);
      this.written.push(line);
    } catch (error) {
      if (!(error instanceof FailedWriteError)) throw error;
      this.unrecorded.push(line);
      this.halt({ reason: 'failed_file', error: new CliError(error.message, ExitCode.failure, 'failed_file_error') });
    }
  }

  /** A --jq run that could not finish (a second Ctrl-C, --timeout, memory) stops the load as a stdout write error does. */
  private jqStopped(error: unknown): void {
    this.output.fail();
    if (error instanceof CliError && !(error instanceof InterruptedError)) this.halt({ reason: 'jq', error });
  }

  private halt(stop: Stop): void {
    // The first reason stands; a failed --failed file or journal, or a lost lock, overrides: nothing more can be recorded.
    const final = ['failed_file', 'journal', 'lock'];
    if (!this.stop || (final.includes(stop.reason) && !final.includes(this.stop.reason))) this.stop = stop;
    this.stopped.abort();
  }

  private sayStopping(): void {
    const waiting = this.pool.size;
    const seconds = Math.ceil(this.f.globals.timeout / 1000);
    const answers = waiting === 1 ? '1 answer' : `${waiting} answers`;
    this.message(
      waiting === 0
        ? 'stopping: no more pets are sent; Ctrl-C again stops at once'
        : `stopping: no more pets are sent; waiting for ${answers} in flight, at most ${seconds}s (--timeout); Ctrl-C again stops at once`,
      'stopping',
      { inFlight: waiting },
    );
  }

  /** Where an item was first read (line and input path), kept through reruns. */
  private firstRead(item: ResolvedItem): { line: number; source?: string } {
    if (!item.origin) return { line: item.line, source: this.source };
    return item.origin.source === undefined ? { line: item.origin.line } : { line: item.origin.line, source: item.origin.source };
  }

  /** A line above the status line, after the rows already created; `fields` go into its --json object. */
  private message(line: string, code: string, fields: Record<string, unknown> = {}): void {
    this.output.flush();
    if (line.startsWith('warning: ')) this.f.io.warn(line.slice('warning: '.length), code, fields);
    else this.f.io.info(line, code, fields);
  }

  private async commitFailed(): Promise<void> {
    if (!this.failed || this.stop?.reason === 'failed_file') return;
    try {
      await this.failed.commit();
    } catch (error) {
      if (!(error instanceof FailedWriteError)) throw error;
      // Its folder removed, say: every line written to the temporary file is lost.
      this.unrecorded.push(...this.written);
      this.halt({ reason: 'failed_file', error: new CliError(error.message, ExitCode.failure, 'failed_file_error') });
    }
  }

  private report(): void {
    const end = {
      tally: this.tally,
      stop: this.stop,
      failedPath: this.failed?.path,
      inputCut: this.inputCut,
      lastLine: this.lastLine,
      unrecorded: this.unrecorded,
      settled: this.settled,
    };
    const unprinted = this.jq?.unprinted ?? 0;
    if (unprinted)
      this.f.io.warn(
        `--jq was stopped: ${unprinted === 1 ? '1 created pet was' : `${unprinted} created pets were`} not printed`,
        'jq_unprinted',
      );
    const error = summarise(this.f.io, end) ?? this.jq?.failure;
    if (error) throw error;
  }
}
