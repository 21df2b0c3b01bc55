/**
 * Runs of jq in a worker thread (./jq-worker.ts), seen from the main thread,
 * which stays free meanwhile: Ctrl-C or SIGTERM, the command's --timeout and
 * a memory limit end a run by terminating its thread. Each petstore run has
 * its own threads (JqThreads), whose jq sees that run's environment as `$ENV`
 * and `env` (jq reads it once, when it starts).
 */
import type { Worker } from 'node:worker_threads';
import { CliError, ExitCode } from '../errors.js';

/** The worker's script (./jq-worker.ts bundled, jq.wasm inside): set by the build; undefined where src/ runs unbundled (tests). */
declare const PETSTORE_JQ_WORKER: string | undefined;

/** One run: jq with `flags` and `expression` on the JSON text `json`. */
export interface JqRequest {
  json: string;
  expression: string;
  flags: string[];
}

/** What jq printed (stdout and stderr without their last newline) and its exit status, as jq-wasm's `raw` returns them. */
export interface JqOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** What ends a run before jq does. */
export interface JqLimits {
  /** When aborted, the run ends at once with the signal's reason (an InterruptedError). */
  stop?: AbortSignal;
  /** The command's --timeout in milliseconds: named in the message, and each run's own limit where `deadline` is not given. */
  timeoutMs?: number;
  /** When the run must have ended, in performance.now() milliseconds (the deadline of the whole command). */
  deadline?: number;
}

/**
 * What a thread may hold, in MiB: jq's own heap (jq-wasm's build caps it at
 * 256 MiB), the input and the output, which grows until the run ends (an
 * endless `repeat(1)` would take the machine). V8 cannot make a string of
 * more than 512 Mi characters, so a larger output could not be printed anyway.
 */
const MEMORY_LIMIT_MB = 1024;
/** How often the memory of a running thread is looked at, in milliseconds. */
const MEMORY_CHECK_MS = 100;

/**
 * The jq threads of one run (the Factory's, through ./jq.ts's Jq), whose jq
 * sees `env` as `$ENV` and `env`. A thread is started on the first run and
 * kept, unreferenced, for the next; one that was terminated is replaced.
 */
export class JqThreads {
  private readonly env: Record<string, string> = {};
  private idle?: JqThread;
  private closed = false;

  constructor(env: NodeJS.ProcessEnv) {
    for (const [name, value] of Object.entries(env)) if (value !== undefined) this.env[name] = value;
  }

  /**
   * Runs jq on a thread within `limits`. Resolves with jq's output (a runtime
   * error of jq is in it); rejects with the reason of `limits.stop`, or a
   * CliError (exit 1) when the deadline passes (code timeout), memory runs
   * out (jq_memory) or the thread fails (jq_error).
   */
  async run(request: JqRequest, limits: JqLimits = {}): Promise<JqOutput> {
    limits.stop?.throwIfAborted();
    const thread = this.idle?.alive ? this.idle : new JqThread(this.env);
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
  /** False once the thread has ended: an idle one that died is not used again. */
  alive = true;

  constructor(env: Record<string, string>) {
    // Loaded here, not with the module: commands without --jq never start it.
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    const options = { resourceLimits: { maxOldGenerationSizeMb: MEMORY_LIMIT_MB }, workerData: { env } };
    this.worker =
      typeof PETSTORE_JQ_WORKER === 'string'
        ? new Worker(PETSTORE_JQ_WORKER, { ...options, eval: true })
        : new Worker(new URL('./jq-worker.ts', import.meta.url), options);
    this.worker.once('exit', () => (this.alive = false));
  }

  /** Posts one run and settles as {@link JqThreads.run} says; a thread whose run did not finish is terminated. */
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
          ? outOfMemory(`the run used more than ${MEMORY_LIMIT_MB} MiB`)
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
    const watch = this.watchMemory(() => finish(outOfMemory(`the run used more than ${MEMORY_LIMIT_MB} MiB`)));
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    stop?.addEventListener('abort', onStop, { once: true });
    worker.ref();
    worker.postMessage(request);
  }

  /**
   * Calls `exceeded` when the thread holds more than MEMORY_LIMIT_MB: memory
   * outside V8's heap (the output jq-wasm gathers, jq's own heap) is not under
   * resourceLimits. Returns the interval to clear. (worker.getHeapStatistics
   * came with Node 24; a Node 22 without it still has --timeout and Ctrl-C.)
   */
  private watchMemory(exceeded: () => void): NodeJS.Timeout | undefined {
    const worker = this.worker;
    if (typeof worker.getHeapStatistics !== 'function') return undefined;
    let asking = false;
    return setInterval(() => {
      if (asking) return;
      asking = true;
      const asked = worker.getHeapStatistics().then(
        (stats) => {
          if ((stats.used_heap_size + (stats.external_memory ?? 0)) / 2 ** 20 > MEMORY_LIMIT_MB) exceeded();
        },
        () => undefined, // Not running (yet, or any more): 'exit' tells of an end.
      );
      void asked.finally(() => (asking = false));
    }, MEMORY_CHECK_MS);
  }

  /** Lets the process end while this idle thread lives; returns the thread. */
  rest(): this {
    this.worker.unref();
    return this;
  }

  /** Terminates the thread, with any run of it, without holding the process meanwhile. */
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
