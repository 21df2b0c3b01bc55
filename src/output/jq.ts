/** `--jq`: jq 1.8 (jq-wasm in a worker thread) on the exact JSON a command prints; results as gh's: strings raw, else compact JSON. */
import { escapeRawControls } from '../json.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import type { OutputTarget, Writable } from '../iostreams.js';
import { sanitizeLines } from '../text.js';
import { type JqLimits, type JqRequest, JqThreads } from './jq-thread.js';

// "--" ends jq's options, so that an expression such as "-1" is a program, not a flag.
const FLAGS = ['-c', '--'];

/** Put before an expression (on its line) so that jq sees the run's environment as `$ENV` and `env` (docs/internals.md, "jq"). */
const WITH_ENV = '$__petstore_env as $ENV | {positional: [], named: {}} as $ARGS | def env: $ENV; ';

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
    /** The run's environment, as JSON text. */
    private readonly env: string,
  ) {}

  /** Runs the expression on `json`: resolves with the results and jq's runtime error (exit 1); rejects as JqThreads.run. */
  async run(json: string, out: OutputTarget, limits?: JqLimits): Promise<JqRun> {
    const result = await this.threads.run(this.request(json), limits);
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

  /** The run of the expression, with the environment, on `json` ('': compile only). */
  request(json: string): JqRequest {
    return { json, expression: WITH_ENV + this.expression, flags: ['-c', '--argjson', '__petstore_env', this.env, '--'] };
  }

  /** `jq: error (at /dev/stdin:0): message` → message. */
  private errorMessage(line: string): string {
    const message = line.replace(/^jq: error(?: \(at [^)]*\))?: /, '');
    // jq-wasm's jq reports `input` past the last input as the "break" that ended its reading.
    return message === 'break' && /\binput\b/.test(this.expression) ? 'No more inputs' : message;
  }
}

/** jq's compact output lines as printed: a JSON string as its text, anything else as its JSON. */
function formatResults(stdout: string, isTTY: boolean): string {
  if (stdout === '') return '';
  let text = '';
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('"')) text += `${escapeRawControls(line)}\n`;
    else text += `${isTTY ? sanitizeLines(JSON.parse(line) as string) : (JSON.parse(line) as string)}\n`;
  }
  return text;
}

/** The `--jq` of one run: its threads, whose jq sees `env` and may hold `memoryLimitMb` MiB, and the expressions compiled in them. */
export class Jq {
  private readonly threads: JqThreads;
  private readonly compiled = new Map<string, Promise<JqFilter>>();
  private readonly env: string;

  constructor(
    env: NodeJS.ProcessEnv,
    private readonly limits: JqLimits,
    memoryLimitMb?: number,
  ) {
    this.threads = new JqThreads(memoryLimitMb);
    this.env = JSON.stringify(env);
  }

  /** Compiles `expression` once; rejects with a UsageError (exit 2) carrying jq's message when it does not compile. */
  compile(expression: string): Promise<JqFilter> {
    let filter = this.compiled.get(expression);
    if (!filter) {
      filter = this.compileNow(expression);
      this.compiled.set(expression, filter);
    }
    return filter;
  }

  /** Writes the results of `expression` on `json` to `out`; throws as {@link compile}, then jq's runtime error, or as JqThreads.run. */
  async print(out: OutputTarget, expression: string, json: string): Promise<void> {
    const { text, error } = await (await this.compile(expression)).run(json, out, this.limits);
    if (text) out.write(text);
    if (error) throw error;
  }

  /** The stream of `expression` to `out`, each run within `limits`; rejects as {@link compile} does. */
  async stream(out: OutputTarget, expression: string, limits: JqLimits): Promise<JqStream> {
    return new JqStream(await this.compile(expression), out, limits);
  }

  close(): Promise<void> {
    return this.threads.close();
  }

  private async compileNow(expression: string): Promise<JqFilter> {
    const filter = new JqFilter(expression, this.threads, this.env);
    // Without input jq compiles the program and runs nothing.
    const withEnv = await this.threads.run(filter.request(''));
    if (withEnv.exitCode === 0) return filter;
    // The expression alone, for the user's own text and columns in the message (a module directive fails only after WITH_ENV).
    const alone = await this.threads.run({ json: '', expression, flags: FLAGS });
    throw compileError(alone.exitCode === 0 ? withEnv.stderr : alone.stderr);
  }
}

/** `jq: error: syntax error, ... column 2:` / `    .[` / `     ^` / `jq: 1 compile error` → message and hint lines. */
function compileError(stderr: string): UsageError {
  const lines = stderr.split('\n').filter((line) => line !== '' && !/^jq: \d+ compile errors?$/.test(line));
  const [first = 'not a jq expression', ...rest] = lines.map((line) => line.replace(/^jq: error: /, ''));
  return new UsageError(`invalid --jq expression: ${first}`, rest.length ? rest.join('\n') : undefined, 'invalid_jq');
}

/**
 * `--jq` over a bulk load's NDJSON batches, a stream whose 'drain' comes once every piece has run and the sink took its results.
 * jq's first runtime error is kept in `failure`; a run that cannot finish stops the stream (`onStopped`).
 */
export class JqStream {
  failure?: CliError;
  /** Lines of the pieces whose results were not printed because the stream stopped. */
  unprinted = 0;
  private sink?: Writable;
  private onStopped?: (error: unknown) => void;
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  private sinkBlocked = false;

  constructor(
    private readonly filter: JqFilter,
    private readonly out: OutputTarget,
    private readonly limits: JqLimits,
  ) {}

  /** Sends the results to `sink` (stdout); returns the stream. */
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

  /** Calls `listener` once every piece written so far has run and the sink took its results. */
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
