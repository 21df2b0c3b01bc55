/**
 * The streams of one invocation and everything written to them that is not
 * data: warnings, notices, debug lines and the status line (progress, spinner)
 * on stderr. With `--json` every stderr line is one JSON object, so that a
 * script can read stderr as NDJSON. The status line is cleared before anything
 * else reaches the same terminal and drawn again after it. Data of a command
 * that pages goes through the user's pager when stdout is a terminal; stderr
 * lines written meanwhile wait until the pager has exited.
 */
import { stringifyJson } from './json.js';
import { Pager, type PagerCount, pagerCommand, terminalCanPage } from './terminal/pager.js';
import { Spinner } from './terminal/spinner.js';
import { wrapMessage } from './terminal/wrap.js';
import { sanitizeText } from './text.js';

/** A stream petstore writes to; `once('drain')` where it can push back. */
export interface Writable {
  write(text: string): unknown;
  once?(event: 'drain', listener: () => void): unknown;
}

/** The raw streams of one invocation, as the process (or a test) provides them. */
export interface IO {
  stdout: Writable;
  stderr: Writable;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Width of the terminal stdout is, in columns (undefined when not a terminal or unknown). */
  columns?: number;
  /** Width of the terminal stderr is, in columns (undefined when not a terminal or unknown; stdout's when not given). */
  stderrColumns?: number;
  /** The stream a prompt writes to (stderr as a real stream, for a terminal prompt). */
  promptOutput?: NodeJS.WritableStream;
  /**
   * Hands stdout's write errors (EPIPE, ENOSPC) to `handler` instead of ending
   * the process; returns the function that hands them back.
   */
  onStdoutError?(handler: (error: NodeJS.ErrnoException) => void): () => void;
  /**
   * True when a child process (the pager) may write to this process's own
   * stdout and stderr: the real process. Tests that capture the streams leave it unset.
   */
  canPage?: boolean;
  /** Where the run's pagers are counted (see PagerCount), for the process's Ctrl-C handler; one of the run's own otherwise. */
  pagers?: PagerCount;
}

/** Where data output goes and how it may look. */
export interface OutputTarget {
  write(text: string): void;
  /** True when stdout is a terminal. */
  isTTY: boolean;
  /** chalk colour level: 0 for none. */
  colorLevel: 0 | 1 | 2 | 3;
  /** Terminal width in columns; undefined when output is not a terminal. */
  columns?: number;
  /** A warning on stderr about the output (see IOStreams.warn). */
  warn(message: string, code: string, fields?: Record<string, unknown>): void;
}

/** How stderr messages look: set once the global flags are parsed. */
export interface MessageStyle {
  json: boolean;
  color: boolean;
  verbose: boolean;
}

/**
 * IO of one invocation: data on stdout (`out`), messages on stderr. Created
 * by main before parsing; `configure` applies --json, --no-color and --verbose.
 */
export class IOStreams {
  private style: MessageStyle = { json: false, color: true, verbose: false };
  private statusText = '';
  private statusDrawn = false;
  /** A long task (a bulk load) draws the status line itself: no spinner. */
  private statusHeld = false;
  private spinner?: Spinner;
  private pageWanted = false;
  private pager?: Pager;
  /** Stderr text written while the pager runs, written once it has exited. */
  private held: string[] = [];

  constructor(
    readonly raw: IO,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Applies the global flags: the style of stderr messages. */
  configure(style: MessageStyle): void {
    this.style = style;
  }

  /** Width of the terminal stderr is, in columns; undefined when stderr is not a terminal. */
  get errColumns(): number | undefined {
    if (!this.raw.stderrIsTTY) return undefined;
    return this.raw.stderrColumns ?? this.raw.columns ?? (Number(this.env.COLUMNS) || 80);
  }

  /** True when stderr messages are JSON objects (`--json`). */
  get json(): boolean {
    return this.style.json;
  }

  /** Standard output as a render target: colour as {@link colorLevel} decides. */
  get out(): OutputTarget {
    const isTTY = this.raw.stdoutIsTTY;
    return {
      write: (text) => this.writeOut(text),
      isTTY,
      colorLevel: colorLevel(this.style.color, this.env, isTTY),
      columns: isTTY ? (this.raw.columns ?? (Number(this.env.COLUMNS) || 80)) : undefined,
      warn: (message, code) => this.warn(message, code),
    };
  }

  /**
   * Writes data to stdout (clearing the status line first when both are one
   * terminal). Returns false when stdout asks the writer to wait for 'drain'.
   */
  writeOut(text: string): boolean {
    if (this.pageWanted) this.startPager();
    if (this.pager?.active) return this.pager.write(text);
    const shared = this.statusDrawn && this.raw.stdoutIsTTY;
    if (shared) this.clearStatus();
    const accepted = this.raw.stdout.write(text);
    if (shared) this.drawStatus();
    return accepted !== false;
  }

  /** Writes raw text to stderr around the status line. */
  private writeErr(text: string): void {
    if (this.pager) {
      this.held.push(text);
      return;
    }
    const drawn = this.statusDrawn;
    if (drawn) this.clearStatus();
    this.raw.stderr.write(text);
    if (drawn) this.drawStatus();
  }

  /** A warning: `warning: <message>`, or `{"warning": message, "code": code}` with --json. */
  warn(message: string, code: string, fields: Record<string, unknown> = {}): void {
    if (this.style.json) this.writeErr(`${stringifyJson({ warning: message, code, ...fields })}\n`);
    else this.writeMessage(`warning: ${sanitizeText(message)}\n`);
  }

  /**
   * A notice for the user (what was done, a summary): a plain line, or with
   * --json `{"info": message, "code": code, ...fields}`.
   */
  info(message: string, code: string, fields: Record<string, unknown> = {}): void {
    if (this.style.json) this.writeErr(`${stringifyJson({ info: message, code, ...fields })}\n`);
    else this.writeMessage(`${sanitizeText(message)}\n`);
  }

  /** Writes message lines (not JSON) to stderr, wrapped at word boundaries at its width when it is a terminal. */
  writeMessage(text: string): void {
    const columns = this.errColumns;
    this.writeErr(columns === undefined ? text : wrapMessage(text, columns));
  }

  /** A `--verbose` line; nothing without --verbose. */
  debug(line: string): void {
    if (!this.style.verbose) return;
    this.writeErr(this.style.json ? `${stringifyJson({ debug: line })}\n` : `${sanitizeText(line)}\n`);
  }

  /** Writes lines already formatted for stderr (errors, help), around the status line. */
  writeError(text: string): void {
    this.writeErr(text);
  }

  /** Whether a status line (progress, spinner) can be shown: messages are not JSON, stderr is a terminal, no pager runs. */
  get canShowStatus(): boolean {
    return !this.style.json && !this.pager && this.raw.stderrIsTTY;
  }

  /** From now on a long task (a bulk load, with its own progress line) owns the status line: {@link waiting} shows no spinner. */
  holdStatus(): void {
    this.statusHeld = true;
  }

  /**
   * Marks the start of a wait for `label` (the host a request went to): if it
   * lasts half a second, a spinner shows on the status line (see
   * terminal/spinner.ts). Returns the function that ends the wait, or undefined
   * (and sets no timer) when no spinner can show (see {@link canShowStatus}, {@link holdStatus}).
   */
  waiting(label: string): (() => void) | undefined {
    if (this.statusHeld || !this.canShowStatus) return undefined;
    this.spinner ??= new Spinner({ set: (text) => this.setStatus(text), clear: () => this.clearStatusLine() });
    return this.spinner.start(label);
  }

  /**
   * The command's data goes through the pager (terminal/pager.ts) when stdin and
   * stdout are a terminal that can run one; the pager starts with the first
   * data written, so that a command that fails first prints its error as usual.
   */
  pageOutput(): void {
    this.pageWanted = this.raw.stdoutIsTTY && this.raw.canPage === true && this.raw.stdinIsTTY && terminalCanPage(this.env);
  }

  /** True once a pager failed after output may have reached the terminal: the command exits 1 (see terminal/pager.ts). */
  pagerFailed = false;

  private startPager(): void {
    this.pageWanted = false;
    const command = pagerCommand(this.env);
    if (!command) return;
    this.clearStatusLine();
    this.pager = new Pager(
      command,
      this.env,
      {
        write: (text) => this.raw.stdout.write(text),
        warn: (message, code) => this.warn(message, code),
      },
      this.raw.pagers ?? { running: 0 },
    );
  }

  /** Waits for the pager, if one runs, to exit (the user has quit it), then writes the stderr lines held meanwhile. */
  async stopPager(): Promise<void> {
    if (!this.pager) return;
    await this.pager.close();
    this.pagerFailed ||= this.pager.failedAfterOutput;
    this.pager = undefined;
    const held = this.held.join('');
    this.held = [];
    if (held) this.writeErr(held);
  }

  /** Shows `text` (one line, sanitised) as the status line, replacing the previous one. */
  setStatus(text: string): void {
    if (!this.canShowStatus) return;
    this.statusText = sanitizeText(text);
    this.drawStatus();
  }

  /** Removes the status line for good. */
  clearStatusLine(): void {
    this.clearStatus();
    this.statusText = '';
  }

  private drawStatus(): void {
    if (!this.statusText) return;
    const width = this.raw.columns ?? 80;
    this.raw.stderr.write(`\r\u001b[K${this.statusText.slice(0, Math.max(1, width - 1))}`);
    this.statusDrawn = true;
  }

  private clearStatus(): void {
    if (this.statusDrawn) this.raw.stderr.write('\r\u001b[K');
    this.statusDrawn = false;
  }
}

/**
 * chalk level of data written to a stream, from --no-color and the variables
 * gh reads (CLICOLOR, CLICOLOR_FORCE, NO_COLOR) and FORCE_COLOR, in this order:
 * --no-color and NO_COLOR (https://no-color.org; not empty) turn colour off
 * whatever else is set (gh lets CLICOLOR_FORCE win over NO_COLOR; here the
 * user's "no" wins, as it always did over FORCE_COLOR); FORCE_COLOR forces a
 * level (0 or false: none); CLICOLOR_FORCE (not empty, not 0) colours output
 * that is not a terminal, or one whose TERM is dumb; CLICOLOR=0 turns colour
 * off; otherwise a terminal whose TERM is not dumb has colour. See docs/terminal.md.
 */
export function colorLevel(colorFlag: boolean, env: NodeJS.ProcessEnv, isTTY: boolean): 0 | 1 | 2 | 3 {
  if (!colorFlag || env.NO_COLOR) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    if (force === '2' || force === '3') return Number(force) as 2 | 3;
    return 1;
  }
  const forced = Boolean(env.CLICOLOR_FORCE) && env.CLICOLOR_FORCE !== '0';
  if (!forced && (env.CLICOLOR === '0' || !isTTY || env.TERM === 'dumb')) return 0;
  return env.COLORTERM === 'truecolor' ? 3 : /256/.test(env.TERM ?? '') ? 2 : 1;
}
