/**
 * What a bulk load is handed by its command (commands/add/add-file.ts makes it from the Factory). bulk/ imports no Factory, IO streams
 * or output (test/layers.test.ts): it declares here what it needs of them, and the command hands it that.
 */
import type { Pet } from '../api/schemas.js';
import type { CliError } from '../errors.js';

/** The load's lines on stderr (the IO streams' own: with --json, one JSON object each, `fields` in it). */
export interface LoadMessages {
  info(line: string, code: string, fields?: Record<string, unknown>): void;
  warn(line: string, code: string, fields?: Record<string, unknown>): void;
  /** A `--verbose` line; nothing without --verbose. */
  debug(line: string): void;
}

/** The status line of a terminal's stderr, where progress.ts draws (the IO streams clear it around rows and messages). */
export interface StatusLine {
  /** Whether a status line shows here (a terminal stderr, no --json, no pager). */
  readonly canShowStatus: boolean;
  /** From now the load owns the status line: no spinner. */
  holdStatus(): void;
  setStatus(text: string): void;
  clearStatusLine(): void;
}

/** Where the created pets' text goes: `write` returns false when it pushed back, then 'drain' comes. */
export interface PetSink {
  write(text: string): unknown;
  once?(event: 'drain', listener: () => void): unknown;
}

/** Standard output: a sink whose write errors (EPIPE, ENOSPC) `onError` hands to the load; it returns the function that hands them back. */
export interface LoadStdout extends PetSink {
  onError?(listener: (error: NodeJS.ErrnoException) => void): () => void;
}

/** `--jq` over the created pets' NDJSON lines (output/jq.ts's JqStream): its results go to a sink; `onStopped` when a run cannot finish. */
export interface PetFilter {
  into(sink: PetSink, onStopped: (error: unknown) => void): PetSink;
  /** Resolves once every line written so far has run and its results are written. */
  idle(): Promise<void>;
  /** Lines whose results were not printed because the filter stopped. */
  readonly unprinted: number;
  /** jq's first runtime error, the load's exit error when nothing else stopped it. */
  readonly failure?: CliError;
}

/** What tests set that a user cannot (main's seams). */
export interface LoadTestHooks {
  /** How long every connection may fail before the load stops, in milliseconds (post-policy.ts's UNREACHABLE_MS otherwise). */
  unreachableMs?: number;
  /** Random numbers in [0, 1) for the resend backoff's jitter (Math.random otherwise). */
  random?: () => number;
}

/** What one load works with besides its files: messages, the status line, stdout and how a pet prints there, the flags, the signals. */
export interface LoadContext {
  messages: LoadMessages;
  status: StatusLine;
  stdout: LoadStdout;
  /** A created pet as the run prints it: its line in the format settled (the exporter's stream text of the pet view). */
  printPet(pet: Pet): string;
  /** `--timeout`: each POST's own deadline, in milliseconds. */
  timeoutMs: number;
  /** `--retries`: how often a POST whose connection never opened, or one answered with Retry-After, is sent again. */
  retries: number;
  /** Aborted on the first Ctrl-C or SIGTERM (an InterruptedError its reason): nothing more is sent. */
  stop: AbortSignal;
  /** Aborted on the second: the requests in flight end, and the reading. */
  halt: AbortSignal;
  hooks: LoadTestHooks;
}
