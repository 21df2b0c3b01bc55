/**
 * Error types thrown by commands and the API layer. Each carries its exit
 * code; `main` reports them and returns that code, and commands never exit
 * the process themselves.
 */

/** Exit codes, documented in the README and in `petstore --help`. */
export const ExitCode = {
  ok: 0,
  /** Network failure, timeout, 5xx, unexpected response. */
  failure: 1,
  /** Invalid usage or input: bad flags, client-side validation, a 400 from the service. */
  usage: 2,
  /** The service answered 404. */
  notFound: 3,
  /** No API key, or the service answered 401. */
  auth: 4,
  /** Hung up: SIGHUP (the terminal closed, the ssh connection was lost). */
  hangup: 129,
  /** Interrupted by SIGINT (Ctrl-C). */
  interrupted: 130,
  /** Terminated by SIGTERM. */
  terminated: 143,
} as const;

/** The machine-readable shape of every error written with `--json`, like the interface's Error object. */
export interface ErrorReport {
  code: string;
  message: string;
  /** The HTTP status code, or null when no HTTP response was involved. */
  status: number | null;
  /** What the plain message prints after the error line, such as the command that fixes it (lines joined by "\n"); absent when there is none. */
  hint?: string;
  /** The body of the answer, when the command reports it (`petstore api`): its JSON, or its text as a string. */
  body?: unknown;
}

/** Base class: a failure the user is expected to see, printed without a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    /** Machine-readable code for `--json` error output. */
    readonly code: string,
    /** Extra lines printed after the message, such as the command that fixes the problem. */
    readonly hint?: string,
  ) {
    super(message);
  }

  // Written out: the bundle's class names are minified, and stack traces (PETSTORE_DEBUG=1) show this.
  override name = 'CliError';

  /** The answer's body, reported with the error (`petstore api`); see ErrorReport. */
  body?: unknown;

  /** The error as `--json` writes it. */
  report(): ErrorReport {
    return this.withDetails({ code: this.code, message: this.message, status: null });
  }

  /** `report` with the hint and the body, when the error has them: `--json` says all that the plain message says. */
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

  /** True when the failure proves the request never reached the service (no connection, a failed TLS handshake). */
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

/**
 * The service answered with an HTTP error status. Carries the interface's
 * Error object (`code`, `message`, `status`; Errors section) when the body held one.
 * Exit code follows the status: 400 → 2, 401 → 4, 404 → 3, anything else → 1.
 */
export class ServiceError extends CliError {
  override name = 'ServiceError';
  /** A 429 or 503 with Retry-After: the wait it asks for, in milliseconds (RFC 9110, section 10.2.3). */
  retryAfterMs?: number;

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

/**
 * Longest message of the service printed whole, in characters: more would
 * fill much of a terminal screen (80 x 24) with one error and push what came
 * before it out of sight.
 */
export const MESSAGE_LIMIT = 1000;
/** How much of a longer message is printed, in characters (about four lines of 80 columns). */
const EXCERPT_LENGTH = 300;

/**
 * `text` when it has at most MESSAGE_LIMIT characters (code points); else its
 * first EXCERPT_LENGTH, cut at a space when one is near the end, then "…" and
 * how many characters more `--json` shows (its report keeps the whole text).
 */
export function excerptOf(text: string): string {
  const chars = Array.from(text);
  if (chars.length <= MESSAGE_LIMIT) return text;
  let head = chars.slice(0, EXCERPT_LENGTH).join('');
  const space = head.lastIndexOf(' ');
  if (space >= head.length * 0.8) head = head.slice(0, space);
  head = head.trimEnd();
  return `${head}… (${chars.length - Array.from(head).length} more characters; --json shows all)`;
}

/** The signals that stop a command. */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** The command was interrupted by a signal; `exitCode` is 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP), 128 + its number. */
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

/** Maps an HTTP error status of the service to an exit code (Errors section of the interface). */
export function exitCodeForStatus(status: number): number {
  if (status === 400) return ExitCode.usage;
  if (status === 401) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  return ExitCode.failure;
}
