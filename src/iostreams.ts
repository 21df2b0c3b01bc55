/** The streams of one invocation: data on stdout; warnings, notices, debug lines and the status line on stderr (JSON lines with --json). */
import { OutputClosedError } from './errors.js';
import { stringifyJson } from './json.js';
import { Pager, type PagerCount } from './terminal/pager.js';
import { type PagerCommand, pagerCommand, terminalCanPage } from './terminal/pager-command.js';
import { Spinner } from './terminal/spinner.js';
import { wrapMessage } from './terminal/wrap.js';
import { sanitizeLines, sanitizeText } from './text.js';

/** A stream petstore writes to; `once('drain')` where it can push back. */
export interface Writable {
  write(text: string): unknown;
  once?(event: 'drain', listener: () => void): unknown;
}

/** The standard streams of one invocation and what is known of them, as the process (or a test) provides them. */
export interface IO {
  stdout: Writable;
  stderr: Writable;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal widths in columns (undefined when not a terminal or unknown; stderr's defaults to stdout's). */
  columns?: number;
  stderrColumns?: number;
  /** Stderr as a real stream, for a terminal prompt. */
  promptOutput?: NodeJS.WritableStream;
  /** Hands stdout's write errors (EPIPE, ENOSPC) to `handler` instead of ending the process; returns the function that hands them back. */
  onStdoutError?(handler: (error: NodeJS.ErrnoException) => void): () => void;
  /** True in the real process: a child (the pager) may write to its stdout and stderr. Unset where tests capture the streams. */
  canPage?: boolean;
  /** Where the pagers are counted for the process's Ctrl-C handler (see PagerCount). */
  pagers?: PagerCount;
}

/** Where data output goes and how it may look. */
export interface OutputTarget {
  write(text: string): void;
  /** Resolves once stdout has taken what it was given (at once unless a write was pushed back): back-pressure for long listings. */
  drained(): Promise<void>;
  isTTY: boolean;
  /** chalk colour level: 0 for none. */
  colorLevel: 0 | 1 | 2 | 3;
  /** Terminal width in columns; undefined when output is not a terminal. */
  columns?: number;
  warn(message: string, code: string, fields?: Record<string, unknown>): void;
}

/** How stderr messages look: set once the global flags are parsed. */
export interface MessageStyle {
  json: boolean;
  color: boolean;
  verbose: boolean;
}

/** IO of one invocation: data on stdout (`out`), messages on stderr; `configure` applies --json, --no-color and --verbose. */
export class IOStreams {
  private style: MessageStyle = { json: false, color: true, verbose: false };
  private statusText = '';
  private statusDrawn = false;
  private statusHeld = false;
  private spinner?: Spinner;
  private pageWanted = false;
  private pager?: Pager;
  private held: string[] = [];
  /** Set while stdout pushes back: resolves at its next 'drain'. */
  private drain?: Promise<void>;

  constructor(
    /** The standard streams as given: what draws on them directly (a prompt, a bulk load's input) reads them here. */
    readonly std: IO,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  configure(style: MessageStyle): void {
    this.style = style;
  }

  /** Width of stderr's terminal, in columns; undefined when stderr is not a terminal. */
  get errColumns(): number | undefined {
    if (!this.std.stderrIsTTY) return undefined;
    return this.std.stderrColumns || this.termColumns;
  }

  /** stdout's terminal width in columns; a terminal reporting 0 (its size unknown, as under `script`) counts as unknown: COLUMNS, else 80. */
  get termColumns(): number {
    return this.std.columns || Number(this.env.COLUMNS) || 80;
  }

  get json(): boolean {
    return this.style.json;
  }

  get out(): OutputTarget {
    const isTTY = this.std.stdoutIsTTY;
    return {
      write: (text) => this.writeOut(text),
      drained: () => this.drained(),
      isTTY,
      colorLevel: colorLevel(this.style.color, this.env, isTTY),
      columns: isTTY ? this.termColumns : undefined,
      warn: (message, code) => this.warn(message, code),
    };
  }

  /** Writes data to stdout; false when the writer should wait for 'drain'. */
  writeOut(text: string): boolean {
    if (this.pageWanted) this.startPager();
    if (this.pager?.active) return this.pager.write(text);
    const shared = this.statusDrawn && this.std.stdoutIsTTY;
    if (shared) this.clearStatus();
    const accepted = this.std.stdout.write(text);
    if (shared) this.drawStatus();
    const stdout = this.std.stdout;
    if (accepted === false && !this.drain && stdout.once) {
      // A write error ends the process (entry.ts) or the command that took stdout's errors over, so no waiter is left behind.
      this.drain = new Promise<void>((resolve) => stdout.once!('drain', () => resolve())).then(() => {
        this.drain = undefined;
      });
    }
    return accepted !== false;
  }

  /** Resolves once stdout has taken what was written (at once unless it pushed back), so that a long listing waits for a slow reader. */
  drained(): Promise<void> {
    const pager = this.pager;
    if (pager?.active) {
      return pager.drained().then(() => {
        if (pager.quitEarly) throw new OutputClosedError();
      });
    }
    return this.drain ?? Promise.resolve();
  }

  /** Writes lines already formatted for stderr (errors, help); held while a pager runs. */
  writeError(text: string): void {
    if (this.pager) {
      this.held.push(text);
      return;
    }
    const drawn = this.statusDrawn;
    if (drawn) this.clearStatus();
    this.std.stderr.write(text);
    if (drawn) this.drawStatus();
  }

  /**
   * A warning: `warning: <message>`, or `{"warning": message, "code": code, ...fields}` with --json. A `hint` field (the command
   * that fixes it, on a line of its own) follows the plain message, as an error's hint does.
   */
  warn(message: string, code: string, fields: Record<string, unknown> = {}): void {
    if (this.style.json) this.writeError(`${stringifyJson({ warning: message, code, ...fields })}\n`);
    else {
      const hint = typeof fields.hint === 'string' ? `${sanitizeLines(fields.hint)}\n` : '';
      this.writeMessage(`warning: ${sanitizeText(message)}\n${hint}`);
    }
  }

  /** A notice (what was done, a summary): a plain line, or `{"info": message, "code": code, ...fields}` with --json. */
  info(message: string, code: string, fields: Record<string, unknown> = {}): void {
    if (this.style.json) this.writeError(`${stringifyJson({ info: message, code, ...fields })}\n`);
    else this.writeMessage(`${sanitizeText(message)}\n`);
  }

  /** Writes message lines (not JSON) to stderr, wrapped at a terminal's width, or at 80 columns where stderr is not a terminal. */
  writeMessage(text: string): void {
    this.writeError(wrapMessage(text, this.errColumns ?? 80));
  }

  /**
   * A `--verbose` line. At a terminal, prose (`* retry 1 of 2 ...`) is wrapped at its width as messages are; a request's or answer's
   * line (`> GET ...`) stays as sent, and piped every line is one, a log to grep.
   */
  debug(line: string): void {
    if (!this.style.verbose) return;
    const columns = this.errColumns;
    const text = `${sanitizeText(line)}\n`;
    if (this.style.json) this.writeError(`${stringifyJson({ debug: line })}\n`);
    else this.writeError(columns !== undefined && line.startsWith('* ') ? wrapMessage(text, columns) : text);
  }

  /** A status line shows only on a terminal stderr, without --json, while no pager runs. */
  get canShowStatus(): boolean {
    return !this.style.json && !this.pager && this.std.stderrIsTTY;
  }

  /** A long task (a bulk load, with its progress line) owns the status line from now: no spinner. */
  holdStatus(): void {
    this.statusHeld = true;
  }

  /** Starts a wait for `label` (a request's host), shown by a spinner if it lasts; returns its end, or undefined if none can show. */
  waiting(label: string): (() => void) | undefined {
    if (this.statusHeld || !this.canShowStatus) return undefined;
    this.spinner ??= new Spinner({ set: (text) => this.setStatus(text), clear: () => this.clearStatusLine() });
    return this.spinner.start(`waiting for ${label}`);
  }

  /**
   * A whole listing is read before anything of it prints (a table must know every row): once it has taken a second, a spinner
   * says so with `progress()` (the count read so far), in place of each request's. Returns its end (idempotent), or undefined
   * where no status line can show.
   */
  waitingForListing(progress: () => string): (() => void) | undefined {
    if (this.statusHeld || !this.canShowStatus) return undefined;
    this.statusHeld = true;
    const end = new Spinner({ set: (text) => this.setStatus(text), clear: () => this.clearStatusLine() }, LISTING_SPINNER_DELAY_MS).start(
      progress,
    );
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      end();
      this.statusHeld = false;
    };
  }

  /**
   * Pages the command's data on a terminal that can; the pager starts with the first data, so an earlier error prints as usual.
   * `through` is a program of the command's own in place of the user's pager (`help man`: man, which renders troff); returns whether
   * the data will be paged.
   */
  pageOutput(through?: PagerCommand): boolean {
    this.pageWanted = this.std.stdoutIsTTY && this.std.canPage === true && this.std.stdinIsTTY && terminalCanPage(this.env);
    this.pagerChoice = through;
    return this.pageWanted;
  }

  private pagerChoice?: PagerCommand;

  /** A pager failed after output may have reached the terminal: the command exits 1. */
  pagerFailed = false;

  private startPager(): void {
    this.pageWanted = false;
    const command = this.pagerChoice ?? pagerCommand(this.env);
    if (!command) return;
    this.clearStatusLine();
    this.pager = new Pager(
      command,
      this.env,
      {
        write: (text) => this.std.stdout.write(text),
        warn: (message, code) => this.warn(message, code),
      },
      this.std.pagers ?? { running: 0 },
    );
  }

  /** Waits for the pager, if one runs, to exit, then writes the stderr lines held meanwhile. */
  async stopPager(): Promise<void> {
    if (!this.pager) return;
    await this.pager.close();
    this.pagerFailed ||= this.pager.failedAfterOutput;
    this.pager = undefined;
    const held = this.held.join('');
    this.held = [];
    if (held) this.writeError(held);
  }

  /** Shows `text` (one line, sanitised) as the status line. */
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
    const width = this.std.columns || 80;
    this.std.stderr.write(`\r\u001b[K${this.statusText.slice(0, Math.max(1, width - 1))}`);
    this.statusDrawn = true;
  }

  private clearStatus(): void {
    if (this.statusDrawn) this.std.stderr.write('\r\u001b[K');
    this.statusDrawn = false;
  }
}

/** How long a listing read whole before it prints may take before its spinner shows, in milliseconds. */
const LISTING_SPINNER_DELAY_MS = 1000;

/** chalk level of data on a stream, from --no-color, NO_COLOR, FORCE_COLOR, CLICOLOR(_FORCE) and the terminal (docs/terminal.md). */
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
