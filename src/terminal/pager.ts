/** The pager of data printed to a terminal, as gh's (docs/terminal.md), run without a shell; which one runs: pager-command.ts. */
import type { ChildProcess } from 'node:child_process';
import type { PagerCommand } from './pager-command.js';

/** The pagers of one run that are running: while one runs, Ctrl-C is its own (less stops a search with it), as with git. */
export interface PagerCount {
  running: number;
}

/** The pager's environment unless the user's sets them, as gh and git do. */
const PAGER_ENV = { LESS: 'FRX', LV: '-c' };

/** Standard output written directly, and warnings on stderr, for a pager that cannot be started or fails. */
export interface PagerFallback {
  write(text: string): void;
  warn(message: string, code: string): void;
}

/** Bytes more than a pipe to a child process holds (Linux: a socket's default send buffer, 208 KiB; macOS: 64 KiB). */
const PIPE_HOLDS_AT_MOST = 512 * 1024;

/** The most written to the pager at once, in bytes: what it has read is known to this precision. */
const WRITE_SLICE = 64 * 1024;

/**
 * One running pager, fed data on its standard input. One that cannot start, or fails before it was seen to read, is named in a warning
 * and the output printed directly; one that fails after reading is named and fails the command ({@link failedAfterOutput}).
 */
export class Pager {
  private readonly child: ChildProcess;
  private readonly file: string;
  /** The output so far, to print directly should the pager fail before reading; undefined once it read (or can no longer fail). */
  private kept: string[] | undefined = [];
  /** Writes go straight to standard output: the pager could not be started, or failed first. */
  private direct = false;
  /** The pager has ended or its input broke: writes are dropped. */
  private ended = false;
  /** Slices not yet written: one is written at a time, so that each is acknowledged on its own (a stream merges waiting writes). */
  private readonly queue: Buffer[] = [];
  private queuedBytes = 0;
  private writing = false;
  private closing = false;
  /** Called once the slice being written is answered. */
  private onAnswered: (() => void) | undefined;
  /** Resolves the writers waiting for the queue to drain. */
  private drainWaiters: (() => void)[] = [];
  private readSome = false;
  private taken = 0;
  /** True once the pager failed after reading output that may have reached the terminal: the command must fail (exit 1). */
  failedAfterOutput = false;
  /** True once the pager exited before its input ended, with the output its own (the user quit it, or it failed after reading). */
  quitEarly = false;
  private readonly finished: Promise<void>;

  constructor(
    command: PagerCommand,
    env: NodeJS.ProcessEnv,
    private readonly fallback: PagerFallback,
    count: PagerCount,
  ) {
    const { spawn } = process.getBuiltinModule('node:child_process');
    const [file, ...args] = command.words as [string, ...string[]];
    this.file = file;
    this.child = spawn(file, args, { stdio: ['pipe', 'inherit', 'inherit'], env: { ...PAGER_ENV, ...env } });
    count.running += 1;
    // EPIPE once the pager has quit: a quiet end of the output.
    this.child.stdin!.on('error', () => {
      this.ended = true;
      this.dropQueue();
    });
    this.finished = new Promise<void>((resolve) => {
      this.child.once('error', (error: NodeJS.ErrnoException) => {
        this.ended = true;
        this.dropQueue();
        // Only the default pager (less) may be missing quietly: the user did not ask for it.
        this.printDirectly(
          command.chosen ? `cannot start the pager "${file}": ${error.code ?? error.message}; printing directly` : undefined,
        );
        resolve();
      });
      this.child.once('close', (code, signal) => {
        this.ended = true;
        const decide = () => {
          const failure = failureOf(code, signal);
          if (failure) this.onFailure(failure);
          else this.kept = undefined;
          this.quitEarly = !this.closing && !this.direct;
          resolve();
        };
        this.dropQueue();
        // What the pager took is known once the slice being written is answered: that may come later than its exit is seen.
        if (this.writing) this.onAnswered = decide;
        else decide();
      });
    }).finally(() => (count.running -= 1));
  }

  private onFailure(failure: string): void {
    if (this.direct) return;
    if (!this.readSome && this.kept) {
      this.printDirectly(`the pager "${this.file}" ${failure} before showing the output; printing directly`);
      return;
    }
    this.failedAfterOutput = true;
    this.fallback.warn(
      `the pager "${this.file}" ${failure} before the end of the output; what it showed may be incomplete`,
      'pager_failed',
    );
  }

  private printDirectly(warning: string | undefined): void {
    const kept = this.kept ?? [];
    this.direct = true;
    this.kept = undefined;
    for (const text of kept) this.fallback.write(text);
    if (warning) this.fallback.warn(warning, 'pager_failed');
  }

  /** True while output goes to the pager (false once it could not be started or failed first). */
  get active(): boolean {
    return !this.direct;
  }

  /** Writes data to the pager, while {@link active}; false when the writer should wait for {@link drained} (as a stream's write). */
  write(text: string): boolean {
    // Kept even once the input broke: the pager may yet fail, and this would be printed too. Held only until the pager is seen to read,
    // which the push-back of drained() keeps to what a pipe holds, but for one large write (a table), which is in memory anyway.
    this.kept?.push(text);
    if (this.ended) return true;
    // In slices, so that a pager that reads most of one large write (a table), then fails, is seen to have read.
    const bytes = Buffer.from(text);
    for (let start = 0; start < bytes.length; start += WRITE_SLICE) this.queue.push(bytes.subarray(start, start + WRITE_SLICE));
    this.queuedBytes += bytes.length;
    this.writeNext();
    return this.queuedBytes < WRITE_SLICE;
  }

  /** Resolves once the slices waiting have been written or, once the pager's input has ended, its exit judged ({@link quitEarly}). */
  async drained(): Promise<void> {
    if (!this.ended && this.queuedBytes >= WRITE_SLICE) await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
    if (this.ended) await this.finished;
  }

  private writeNext(): void {
    if (this.writing || this.ended) return;
    const stdin = this.child.stdin!;
    const slice = this.queue.shift();
    if (!slice) {
      if (this.closing) stdin.end();
      return;
    }
    this.writing = true;
    let pipeWasFull = false;
    stdin.write(slice, (error) => {
      this.writing = false;
      this.queuedBytes -= slice.length;
      if (error) {
        this.ended = true;
        this.dropQueue();
      } else {
        this.taken += slice.length;
        // The pipe took the rest of a slice it had no room for, or more than it holds: the pager read.
        if (pipeWasFull || this.taken > PIPE_HOLDS_AT_MOST) {
          this.readSome = true;
          this.kept = undefined;
        }
      }
      const answered = this.onAnswered;
      this.onAnswered = undefined;
      answered?.();
      if (this.queuedBytes < WRITE_SLICE) this.releaseWriters();
      this.writeNext();
    });
    // Still waiting once write() returns: the pipe could not take it all.
    pipeWasFull = stdin.writableLength > 0;
  }

  private dropQueue(): void {
    for (const slice of this.queue) this.queuedBytes -= slice.length;
    this.queue.length = 0;
    this.releaseWriters();
  }

  private releaseWriters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Ends the pager's input and resolves once it has exited (the user has read the output and quit). */
  async close(): Promise<void> {
    this.closing = true;
    this.writeNext();
    await this.finished;
  }
}

/**
 * How a pager's end reads in a warning ("exited with status 3", "was killed by SIGKILL"); undefined for a quit: status 0, or SIGINT
 * (the user's Ctrl-C) or SIGPIPE.
 */
function failureOf(code: number | null, signal: NodeJS.Signals | null): string | undefined {
  if (code !== null) return code === 0 ? undefined : `exited with status ${code}`;
  return signal === null || signal === 'SIGINT' || signal === 'SIGPIPE' ? undefined : `was killed by ${signal}`;
}
