/**
 * `--jq <expression>`: jq itself (jq 1.8 compiled to WebAssembly, the jq-wasm
 * package) applied to the exact JSON text a command prints. Its results print
 * as gh's `--jq` prints them: a string raw, anything else as compact JSON, one
 * result a line. Numbers jq passes through unchanged keep their digits (ids
 * above 2^53 stay exact); arithmetic on them is jq's (doubles).
 *
 * jq runs in a worker thread (./jq-thread.ts), so that Ctrl-C, SIGTERM and
 * the command's --timeout end a run that would never end, and a memory limit
 * one whose output would grow without end. The thread, with jq.wasm, travels
 * inside the bundle (scripts/build.mjs), so the bundle and a single executable
 * built from it need no file beside them. It starts only when `--jq` is given
 * (decompressing and compiling the .wasm happen in it). jq-wasm
 * returns a run's whole output at its end: results print when the run ends.
 */
import { escapeRawControls } from '../json.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import type { OutputTarget, Writable } from '../iostreams.js';
import { sanitizeLines } from '../text.js';
import { type JqLimits, JqThreads } from './jq-thread.js';

// "--" ends jq's options, so that an expression such as "-1" is a program, not a flag.
const FLAGS = ['-c', '--'];

/** What one run printed, and the error jq stopped on (the results before it are in `text`). */
export interface JqRun {
  text: string;
  error?: CliError;
}

/** A jq expression that compiled. */
export class JqFilter {
  constructor(
    readonly expression: string,
    private readonly threads: JqThreads,
  ) {}

  /**
   * Runs the expression on `json`: one JSON text, or several one a line (each
   * is an input, as for jq on NDJSON), within `limits`. Resolves with the
   * printed results, one a line, strings raw (without terminal escapes when
   * `out` is a terminal), and jq's runtime error in `error` (exit 1, code
   * jq_error). What jq's `debug` and `stderr` write becomes a warning on
   * `out`. Rejects as JqThreads.run does (./jq-thread.ts) when the run cannot
   * finish: Ctrl-C, the deadline, memory.
   */
  async run(json: string, out: OutputTarget, limits?: JqLimits): Promise<JqRun> {
    const result = await this.threads.run({ json, expression: this.expression, flags: FLAGS }, limits);
    const lines = result.stderr.split('\n').filter((line) => line !== '');
    let errors = lines.filter((line) => line.startsWith('jq: error')).map((line) => this.errorMessage(line));
    let messages = lines.filter((line) => !line.startsWith('jq: error'));
    // halt_error writes its message without jq's prefix.
    if (result.exitCode !== 0 && errors.length === 0)
      [errors, messages] = [messages.length ? messages : [`jq stopped with exit status ${result.exitCode}`], []];
    for (const message of messages) out.warn(`jq: ${message}`, 'jq_message');
    const text = formatResults(result.stdout, out.isTTY);
    // jq's exit status is that of its last input: an error on an earlier one shows only on stderr.
    if (result.exitCode === 0 && errors.length === 0) return { text };
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    return { text, error: new CliError(`--jq: ${errors[0]}${more}`, ExitCode.failure, 'jq_error') };
  }

  /** `jq: error (at /dev/stdin:0): message` → the message. */
  private errorMessage(line: string): string {
    const message = line.replace(/^jq: error(?: \(at [^)]*\))?: /, '');
    // jq-wasm's jq reports `input` past the last input as the "break" that ended its reading.
    return message === 'break' && /\binput\b/.test(this.expression) ? 'No more inputs' : message;
  }
}

/** jq's compact output lines as printed: a JSON string as its text, any other value as its JSON, terminal-safe. */
function formatResults(stdout: string, isTTY: boolean): string {
  if (stdout === '') return '';
  let text = '';
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('"')) text += `${escapeRawControls(line)}\n`;
    else text += `${isTTY ? sanitizeLines(JSON.parse(line) as string) : (JSON.parse(line) as string)}\n`;
  }
  return text;
}

/**
 * The `--jq` of one run (the Factory makes it with the run's environment and
 * limits): its threads, whose jq sees `env` as `$ENV` and `env`, and the
 * expressions compiled in them.
 */
export class Jq {
  private readonly threads: JqThreads;
  private readonly compiled = new Map<string, Promise<JqFilter>>();

  constructor(
    env: NodeJS.ProcessEnv,
    /** What ends a run of {@link print}: Ctrl-C or SIGTERM, the command's --timeout. */
    private readonly limits: JqLimits,
  ) {
    this.threads = new JqThreads(env);
  }

  /**
   * Compiles `expression` (once: later calls share the result). Nothing
   * runs: jq compiles the program, then reads no input. Rejects with a
   * UsageError (exit 2) carrying jq's message when it does not compile.
   */
  compile(expression: string): Promise<JqFilter> {
    let filter = this.compiled.get(expression);
    if (!filter) {
      filter = this.compileNow(expression);
      this.compiled.set(expression, filter);
    }
    return filter;
  }

  /**
   * Applies `expression` to the JSON text `json` and writes the results to
   * `out`, within the run's limits. Throws the UsageError of {@link compile};
   * after writing the results before it, the CliError of a runtime error
   * (exit 1); and what JqThreads.run rejects with when the run cannot finish
   * (./jq-thread.ts; nothing is written then).
   */
  async print(out: OutputTarget, expression: string, json: string): Promise<void> {
    const { text, error } = await (await this.compile(expression)).run(json, out, this.limits);
    if (text) out.write(text);
    if (error) throw error;
  }

  /** The stream of `expression` to `out`, each run within `limits`; rejects as {@link compile} does. */
  async stream(out: OutputTarget, expression: string, limits: JqLimits): Promise<JqStream> {
    return new JqStream(await this.compile(expression), out, limits);
  }

  /** Terminates the run's idle jq thread. */
  close(): Promise<void> {
    return this.threads.close();
  }

  private async compileNow(expression: string): Promise<JqFilter> {
    // Without input jq compiles the program and runs nothing.
    const { stderr, exitCode } = await this.threads.run({ json: '', expression, flags: FLAGS });
    if (exitCode !== 0) throw compileError(stderr);
    return new JqFilter(expression, this.threads);
  }
}

/** `jq: error: syntax error, ... column 2:` / `    .[` / `     ^` / `jq: 1 compile error` → message and hint lines. */
function compileError(stderr: string): UsageError {
  const lines = stderr.split('\n').filter((line) => line !== '' && !/^jq: \d+ compile errors?$/.test(line));
  const [first = 'not a jq expression', ...rest] = lines.map((line) => line.replace(/^jq: error: /, ''));
  return new UsageError(`invalid --jq expression: ${first}`, rest.length ? rest.join('\n') : undefined, 'invalid_jq');
}

/**
 * `--jq` over output written in pieces (a bulk load's batches of NDJSON
 * lines), as the stream a BatchedOutput writes to: `write` takes a piece and
 * returns false, and 'drain' comes once every piece has gone through jq and
 * its results were written to the sink (and the sink took them). Results keep
 * the order of the pieces. A runtime error of jq does not stop the stream: the
 * first is kept in `failure`, for the exit code. A run that cannot finish
 * (see JqThreads.run) stops it: no more pieces go through jq, and `onStopped` gets the error.
 */
export class JqStream {
  failure?: CliError;
  /** Lines of the pieces whose results were not printed because the stream stopped. */
  unprinted = 0;
  private sink?: Writable;
  private onStopped?: (error: unknown) => void;
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  /** The sink pushed back at the last write and has not drained since. */
  private sinkBlocked = false;

  constructor(
    private readonly filter: JqFilter,
    private readonly out: OutputTarget,
    private readonly limits: JqLimits,
  ) {}

  /** Sends the results to `sink` (stdout); `onStopped` hears of a run that could not finish. Returns the stream. */
  into(sink: Writable, onStopped: (error: unknown) => void): this {
    this.sink = sink;
    this.onStopped = onStopped;
    return this;
  }

  /** Takes one piece of NDJSON text; false: wait for 'drain' before writing more. */
  write(json: string): boolean {
    this.queue = this.queue.then(() => this.runPiece(json));
    return false;
  }

  /** Calls `listener` once every piece written so far has been run and its results taken by the sink. */
  once(_event: 'drain', listener: () => void): void {
    void this.queue.then(() => (this.sinkBlocked && this.sink?.once ? this.sink.once('drain', listener) : listener()));
  }

  /** Resolves once every piece written so far has been run and its results written. */
  idle(): Promise<void> {
    return this.queue;
  }

  private async runPiece(json: string): Promise<void> {
    if (this.stopped) {
      this.unprinted += lineCount(json);
      return;
    }
    try {
      const { text, error } = await this.filter.run(json, this.out, this.limits);
      this.failure ??= error;
      if (text && this.sink?.write(text) === false && this.sink.once) {
        this.sinkBlocked = true;
        this.sink.once('drain', () => (this.sinkBlocked = false));
      }
    } catch (error) {
      this.stopped = true;
      this.unprinted += lineCount(json);
      this.onStopped?.(error);
    }
  }
}

function lineCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}
