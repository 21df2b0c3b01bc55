/**
 * One bulk load (`add --file`): items read, sent (load-sending.ts) and ended created or in `--failed`; then the settling, the journal's end,
 * `--failed` put in place and the summary. src/bulk/README.md says where each step lives.
 */
import type { Readable } from 'node:stream';
import type { PetstoreClient } from '../api/client.js';
import { CliError, ExitCode, InterruptedError } from '../errors.js';
import { BatchedOutput } from './batched-output.js';
import type { FailedFile } from './failed-file.js';
import type { LoadJournal } from './journal.js';
import { lossAtRenewal } from './lock-lease.js';
import type { LoadContext, PetFilter } from './load-context.js';
import { LoadRecorder } from './load-recorder.js';
import { type CreatePet, LoadSending } from './load-sending.js';
import { LoadStop } from './load-stop.js';
import { summarise } from './load-summary.js';
import { Progress } from './progress.js';
import { type ReadState, readItemBatches } from './read-items.js';
import type { LoadForSettling, SettleCounts, UnknownSettler } from './settle-unknown.js';
import { SettlerFeed } from './settler-feed.js';

/** What a load is asked to do. */
export interface BulkLoadOptions {
  /** A path, or "-" for standard input. */
  file: string;
  concurrency: number;
  /** Send again items recorded as `unknown` (they may have been created). */
  retryUnknown: boolean;
}

/** What a load works with, opened by its command (commands/add/add-file.ts). */
export interface BulkLoadSetup {
  /** Messages, stdout, the flags and signals (load-context.ts). */
  context: LoadContext;
  options: BulkLoadOptions;
  /** The input's absolute path, or "-". */
  source: string;
  failed?: FailedFile;
  journal?: LoadJournal;
  /** The input's size in bytes, when a regular file. */
  inputSize?: number;
  /** False while the user types the input (redraws would wipe the echo). */
  showProgress: boolean;
  /** `--jq` over the created pets. */
  jq?: PetFilter;
  /** POST /pets (the command's createPet). */
  createPet: CreatePet;
  /** With --resolve-unknown: the settler, and the settling run through the load's side once every answer is in. */
  settling?: { settler: UnknownSettler; settle: (load: LoadForSettling) => Promise<SettleCounts | undefined> };
}

/** One run of a bulk load; {@link run} once. */
export class BulkLoad {
  private readonly stop = new LoadStop();
  private readonly output: BatchedOutput;
  private readonly progress: Progress;
  private readonly recorder: LoadRecorder;
  private readonly sending: LoadSending;
  private readonly readState: ReadState = { bytes: 0, holding: false, ended: false };
  /** The input was not read to its end (a second Ctrl-C, an item over 16 MiB). */
  private inputCut = false;
  private lastLine = 0;
  private settled?: SettleCounts;

  constructor(private readonly setup: BulkLoadSetup) {
    const { context, journal } = setup;
    const sink = context.stdout;
    this.output = new BatchedOutput(setup.jq ? setup.jq.into(sink, (error) => this.jqStopped(error)) : sink);
    this.recorder = new LoadRecorder(context.messages, this.output, this.stop, setup.source, setup.failed, journal);
    this.progress = new Progress(context.status, this.recorder.tally, setup.inputSize, setup.showProgress);
    const feed = new SettlerFeed(setup.settling?.settler);
    this.sending = new LoadSending(context, setup.options, this.stop, this.recorder, this.output, feed, setup.createPet);
  }

  /** Runs the load to its summary. Throws the error of what stopped it (130/143, 4, 1), exit 1 if an item was not created, or 2 for an input the journal does not record. */
  async run(client: PetstoreClient, input: Readable): Promise<void> {
    const { stop, halt, stdout } = this.setup.context;
    const onSignal = () => {
      this.stop.record({ reason: 'signal', error: stop.reason as InterruptedError });
      this.sayStopping();
    };
    stop.addEventListener('abort', onSignal, { once: true });
    if (stop.aborted) onSignal();
    const onHalt = () => void client.abortAll(halt.reason as InterruptedError);
    halt.addEventListener('abort', onHalt, { once: true });
    this.setup.failed?.onLockLost((error) => this.lockLost(error));
    const detach = stdout.onError?.((error) => {
      this.output.fail();
      this.stop.record({
        reason: 'stdout',
        error: new CliError(`cannot write to standard output: ${error.code ?? error.message}`, ExitCode.failure, 'stdout_error'),
      });
    });
    try {
      try {
        await this.readAll(client, input);
        await this.sending.idle();
        const { settling } = this.setup;
        if (settling) this.settled = await settling.settle(this.sending.forSettling(client));
      } finally {
        this.output.flush();
        this.progress.stop();
      }
      await this.setup.jq?.idle();
      // A write error of the last rows surfaces on a later turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      // Before --failed is put in place: `--file F --failed F` killed between the two finds the journal of the F it read.
      this.recorder.endJournal();
      await this.recorder.commitFailed();
      this.report();
    } finally {
      stop.removeEventListener('abort', onSignal);
      halt.removeEventListener('abort', onHalt);
      detach?.();
    }
  }

  /** Reads the input to its end unless a second Ctrl-C; after another stop the rest is counted and recorded as not sent. */
  private async readAll(client: PetstoreClient, input: Readable): Promise<void> {
    await this.readItems(client, input);
    const { journal } = this.setup;
    // An input with fewer items than the journal knows is not the one it records: nothing of this run was sent yet (held back).
    if (!this.inputCut && journal && this.sending.itemsRead < journal.known)
      throw journal.differs(`its ${this.sending.itemsRead} items end before the ${journal.known} the journal records`);
    await this.sending.sendHeldBack(client);
  }

  private async readItems(client: PetstoreClient, input: Readable): Promise<void> {
    const { halt } = this.setup.context;
    try {
      for await (const batch of readItemBatches(input, (bytes) => this.progress.read(bytes), this.readState)) {
        this.progress.batch(batch.length);
        for (const item of batch) {
          this.lastLine = item.line;
          if (item.endsInput) this.inputCut = true;
          const waiting = this.sending.itemRead(client, item);
          if (waiting instanceof Promise) await waiting;
          this.progress.took();
        }
        if (halt.aborted) {
          this.inputCut = !this.readToEnd();
          return;
        }
      }
    } catch (error) {
      if (!halt.aborted) throw error;
      this.inputCut = !this.readToEnd();
    }
  }

  /** Every item of the input was taken: its end was met, or a regular file's every byte was read and no item is left half read. */
  private readToEnd(): boolean {
    const state = this.readState;
    return state.ended || (this.setup.inputSize !== undefined && state.bytes >= this.setup.inputSize && !state.holding);
  }

  /** Another process took the lock of --failed over: nothing more is sent, the rest is recorded not sent (never committed over theirs). */
  private lockLost(error: Error): void {
    this.recorder.leaseLost(lossAtRenewal(this.setup.failed!.path, error));
  }

  /** A --jq run that could not finish (a second Ctrl-C, --timeout, memory) stops the load as a stdout write error does. */
  private jqStopped(error: unknown): void {
    this.output.fail();
    if (error instanceof CliError && !(error instanceof InterruptedError)) this.stop.record({ reason: 'jq', error });
  }

  /** Says the load is stopping (the first Ctrl-C or SIGTERM), and what it waits for. */
  private sayStopping(): void {
    const waiting = this.sending.inFlight;
    const seconds = Math.ceil(this.setup.context.timeoutMs / 1000);
    const answers = waiting === 1 ? '1 answer' : `${waiting} answers`;
    this.recorder.message(
      waiting === 0
        ? 'stopping: no more pets are sent; Ctrl-C again stops at once'
        : `stopping: no more pets are sent; waiting for ${answers} in flight, at most ${seconds}s (--timeout); Ctrl-C again stops at once`,
      'stopping',
      { inFlight: waiting },
    );
  }

  private report(): void {
    const { context, jq } = this.setup;
    const end = {
      tally: this.recorder.tally,
      stop: this.stop.why,
      failedPath: this.setup.failed?.path,
      inputCut: this.inputCut,
      lastLine: this.lastLine,
      unrecorded: this.recorder.unrecorded,
      settled: this.settled,
    };
    const unprinted = jq?.unprinted ?? 0;
    if (unprinted)
      context.messages.warn(
        `--jq was stopped: ${unprinted === 1 ? '1 created pet was' : `${unprinted} created pets were`} not printed`,
        'jq_unprinted',
      );
    const error = summarise(context.messages, end) ?? jq?.failure;
    if (error) throw error;
  }
}
