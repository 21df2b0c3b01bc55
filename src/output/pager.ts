/**
 * The pager that data printed to a terminal goes through, as with gh and git:
 * PETSTORE_PAGER, else PAGER, else `less -FRX` (-F quits at once when the
 * output fits on one screen, -R passes colours, -X leaves the output on the
 * screen). Set to nothing or to `cat`, it turns paging off. The command is
 * split into words as a shell would (quotes, backslashes) and run without a
 * shell, so that a pager that cannot be started is known and the output is
 * printed directly instead. node:child_process is loaded only when a pager starts.
 */
import type { ChildProcess } from 'node:child_process';

/** A pager command: its words, and whether the user chose it (PETSTORE_PAGER or PAGER) rather than the default. */
export interface PagerCommand {
  words: string[];
  chosen: boolean;
}

let running = 0;

/**
 * True while a pager runs. Ctrl-C then belongs to the pager (less uses it to
 * stop a search), as with git: petstore waits for the pager to exit instead
 * of stopping, which would take the terminal from under it.
 */
export function pagerRunning(): boolean {
  return running > 0;
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

/** Where a pager's output goes when it cannot be started, and how that is reported. */
export interface PagerFallback {
  /** Writes data to standard output directly. */
  write(text: string): void;
  /** Reports a chosen pager that could not be started. */
  warn(message: string, code: string): void;
}

/**
 * One running pager: data written goes to its standard input; its own
 * standard output and error are the process's (the terminal). Data is also
 * kept until the pager has started, so that a pager that cannot be started
 * (ENOENT, EACCES) loses nothing: it is printed directly. When the pager ends
 * early (the user pressed q), the rest is dropped without an error.
 */
export class Pager {
  private readonly child: ChildProcess;
  /** Data written before the pager started; undefined once it runs. */
  private kept: string[] | undefined = [];
  /** Writes go straight to standard output (the pager could not be started). */
  private direct = false;
  /** The pager has ended or its input broke: writes are dropped. */
  private ended = false;
  private readonly finished: Promise<void>;

  constructor(
    command: PagerCommand,
    env: NodeJS.ProcessEnv,
    private readonly fallback: PagerFallback,
  ) {
    const { spawn } = process.getBuiltinModule('node:child_process');
    const [file, ...args] = command.words as [string, ...string[]];
    this.child = spawn(file, args, { stdio: ['pipe', 'inherit', 'inherit'], env: { ...PAGER_ENV, ...env } });
    running += 1;
    this.child.once('spawn', () => (this.kept = undefined));
    // EPIPE once the pager has quit: a quiet end of the output, not an error.
    this.child.stdin!.on('error', () => (this.ended = true));
    this.finished = new Promise<void>((resolve) => {
      this.child.once('error', (error: NodeJS.ErrnoException) => {
        const kept = this.kept;
        this.ended = true;
        if (kept === undefined) return resolve();
        this.direct = true;
        this.kept = undefined;
        if (command.chosen)
          fallback.warn(`cannot start the pager "${file}": ${error.code ?? error.message}; printing directly`, 'pager_failed');
        if (kept.length) fallback.write(kept.join(''));
        resolve();
      });
      this.child.once('close', () => {
        this.ended = true;
        resolve();
      });
    }).finally(() => (running -= 1));
  }

  /** True while output goes to the pager (false once it could not be started). */
  get active(): boolean {
    return !this.direct;
  }

  /** Writes data to the pager; false when it asks the writer to wait for 'drain' (as a stream's write). */
  write(text: string): boolean {
    if (this.direct) {
      this.fallback.write(text);
      return true;
    }
    if (this.ended) return true;
    this.kept?.push(text);
    return this.child.stdin!.write(text);
  }

  /** Ends the pager's input and resolves once it has exited (the user has read the output and quit). */
  async close(): Promise<void> {
    if (!this.ended) this.child.stdin!.end();
    await this.finished;
  }
}
