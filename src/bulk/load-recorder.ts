/** What a bulk load writes down of its items: the tally, the `--failed` lines (and those not written), the journal, the messages. */
import { CliError, ExitCode } from '../errors.js';
import type { BatchedOutput } from './batched-output.js';
import { type FailedFile, type FailedRecord, FailedWriteError, type Outcome } from './failed-file.js';
import { JournalWriteError, type LoadJournal } from './journal.js';
import { LeaseLostError } from './lock-lease.js';
import type { Tally } from './load-summary.js';
import type { LoadMessages } from './load-context.js';
import { isUnrecordable, type LoadStop } from './load-stop.js';
import type { ResolvedItem } from './outcomes.js';
import type { ErrorReport } from '../errors.js';

/** The error report of an item an earlier run sent and recorded no answer for. */
export const NO_ANSWER = {
  code: 'unknown',
  message: 'sent before the load stopped, and no answer was recorded: it may have been created',
  status: null,
};

/** The records of one load; a write error of --failed or the journal is recorded as the load's `stop`. */
export class LoadRecorder {
  readonly tally: Tally = { read: 0, created: 0, failed: 0, unknown: 0, notSent: 0, skipped: 0 };
  /** Lines not created whose outcome could not be written to --failed. */
  readonly unrecorded: number[] = [];
  /** Lines written to the temporary --failed file: unrecorded should it not replace --failed. */
  private readonly written: number[] = [];

  constructor(
    private readonly messages: LoadMessages,
    private readonly output: BatchedOutput,
    private readonly stop: LoadStop,
    /** The input's absolute path, or "-". */
    private readonly source: string,
    readonly failed?: FailedFile,
    readonly journal?: LoadJournal,
  ) {}

  /** Where an item was first read (line and input path), kept through reruns. */
  firstRead(item: ResolvedItem): { line: number; source?: string } {
    if (!item.origin) return { line: item.line, source: this.source };
    return item.origin.source === undefined ? { line: item.origin.line } : { line: item.origin.line, source: item.origin.source };
  }

  /** The item's `--failed` record. */
  failedRecord(item: ResolvedItem, outcome: Outcome, report: ErrorReport): Record<string, unknown> {
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

  /** Writes the --failed line of input `line`; after a write error, only notes the line as unrecorded. */
  writeFailed(line: number, record: FailedRecord | Record<string, unknown>): void {
    const stop = this.stop.why;
    if (!this.failed || stop?.reason === 'failed_file') {
      if (stop?.reason === 'failed_file') this.unrecorded.push(line);
      return;
    }
    try {
      this.failed.write(record);
      this.written.push(line);
    } catch (error) {
      if (!(error instanceof FailedWriteError)) throw error;
      this.unrecorded.push(line);
      this.stop.record({ reason: 'failed_file', error: new CliError(error.message, ExitCode.failure, 'failed_file_error') });
    }
  }

  /** An earlier `unknown` item, not sent again without --retry-unknown: its --failed line carried over unchanged. */
  carryOverUnknown(item: ResolvedItem): void {
    this.tally.skipped += 1;
    this.writeFailed(item.line, item.record ?? {});
  }

  /** An item the journal decided earlier: counted, and its --failed record written again as it was then. */
  repeatEarlierOutcome(item: ResolvedItem, record: Record<string, unknown>): void {
    const outcome = record.outcome;
    this.tally[outcome === 'unknown' ? 'unknown' : outcome === 'not_sent' ? 'notSent' : 'failed'] += 1;
    this.writeFailed(item.line, record);
  }

  /** Journals item `index` seen (`sending`: its POST leaves after {@link flushJournal}); kept until then. */
  journalItemSeen(index: number, hash: string, sending: boolean): void {
    this.journal!.itemSeen(index, hash, sending);
  }

  /**
   * Writes the journal's records kept since its last write (true without a journal); false, the load stopped, when it cannot, or when
   * this load no longer holds the lock of --failed (the journal's guard asks before every write).
   */
  flushJournal(): boolean {
    if (!this.journal) return true;
    try {
      this.journal.flush();
      return true;
    } catch (error) {
      if (error instanceof LeaseLostError) this.leaseLost(error);
      else if (error instanceof JournalWriteError) this.journalFailed(error);
      else throw error;
      return false;
    }
  }

  /** The journal's end record: `complete` unless the load stopped. Not written after an unrecordable stop. */
  endJournal(): void {
    if (isUnrecordable(this.stop.why)) return;
    try {
      this.journal?.end(this.tally, !this.stop.why);
    } catch (error) {
      if (error instanceof LeaseLostError) this.leaseLost(error);
      else if (error instanceof JournalWriteError) this.journalFailed(error);
      else throw error;
    }
  }

  /** Whether this load still holds the lock of --failed (true without one): asked before a POST that no journal write precedes. */
  confirmLease(): boolean {
    try {
      this.failed?.confirmLease();
      return true;
    } catch (error) {
      if (!(error instanceof LeaseLostError)) throw error;
      this.leaseLost(error);
      return false;
    }
  }

  /** The lock of --failed is no longer this load's: it sends and records nothing more (the journal is another load's now), said once. */
  leaseLost(error: LeaseLostError): void {
    this.journal?.abandon();
    if (!this.stop.why) this.message(error.stopping, `${error.code}_stopping`);
    this.stop.record({ reason: error.kind === 'expired' ? 'lease' : 'lock', error });
  }

  /** Puts --failed in place, unless it could not be written or is no longer this load's; then every line written is unrecorded. */
  async commitFailed(): Promise<void> {
    if (!this.failed || this.stop.why?.reason === 'failed_file') return;
    if (!this.confirmLease()) {
      this.unrecorded.push(...this.written);
      return;
    }
    try {
      await this.failed.commit();
    } catch (error) {
      if (!(error instanceof FailedWriteError)) throw error;
      // Its folder removed, or a write that failed: every line written to the temporary file is lost.
      this.unrecorded.push(...this.written);
      // A load stopped first for another reason (a full disk stops its journal too) ends with that error: this one is said here.
      if (this.stop.why) this.message(`warning: ${error.message}`, 'failed_file_error');
      this.stop.record({ reason: 'failed_file', error: new CliError(error.message, ExitCode.failure, 'failed_file_error') });
    }
  }

  /** A line above the status line, after the rows already created; `fields` go into its --json object. */
  message(line: string, code: string, fields: Record<string, unknown> = {}): void {
    this.output.flush();
    if (line.startsWith('warning: ')) this.messages.warn(line.slice('warning: '.length), code, fields);
    else this.messages.info(line, code, fields);
  }

  private journalFailed(error: JournalWriteError): void {
    this.stop.record({
      reason: 'journal',
      error: new CliError(`${error.message}; the load stopped`, ExitCode.failure, 'journal_write_error'),
    });
  }
}
