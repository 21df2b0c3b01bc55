/** Runs of jq in a worker thread (./jq-worker.ts), so that Ctrl-C, --timeout and a memory limit can end a run by terminating it. */
import type { Worker } from 'node:worker_threads';
import { CliError, ExitCode } from '../errors.js';

/** The worker's script (./jq-worker.ts bundled, jq.wasm inside): set by the build; undefined in src/ (tests). */
declare const PETSTORE_JQ_WORKER: string | undefined;

/** One run: jq with `flags` and `expression` on the JSON text `json`. */
export interface JqRequest {
  json: string;
  expression: string;
  flags: string[];
}

/** What jq printed (without the last newline) and its exit status, as jq-wasm's `raw` returns them. */
export interface JqOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** What ends a run before jq does. */
export interface JqLimits {
  /** When aborted, the run ends at once with the signal's reason. */
  stop?: AbortSignal;
  /** The command's --timeout in milliseconds: named in the message; each run's own limit without `deadline`. */
  timeoutMs?: number;
  /** The deadline of the whole command, in performance.now() milliseconds. */
  deadline?: number;
}

/**
 * What a thread may hold by default, in MiB: jq's heap (capped at 256 MiB by jq-wasm), the input and the output, which grows until the run
 * ends (`repeat(1)`). V8's strings hold at most 512 Mi characters: a larger output could not print anyway.
 */
export const MEMORY_LIMIT_MB = 1024;
/** How often a running thread's memory is read, in milliseconds. */
const MEMORY_CHECK_MS = 100;

/** The jq threads of one run, each holding at most `memoryLimitMb` MiB; an idle one is kept, unreferenced, until close(). */
export class JqThreads {
  private idle?: JqThread;
  private closed = false;

  constructor(private readonly memoryLimitMb = MEMORY_LIMIT_MB) {}

  /** Runs jq within `limits`; rejects with `limits.stop`'s reason or a CliError (exit 1): timeout, jq_memory or jq_error. */
  async run(request: JqRequest, limits: JqLimits = {}): Promise<JqOutput> {
    limits.stop?.throwIfAborted();
    const thread = this.idle?.alive ? this.idle : new JqThread(this.memoryLimitMb);
    this.idle = undefined;
    const output = await thread.run(request, limits);
    // Two runs at once each have their own thread; one is kept.
    if (this.idle || this.closed) void thread.end();
    else this.idle = thread.rest();
    return output;
  }

  /** Terminates the idle thread; a run still going ends its thread when it finishes. */
  async close(): Promise<void> {
    this.closed = true;
    const idle = this.idle;
    this.idle = undefined;
    await idle?.end();
  }
}

class JqThread {
  private readonly worker: Worker;
  alive = true;

  constructor(private readonly memoryLimitMb: number) {
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    const options = { resourceLimits: { maxOldGenerationSizeMb: memoryLimitMb } };
    this.worker =
      typeof PETSTORE_JQ_WORKER === 'string'
        ? new Worker(PETSTORE_JQ_WORKER, { ...options, eval: true })
        : new Worker(new URL('./jq-worker.ts', import.meta.url), options);
    this.worker.once('exit', () => (this.alive = false));
  }

  /** Posts one run, settled as {@link JqThreads.run} says; a run that did not finish terminates the thread. */
  run(request: JqRequest, limits: JqLimits): Promise<JqOutput> {
    return new Promise((resolve, reject) => this.post(request, limits, resolve, reject));
  }

  private post(request: JqRequest, limits: JqLimits, resolve: (output: JqOutput) => void, reject: (error: unknown) => void): void {
    const worker = this.worker;
    const { stop, timeoutMs } = limits;
    const deadline = limits.deadline ?? (timeoutMs === undefined ? undefined : performance.now() + timeoutMs);
    let settled = false;
    const finish = (error: unknown, output?: JqOutput) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      stop?.removeEventListener('abort', onStop);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (output) return resolve(output);
      void this.end();
      reject(error);
    };
    const onMessage = (message: JqOutput | { thrown: string }) =>
      'thrown' in message ? finish(thrownError(message.thrown)) : finish(undefined, message);
    const onError = (error: Error & { code?: string }) =>
      finish(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? outOfMemory(`the run used more than ${this.memoryLimitMb} MiB`)
          : new CliError(`--jq could not run: ${error.message}`, ExitCode.failure, 'jq_error'),
      );
    const onExit = (code: number) => finish(new CliError(`--jq stopped unexpectedly (exit status ${code})`, ExitCode.failure, 'jq_error'));
    const onStop = () => finish(stop?.reason);
    const timer =
      deadline === undefined
        ? undefined
        : setTimeout(
            () => finish(new CliError(`--jq timed out after ${timeoutMs} ms (--timeout)`, ExitCode.failure, 'timeout')),
            Math.max(0, deadline - performance.now()),
          );
    const watch = this.watchMemory(() => finish(outOfMemory(`the run used more than ${this.memoryLimitMb} MiB`)));
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    stop?.addEventListener('abort', onStop, { once: true });
    worker.ref();
    worker.postMessage(request);
  }

  /** Calls `exceeded` when the thread holds more than its limit outside V8's heap too; the interval to clear (none on Node 22). */
  private watchMemory(exceeded: () => void): NodeJS.Timeout | undefined {
    const worker = this.worker;
    if (typeof worker.getHeapStatistics !== 'function') return undefined;
    let asking = false;
    return setInterval(() => {
      if (asking) return;
      asking = true;
      const asked = worker.getHeapStatistics().then(
        (stats) => {
          if ((stats.used_heap_size + (stats.external_memory ?? 0)) / 2 ** 20 > this.memoryLimitMb) exceeded();
        },
        () => undefined, // Not running (yet, or any more): 'exit' tells of an end.
      );
      void asked.finally(() => (asking = false));
    }, MEMORY_CHECK_MS);
  }

  /** Lets the process end while this idle thread lives. */
  rest(): this {
    this.worker.unref();
    return this;
  }

  /** Terminates the thread, without holding the process meanwhile. */
  end(): Promise<number> {
    this.worker.unref();
    return this.worker.terminate();
  }
}

function outOfMemory(detail: string): CliError {
  return new CliError(`--jq ran out of memory: ${detail}`, ExitCode.failure, 'jq_memory');
}

/** What jq-wasm threw: `Aborted()` (no reason given) is how jq ends when its heap is full. */
function thrownError(message: string): CliError {
  if (message.startsWith('Aborted()')) return outOfMemory("jq's heap holds at most 256 MiB");
  return new CliError(`--jq stopped: ${message}`, ExitCode.failure, 'jq_error');
}
