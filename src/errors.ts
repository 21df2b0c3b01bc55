/** Errors thrown by commands and the API layer; each carries its exit code, which `main` returns. */

/**
 * Exit codes (README, `petstore --help`): failure = network, timeout, 5xx, unexpected answer, a question answered no; usage = bad flags
 * or input, a 400, a question that cannot be asked without --yes;
 * notFound = a 404; auth = no key, a 401; hangup/interrupted/terminated = SIGHUP/SIGINT/SIGTERM.
 */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  notFound: 3,
  auth: 4,
  hangup: 129,
  interrupted: 130,
  terminated: 143,
} as const;

/** What `--json` writes for every error, shaped like the interface's Error object; `status` is null without an HTTP response. */
export interface ErrorReport {
  code: string;
  message: string;
  status: number | null;
  /** The plain message's extra lines (joined by "\n"), if any. */
  hint?: string;
  /** The answer's body (`petstore api`): its JSON, or its text. */
  body?: unknown;
  /** A listing that failed after its first page, or a `get` of several ids: how many items it printed (and `read`: ids read). */
  printed?: number;
  read?: number;
  next?: string;
}

/** Base class: a failure the user is expected to see, printed without a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly code: string,
    /** Extra lines after the message, such as the command that fixes it. */
    readonly hint?: string,
  ) {
    super(message);
  }

  // Written out: the bundle's class names are minified, and PETSTORE_DEBUG=1 stack traces show this.
  override name = 'CliError';

  body?: unknown;

  /** The error as `--json` writes it. */
  report(): ErrorReport {
    return this.withDetails({ code: this.code, message: this.message, status: null });
  }

  protected withDetails(report: ErrorReport): ErrorReport {
    const hinted = this.hint === undefined ? report : { ...report, hint: this.hint };
    return this.body === undefined ? hinted : { ...hinted, body: this.body };
  }
}

/** Bad flags, arguments or input; nothing was sent. Exit 2. */
export class UsageError extends CliError {
  override name = 'UsageError';

  constructor(message: string, hint?: string, code = 'invalid_usage') {
    super(message, ExitCode.usage, code, hint);
  }
}

/** A question before a change (commands/confirm.ts) was answered no: nothing was done, which is not what the command line asked. Exit 1. */
export class DeclinedError extends CliError {
  override name = 'DeclinedError';

  constructor(message: string) {
    super(message, ExitCode.failure, 'declined');
  }
}

/**
 * The pager exited before the end of the output (the user quit it): the command stops, quietly, as when a pipe's reader is gone
 * (`list | head -1`). Exit 0, or 1 when the pager failed after reading (main).
 */
export class OutputClosedError extends CliError {
  override name = 'OutputClosedError';

  constructor() {
    super('the pager exited before the end of the output', ExitCode.ok, 'output_closed');
  }
}

/** No API key is available for the selected environment; nothing was sent. Exit 4. */
export class MissingKeyError extends CliError {
  override name = 'MissingKeyError';

  constructor(message: string, hint?: string) {
    super(message, ExitCode.auth, 'missing_api_key', hint);
  }
}

/** Network failure, timeout or an answer the interface does not allow. Exit 1. */
export class RequestError extends CliError {
  override name = 'RequestError';

  /** True when the request provably never reached the service (no connection, failed TLS handshake). */
  notSent = false;

  constructor(
    message: string,
    code = 'request_failed',
    readonly status: number | null = null,
    hint?: string,
  ) {
    super(message, ExitCode.failure, code, hint);
  }

  override report(): ErrorReport {
    return this.withDetails({ code: this.code, message: this.message, status: this.status });
  }
}

/** The service answered an HTTP error status, with its Error object when the body held one (Errors section). Exit 400 → 2, 401 → 4, 404 → 3, else 1. */
export class ServiceError extends CliError {
  override name = 'ServiceError';
  /** Retry-After of a 429 or 503, in milliseconds (RFC 9110, section 10.2.3). */
  retryAfterMs?: number;
  /** The answer's Location header, as sent, when it had one (RFC 9110, section 10.2.2): where a POST's resource may be. */
  location?: string;

  constructor(
    readonly status: number,
    readonly serviceCode: string,
    readonly serviceMessage: string,
    hint?: string,
    /** The printed message, when the body was not an Error object. */
    message = `${excerptOf(serviceMessage)} (HTTP ${status}, code ${serviceCode})`,
  ) {
    super(message, exitCodeForStatus(status), serviceCode, hint);
  }

  override report(): ErrorReport {
    return this.withDetails({ code: this.serviceCode, message: this.serviceMessage, status: this.status });
  }
}

/** Longest service message printed whole, in characters; longer ones would fill an 80 x 24 screen. */
export const MESSAGE_LIMIT = 1000;
const EXCERPT_LENGTH = 300;

/** `text` if at most MESSAGE_LIMIT code points; else its first EXCERPT_LENGTH, cut at a late space, then "…" and how many more `--json` shows. */
export function excerptOf(text: string): string {
  const chars = Array.from(text);
  if (chars.length <= MESSAGE_LIMIT) return text;
  let head = chars.slice(0, EXCERPT_LENGTH).join('');
  const space = head.lastIndexOf(' ');
  if (space >= head.length * 0.8) head = head.slice(0, space);
  head = head.trimEnd();
  return `${head}… (${chars.length - Array.from(head).length} more characters; --json shows all)`;
}

/** A page after the first could not be read (`cause`; `next`: its link; `printed`: items printed before); exits as `cause` does. */
export class ListingCutError extends CliError {
  override name = 'ListingCutError';
  /** Items printed before the failure; undefined until the command that printed them says ({@link setPrinted}). */
  printed?: number;

  constructor(
    override readonly cause: CliError,
    readonly page: number,
    readonly next: string,
  ) {
    const rest = `the rest of the listing starts at the page that failed: ${next}`;
    super(
      `the listing stopped at page ${page}: ${cause.message}`,
      cause.exitCode,
      cause.code,
      cause.hint ? `${cause.hint}\n${rest}` : rest,
    );
    this.body = cause.body;
  }

  /** Says how many items were printed before: `described` is that count in words ("2900 pets"). */
  setPrinted(count: number, described: string): void {
    this.printed = count;
    this.message = `the listing stopped at page ${this.page}, after ${described}: ${this.cause.message}`;
  }

  override report(): ErrorReport {
    const { code, message, status } = this.cause.report();
    const report = this.withDetails({ code, message, status, hint: this.hint });
    return this.printed === undefined ? { ...report, next: this.next } : { ...report, printed: this.printed, next: this.next };
  }
}

/**
 * A guard ended a listing once page `page` was read (src/api/pages.ts): a loop (a page repeated, empty pages linked on) or a link that
 * cannot be followed (another origin, an unreadable Link). Exit 1; `--json` carries `printed` and, where the walk knew where it would
 * have gone on, `next`, as {@link ListingCutError} does.
 */
export class ListingStopError extends RequestError {
  override name = 'ListingStopError';
  /** Items printed before the stop; undefined until the command that printed them says ({@link setPrinted}). */
  printed?: number;

  constructor(
    /** Why it stopped, a sentence without the page ("the next page link repeats a page already fetched (...)"). */
    readonly reason: string,
    code: string,
    readonly page: number,
    readonly next?: string,
  ) {
    super(`stopped at page ${page}: ${reason}`, code);
  }

  /** Says how many items were printed before: `described` is that count in words ("2900 pets"). */
  setPrinted(count: number, described: string): void {
    this.printed = count;
    this.message = `stopped at page ${this.page}, after ${described}: ${this.reason}`;
  }

  override report(): ErrorReport {
    const report = super.report();
    const printed = this.printed === undefined ? report : { ...report, printed: this.printed };
    return this.next === undefined ? printed : { ...printed, next: this.next };
  }
}

/** A listing that ended early, and how many items it printed: a page that failed, or a guard's stop. */
export type CutListing = ListingCutError | ListingStopError;

/** Is `error` a {@link CutListing}, whose count of items printed the command sets? */
export function isCutListing(error: unknown): error is CutListing {
  return error instanceof ListingCutError || error instanceof ListingStopError;
}

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** Interrupted by a signal; exit 128 + its number (130, 143, 129). */
export class InterruptedError extends CliError {
  override name = 'InterruptedError';

  constructor(readonly signal: StopSignal) {
    super(
      { SIGINT: 'interrupted', SIGTERM: 'terminated', SIGHUP: 'hung up' }[signal],
      { SIGINT: ExitCode.interrupted, SIGTERM: ExitCode.terminated, SIGHUP: ExitCode.hangup }[signal],
      'interrupted',
    );
  }
}

/** HTTP error status → exit code (Errors section of the interface). */
export function exitCodeForStatus(status: number): number {
  if (status === 400) return ExitCode.usage;
  if (status === 401) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  return ExitCode.failure;
}
