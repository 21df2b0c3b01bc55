/**
 * `--jq <expression>`: jq itself (jq 1.8 compiled to WebAssembly, the jq-wasm
 * package) applied to the exact JSON text a command prints. Its results print
 * as gh's `--jq` prints them: a string raw, anything else as compact JSON, one
 * result a line. Numbers jq passes through unchanged keep their digits (ids
 * above 2^53 stay exact); arithmetic on them is jq's (doubles).
 *
 * The .wasm travels inside the bundle (scripts/build.mjs embeds it
 * brotli-compressed), so the bundle and a single executable built from it need
 * no file beside them. It is loaded only when `--jq` is given (about 20 ms to
 * decompress and compile).
 */
import type { Jq } from 'jq-wasm';
import { brotliDecompressSync } from 'node:zlib';
import { escapeRawControls } from '../api/json.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import type { OutputTarget } from '../iostreams.js';
import { sanitizeLines } from '../text.js';

// "--" ends jq's options, so that an expression such as "-1" is a program, not a flag.
const FLAGS = ['-c', '--'];

/** jq.wasm, brotli-compressed, in base64: set by the build; undefined where src/ runs unbundled (tests). */
declare const PETSTORE_JQ_WASM: string | undefined;

let instance: Promise<Jq> | undefined;

/** jq's instance, with the bytes of the bundle, or unbundled those jq-wasm reads from its own package. */
async function loadInstance(): Promise<Jq> {
  const { loadJq } = await import('jq-wasm');
  if (typeof PETSTORE_JQ_WASM !== 'string') return loadJq();
  return loadJq({ wasmBinary: brotliDecompressSync(Buffer.from(PETSTORE_JQ_WASM, 'base64')) });
}
const compiled = new Map<string, Promise<JqFilter>>();

/** What one run printed, and the error jq stopped on (the results before it are in `text`). */
export interface JqRun {
  text: string;
  error?: CliError;
}

/** A jq expression that compiled. */
export class JqFilter {
  constructor(
    private readonly jq: Jq,
    readonly expression: string,
  ) {}

  /**
   * Runs the expression on `json`: one JSON text, or several one a line (each
   * is an input, as for jq on NDJSON). Returns the printed results, one a line,
   * strings raw (without terminal escapes when `out` is a terminal). Never
   * throws: a runtime error comes back in `error` (exit 1, code jq_error).
   * What jq's `debug` and `stderr` write becomes a warning on `out`.
   */
  run(json: string, out: OutputTarget): JqRun {
    const result = this.jq.raw(json, this.expression, FLAGS);
    const lines = result.stderr.split('\n').filter((line) => line !== '');
    let errors = lines.filter((line) => line.startsWith('jq: error')).map((line) => line.replace(/^jq: error(?: \(at [^)]*\))?: /, ''));
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
 * Compiles `expression` (once per process: later calls share the result).
 * Nothing runs: jq compiles the program, then reads no input. Rejects with a
 * UsageError (exit 2) carrying jq's message when it does not compile.
 */
export function compileJq(expression: string): Promise<JqFilter> {
  let filter = compiled.get(expression);
  if (!filter) {
    filter = compile(expression);
    compiled.set(expression, filter);
  }
  return filter;
}

async function compile(expression: string): Promise<JqFilter> {
  instance ??= loadInstance();
  const jq = await instance;
  const { stderr, exitCode } = jq.raw('', expression, FLAGS);
  if (exitCode !== 0) throw compileError(stderr);
  return new JqFilter(jq, expression);
}

/** `jq: error: syntax error, ... column 2:` / `    .[` / `     ^` / `jq: 1 compile error` → message and hint lines. */
function compileError(stderr: string): UsageError {
  const lines = stderr.split('\n').filter((line) => line !== '' && !/^jq: \d+ compile errors?$/.test(line));
  const [first = 'not a jq expression', ...rest] = lines.map((line) => line.replace(/^jq: error: /, ''));
  return new UsageError(`invalid --jq expression: ${first}`, rest.length ? rest.join('\n') : undefined, 'invalid_jq');
}

/**
 * Applies `expression` to the JSON text `json` and writes the results to
 * `out`. Throws the UsageError of {@link compileJq}, and after writing the
 * results before it, the CliError of a runtime error (exit 1).
 */
export async function printJq(out: OutputTarget, expression: string, json: string): Promise<void> {
  const { text, error } = (await compileJq(expression)).run(json, out);
  if (text) out.write(text);
  if (error) throw error;
}

/**
 * `--jq` over output that is written in pieces (a bulk load's batches of
 * NDJSON lines): `apply` turns each piece into the results to write and never
 * throws; the first runtime error is kept in `failure`, for the exit code.
 */
export class JqStream {
  failure?: CliError;

  private constructor(
    private readonly filter: JqFilter,
    private readonly out: OutputTarget,
  ) {}

  /** The stream of `expression`; rejects as {@link compileJq} does. */
  static async open(out: OutputTarget, expression: string): Promise<JqStream> {
    return new JqStream(await compileJq(expression), out);
  }

  /** The results of one piece of NDJSON text (see JqFilter.run); a runtime error is kept in `failure`. */
  apply(json: string): string {
    const { text, error } = this.filter.run(json, this.out);
    this.failure ??= error;
    return text;
  }
}
