/**
 * `petstore add --file <path|->`: creates every NewPet of a JSON array or
 * NDJSON input, streamed, with bounded concurrency over one keep-alive pool.
 * Invalid items are reported with their line and never sent. A POST is never
 * retried once sent, and on Ctrl-C no new item is taken while those in flight
 * finish, so nothing is created twice.
 */
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { stringifyJson } from '../api/json.js';
import { describeIssue, NewPet } from '../api/schemas.js';
import { BatchedOutput } from '../bulk/batched-output.js';
import { openFailed, openInput } from '../bulk/open-files.js';
import { itemFromText, readItemBatches, type InputItem } from '../bulk/read-items.js';
import type { Context } from '../context.js';
import { CliError, ExitCode, InterruptedError, ServiceError, UsageError, type ErrorReport } from '../errors.js';
import { renderNdjson, renderPetRows } from '../render.js';

export interface AddFileOptions {
  /** A path, or "-" for standard input. */
  file: string;
  /** Requests in flight at once. */
  concurrency: number;
  /** Where failed items go as NDJSON `{line, item, error}` (plus `text` for input that is not JSON), for a second run. */
  failed?: string;
}

interface Tally {
  read: number;
  created: number;
  failed: number;
  lastLine: number;
}

const NOT_INTERRUPTIBLE = { interruptible: false };

function isFailedLine(value: unknown): value is { item: unknown; text?: unknown } {
  return typeof value === 'object' && value !== null && 'item' in value && 'error' in value && 'line' in value;
}

/**
 * The item a line of `--file` stands for. A line of a `--failed` file stands
 * for its `item`, or, when it kept the `text` of input that was not JSON, for
 * that text read again: mended, it is sent; still malformed, it fails again
 * and keeps its text. Any other item is returned as it is.
 */
function fromFailedLine(item: InputItem): InputItem {
  const line = item.value;
  if (!isFailedLine(line)) return item;
  if (line.item !== null || typeof line.text !== 'string') return { ...item, value: line.item };
  return itemFromText(line.text, item.line, item.index);
}

function itemName(value: unknown): string {
  const name = typeof value === 'object' && value !== null ? (value as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? JSON.stringify(name) : '(no name)';
}

/**
 * Runs the bulk load. Throws UsageError when the input or `--failed` file
 * cannot be opened, or `--failed` names the input (nothing sent), CliError (exit 1) when any item failed,
 * and InterruptedError (exit 130) after Ctrl-C, once in-flight requests ended.
 */
export async function runAddFile(ctx: Context, options: AddFileOptions): Promise<void> {
  const input = openInput(options.file, ctx.io.stdin as Readable, ctx.signal);
  let failedOut: fs.WriteStream | undefined;
  try {
    if (options.failed) failedOut = openFailed(options.failed, input);
  } catch (error) {
    if (options.file !== '-') input.stream.destroy();
    throw error;
  }
  const client = await ctx.client();
  const tally: Tally = { read: 0, created: 0, failed: 0, lastLine: 0 };
  const progress = new Progress(ctx, tally);

  const output = new BatchedOutput(ctx.io.stdout);
  const target = { ...ctx.out, write: (text: string) => output.push(text) };
  // `text` is the source of input that was not JSON, kept whole so that nothing of the input is lost.
  const fail = (item: InputItem, value: unknown, report: ErrorReport, text?: string) => {
    tally.failed += 1;
    // Rows of pets created before this failure reach stdout first, so that a terminal shows both in order.
    output.flush();
    const where = item.index === undefined ? `line ${item.line}` : `line ${item.line} (item ${item.index})`;
    progress.message(`failed: ${where} ${itemName(value)}: ${report.message}${report.status ? ` (HTTP ${report.status})` : ''}`);
    const line = text === undefined ? { line: item.line, item: value ?? null, error: report } : { line: item.line, item: null, text, error: report };
    failedOut?.write(`${stringifyJson(line)}\n`);
  };

  // A counter and one waiter rather than Promise.race, which would attach a
  // reaction to every request in flight each time a slot is awaited.
  let inFlight = 0;
  let wake: (() => void) | undefined;
  const waitForSlot = (limit: number) =>
    inFlight < limit ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve));
  // An item counts as read once it is reported or sent.
  const take = (item: InputItem) => {
    tally.read += 1;
    tally.lastLine = item.line;
  };
  const release = () => {
    inFlight -= 1;
    const waiter = wake;
    wake = undefined;
    waiter?.();
  };
  let interrupted = false;
  // A rejected key fails every later request too: the load stops at the first 401.
  let authFailure: ServiceError | undefined;
  try {
    items: for await (const batch of readItemBatches(input.stream)) {
      for (const item of batch) {
        // Items already buffered from the input are not taken after Ctrl-C either.
        if (ctx.signal.aborted || authFailure) break items;
        const source = fromFailedLine(item);
        if (source.error !== undefined) {
          take(item);
          fail(item, undefined, { code: 'invalid_input', message: source.error, status: null }, source.text);
          continue;
        }
        const value = source.value;
        const checked = NewPet.safeParse(value);
        if (!checked.success) {
          take(item);
          fail(item, value, { code: 'invalid_item', message: describeIssue(checked.error, 'item'), status: null });
          continue;
        }
        while (inFlight >= options.concurrency) await waitForSlot(options.concurrency);
        // Checked first: awaiting even a settled promise costs every item a turn of the microtask queue.
        if (output.isBlocked) await output.drained();
        if (ctx.signal.aborted || authFailure) break items;
        take(item);
        inFlight += 1;
        // One reaction per request (not then + finally): a bulk load makes thousands.
        void client.createPet(checked.data, NOT_INTERRUPTIBLE).then(
          (pet) => {
            tally.created += 1;
            if (ctx.options.json) renderNdjson(target, [pet]);
            else renderPetRows(target, [pet]);
            release();
          },
          (error: unknown) => {
            if (error instanceof ServiceError && error.status === 401) authFailure ??= error;
            const report = error instanceof CliError ? error.report() : { code: 'request_failed', message: String(error), status: null };
            fail(item, value, report);
            release();
          },
        );
      }
    }
  } catch (error) {
    if (!ctx.signal.aborted) throw error;
    interrupted = true;
  }
  while (inFlight > 0) await waitForSlot(1);
  output.flush();
  progress.stop();
  if (failedOut) await new Promise((resolve) => failedOut.end(resolve));

  const failedNote = tally.failed && options.failed ? ` (written to ${options.failed})` : '';
  const stop = authFailure
    ? { word: 'stopped', error: authFailure }
    : interrupted || ctx.signal.aborted
      ? { word: 'interrupted', error: ctx.signal.reason instanceof InterruptedError ? ctx.signal.reason : new InterruptedError('SIGINT') }
      : undefined;
  if (stop) {
    ctx.warn(`${stop.word}: created ${tally.created} pets, ${tally.failed} failed${failedNote}; items from line ${tally.lastLine + 1} on were not sent`);
    throw stop.error;
  }
  ctx.warn(`created ${tally.created} of ${tally.read} pets; ${tally.failed} failed${failedNote}`);
  if (tally.failed) throw new CliError(`${tally.failed} of ${tally.read} pets were not created`, ExitCode.failure, 'partial_failure');
}

/** Progress on stderr when it is a terminal: done, rate, failures, redrawn in place. */
class Progress {
  private readonly timer?: NodeJS.Timeout;
  private readonly started = performance.now();
  private drawn = false;

  constructor(
    private readonly ctx: Context,
    private readonly tally: Tally,
  ) {
    if (ctx.io.stderrIsTTY) this.timer = setInterval(() => this.draw(), 200).unref();
  }

  private draw(): void {
    const seconds = (performance.now() - this.started) / 1000;
    const rate = seconds > 0 ? Math.round(this.tally.created / seconds) : 0;
    this.ctx.io.stderr.write(`\r\u001b[Kcreated ${this.tally.created}, failed ${this.tally.failed}, ${rate}/s`);
    this.drawn = true;
  }

  private clear(): void {
    if (this.drawn) this.ctx.io.stderr.write('\r\u001b[K');
    this.drawn = false;
  }

  /** Prints a line above the progress. */
  message(line: string): void {
    this.clear();
    this.ctx.warn(line);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.clear();
  }
}
