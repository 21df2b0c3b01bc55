/**
 * The pager that data printed to a terminal goes through, as with gh and git:
 * PETSTORE_PAGER, else PAGER, else `less -FRX` (-F quits at once when the
 * output fits on one screen, -R passes colours, -X leaves the output on the
 * screen). Set to nothing or to `cat`, it turns paging off; so does a terminal
 * that cannot run one (TERM dumb, unset, or without a terminfo entry). The
 * command is split into words as a shell would (quotes, backslashes) and run
 * without a shell, so that a pager that cannot be started is known and the
 * output is printed directly instead. node:child_process is loaded only when a pager starts.
 */
import type { ChildProcess } from 'node:child_process';

/** A pager command: its words, and whether the user chose it (PETSTORE_PAGER or PAGER) rather than the default. */
export interface PagerCommand {
  words: string[];
  chosen: boolean;
}

/**
 * The pagers of one run that are running, counted by {@link Pager}. While one
 * runs, Ctrl-C belongs to it (less uses it to stop a search), as with git:
 * the process waits for the pager to exit instead of stopping, which would
 * take the terminal from under it.
 */
export interface PagerCount {
  running: number;
}

/** Folders where curses looks up a terminal's description (terminfo(5)), besides $TERMINFO, ~/.terminfo and $TERMINFO_DIRS. */
const TERMINFO_DIRS = ['/etc/terminfo', '/lib/terminfo', '/usr/share/terminfo', '/usr/lib/terminfo', '/usr/local/share/terminfo'];

/**
 * True when the terminal named by TERM can run a pager: TERM is set, is not
 * `dumb`, and has a terminfo entry (`<dir>/<first letter>/<name>`, or the
 * letter in hex as on macOS), without which less stops at "terminal is not
 * fully functional".
 */
export function terminalCanPage(env: NodeJS.ProcessEnv): boolean {
  const term = env.TERM;
  if (!term || term === 'dumb' || term.includes('/')) return false;
  const dirs = [env.TERMINFO, env.HOME && `${env.HOME}/.terminfo`];
  for (const dir of (env.TERMINFO_DIRS ?? '').split(':')) dirs.push(dir || undefined);
  dirs.push(...TERMINFO_DIRS);
  const fs = process.getBuiltinModule('node:fs');
  const letters = [term[0]!, term.charCodeAt(0).toString(16)];
  return dirs.some((dir) => dir && letters.some((letter) => fs.existsSync(`${dir}/${letter}/${term}`)));
}

/** What `less -FRX` is when PAGER is less without options: the LESS variable gh and git set. */
const PAGER_ENV = { LESS: 'FRX', LV: '-c' };

/**
 * The pager to run for `env`, or undefined when paging is off: PETSTORE_PAGER
 * or PAGER set to nothing (or blanks) or to `cat`. A variable that is set wins
 * even when empty, so that `PETSTORE_PAGER=` turns off a PAGER of the user's.
 */
export function pagerCommand(env: NodeJS.ProcessEnv): PagerCommand | undefined {
  const chosen = env.PETSTORE_PAGER ?? env.PAGER;
  const words = splitWords(chosen ?? 'less -FRX');
  if (words.length === 0 || (words.length === 1 && words[0] === 'cat')) return undefined;
  return { words, chosen: chosen !== undefined };
}

/**
 * `text` split into words as sh splits a simple command: blanks separate
 * words, '…' is literal, "…" keeps blanks and honours \" \\ \$ \`, and a
 * backslash outside quotes escapes the next character.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      word = (word ?? '') + text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    } else if (c === '"') {
      word ??= '';
      for (i += 1; i < text.length && text[i] !== '"'; i += 1) {
        if (text[i] === '\\' && '"\\$`'.includes(text[i + 1] ?? '')) i += 1;
        word += text[i];
      }
    } else {
      if (c === '\\' && i + 1 < text.length) i += 1;
      word = (word ?? '') + text[i];
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Where a pager's output goes when it cannot be started or fails early, and how that is reported. */
export interface PagerFallback {
  /** Writes data to standard output directly. */
  write(text: string): void;
  /** Reports a pager that could not be started or failed (a warning on stderr). */
  warn(message: string, code: string): void;
}

/**
 * More than a pipe to a child process can hold (Linux: a socket's default
 * send buffer, 208 KiB; macOS: 64 KiB): once this much has gone into it, the
 * pager has read some of the output (in bytes).
 */
const PIPE_HOLDS_AT_MOST = 512 * 1024;

/** The most written to the pager at once (bytes), so that what it has read is known to this precision. */
const WRITE_SLICE = 64 * 1024;

/** How much of the output is kept to print directly should the pager fail before showing any (in UTF-16 code units). */
const KEEP_LIMIT = 16 * 1024 * 1024;

/**
 * One running pager: data written goes to its standard input; its own
 * standard output and error are the process's (the terminal). When the user
 * quits it (q) before the end, the rest is dropped quietly. A copy of the
 * output is kept, so that a pager that fails loses nothing: one that cannot
 * be started (ENOENT, EACCES), or that exits with a non-zero status before it
 * has been seen to read any output, gets a warning naming it and the output
 * is printed directly. One that exits non-zero after it has read output
 * (its input was seen full, then taking more; or more went into it than a
 * pipe holds), which may have reached the terminal, gets a warning and makes
 * the command fail ({@link failedAfterOutput}). petstore cannot see what the
 * pager showed: an output small enough to fit in the pipe counts as not shown.
 */
export class Pager {
  private readonly child: ChildProcess;
  private readonly file: string;
  /** The output so far, until it passes KEEP_LIMIT; undefined once it no longer can be printed again. */
  private kept: string[] | undefined = [];
  private keptLength = 0;
  /** Writes go straight to standard output (the pager could not be started, or failed first). */
  private direct = false;
  /** The pager has ended or its input broke: writes are dropped. */
  private ended = false;
  /** The pager's input was seen full (it had not read everything written). */
  private blocked = false;
  /** The pager has read some output: see {@link write}. */
  private readSome = false;
  /** Bytes the pipe has taken. */
  private taken = 0;
  private failed = false;
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
    // EPIPE once the pager has quit: a quiet end of the output, not an error.
    this.child.stdin!.on('error', () => (this.ended = true));
    this.finished = new Promise<void>((resolve) => {
      this.child.once('error', (error: NodeJS.ErrnoException) => {
        this.ended = true;
        // Only the default pager (less) may be missing quietly: the user did not ask for it.
        this.printDirectly(
          command.chosen ? `cannot start the pager "${file}": ${error.code ?? error.message}; printing directly` : undefined,
        );
        resolve();
      });
      this.child.once('close', (code) => {
        this.ended = true;
        if (code !== null && code !== 0) this.onFailure(code);
        else this.kept = undefined;
        resolve();
      });
    }).finally(() => (count.running -= 1));
  }

  /** The pager exited with status `code`: print directly what it may not have shown, or record the failure. */
  private onFailure(code: number): void {
    if (this.direct) return;
    if (!this.readSome && this.kept) {
      this.printDirectly(`the pager "${this.file}" exited with status ${code} before showing the output; printing directly`);
      return;
    }
    this.failed = true;
    this.fallback.warn(
      `the pager "${this.file}" exited with status ${code} before the end of the output; what it showed may be incomplete`,
      'pager_failed',
    );
  }

  private printDirectly(warning: string | undefined): void {
    const kept = this.kept ?? [];
    this.direct = true;
    this.kept = undefined;
    if (kept.length) this.fallback.write(kept.join(''));
    if (warning) this.fallback.warn(warning, 'pager_failed');
  }

  /** True while output goes to the pager (false once it could not be started or failed first). */
  get active(): boolean {
    return !this.direct;
  }

  /** True when the pager failed after reading output that may have reached the terminal: the command must fail (exit 1). */
  get failedAfterOutput(): boolean {
    return this.failed;
  }

  /** Writes data to the pager; false when it asks the writer to wait for 'drain' (as a stream's write). */
  write(text: string): boolean {
    if (this.direct) {
      this.fallback.write(text);
      return true;
    }
    // Kept even once the input broke: the pager may yet exit with a failure, and this would be printed too.
    if (this.kept) {
      this.kept.push(text);
      this.keptLength += text.length;
      if (this.keptLength > KEEP_LIMIT) this.kept = undefined;
    }
    if (this.ended) return true;
    const stdin = this.child.stdin!;
    // In slices, so that each one handed to the pipe counts: a whole table is one write, which a pager that
    // reads most of it and fails would never see completed.
    const bytes = Buffer.from(text);
    let accepted = true;
    for (let start = 0; start < bytes.length; start += WRITE_SLICE) {
      const slice = bytes.subarray(start, start + WRITE_SLICE);
      accepted = stdin.write(slice, (error) => {
        if (error) return;
        this.taken += slice.length;
        // This slice went into the pipe after it was full, or more went in than it holds: the pager read from it.
        if (this.blocked || this.taken > PIPE_HOLDS_AT_MOST) this.readSome = true;
      });
    }
    // Still waiting in petstore once the pipe has taken what it can: the pipe is full.
    if (!this.blocked) setImmediate(() => (this.blocked ||= stdin.writableLength > 0));
    return accepted;
  }

  /** Ends the pager's input and resolves once it has exited (the user has read the output and quit). */
  async close(): Promise<void> {
    if (!this.ended) this.child.stdin!.end();
    await this.finished;
  }
}
