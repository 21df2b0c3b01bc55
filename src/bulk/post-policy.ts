/**
 * A bulk load's POST: when it is sent again, for how long, and what each failure means for its item (created, failed, not_sent,
 * unknown). This module is that policy's one owner; which network error proves what is api/network-errors.ts's table, which the GETs'
 * retry (api/retry.ts) reads too. docs/bulk-loads.md says it for users.
 *
 * - A POST goes without undici's retry interceptor (`retry: false`), each try with the whole `--timeout`: once it may have left, it is
 *   never sent again, for the service may have stored it.
 * - Sent again: after a connection that never opened (the table's `retried: 'any'`: ECONNREFUSED, UND_ERR_CONNECT_TIMEOUT), with the
 *   GETs' backoff, at most `--retries` times, and past that for as long as no connection opens at all (250 ms doubling to 1 s); after a
 *   429 or 503 with Retry-After (waited, at most 60 s), at most `--retries` times.
 * - For how long: once every connection has failed for {@link UNREACHABLE_MS}, the load stops (`unreachable`); the rest is not_sent.
 * - What a failure means: {@link classifySendError}.
 */
import { BodyReadError } from '../api/exchange.js';
import { anyMethodRetryCode } from '../api/network-errors.js';
import { backoffMs, MAX_RETRY_AFTER_MS } from '../api/retry.js';
import { CliError, type ErrorReport, ExitCode, InterruptedError, RequestError, ServiceError } from '../errors.js';
import type { Outcome } from './failed-file.js';
import { notSentReport, type Stop } from './load-summary.js';

/** How long every connection may fail before the load stops, in milliseconds. */
export const UNREACHABLE_MS = 5_000;

/** The longest wait between two connection attempts of one item while no connection succeeds, in milliseconds. */
const MAX_WAIT_MS = 1_000;

/** What one failed POST means for its item: created (its answer unreadable), or an outcome; `stop`: the load stops too. */
export type SendResult =
  | { outcome: 'created_unreadable'; status: number; why: string }
  | {
      outcome: Outcome;
      report: ErrorReport;
      stop?: { reason: 'auth' | 'no_such_path' | 'proxy'; error: CliError };
      /** Retry-After of a 429 or 503, in milliseconds: not taken, may be sent again. */
      retryAfterMs?: number;
    };

/** What an answer's status proves of a POST (RFC 9110 §15): a 4xx its refusal (`failed`), but 408, 425, 429, a 3xx or a 5xx nothing. */
export function statusOutcome(status: number): 'failed' | 'unknown' {
  return status >= 400 && status < 500 && status !== 408 && status !== 425 && status !== 429 ? 'failed' : 'unknown';
}

/**
 * Classifies the error of one createPet: a 2xx with an unreadable body is created; a status as {@link statusOutcome} says (a 401 or a
 * missing path also stops the load; Retry-After: its wait); a provably unsent request `not_sent`; anything else `unknown`.
 */
export function classifySendError(error: unknown): SendResult {
  const status = error instanceof RequestError || error instanceof ServiceError ? error.status : null;
  const success = status !== null && status >= 200 && status < 300;
  if (error instanceof BodyReadError) {
    if (success && error.code === 'body_too_large') return { outcome: 'created_unreadable', status, why: describeCause(error.cause) };
    const report = {
      code: error.code,
      message: `the service answered HTTP ${error.answeredStatus}, but its body did not arrive whole: ${describeCause(error.cause)}`,
      status: error.answeredStatus,
    };
    return success ? { outcome: 'unknown', report } : { outcome: statusOutcome(error.answeredStatus), report };
  }
  if (success) return { outcome: 'created_unreadable', status, why: (error as Error).message };
  const report = reportOf(error);
  if (error instanceof ServiceError) {
    if (error.status === 401) return { outcome: 'failed', report, stop: { reason: 'auth', error } };
    if (error.retryAfterMs !== undefined) return { outcome: 'failed', report, retryAfterMs: error.retryAfterMs };
    return { outcome: statusOutcome(error.status), report };
  }
  // A missing path (a wrong base URL) or a refusing proxy fails every item alike: the load stops.
  if (error instanceof RequestError && error.code === 'no_such_path')
    return { outcome: 'failed', report, stop: { reason: 'no_such_path', error } };
  if (error instanceof RequestError && error.status !== null) return { outcome: statusOutcome(error.status), report };
  if (error instanceof RequestError && error.code === 'proxy_refused')
    return { outcome: 'not_sent', report, stop: { reason: 'proxy', error } };
  if (error instanceof RequestError && error.notSent) return { outcome: 'not_sent', report };
  if (error instanceof InterruptedError)
    return {
      outcome: 'unknown',
      report: { code: 'interrupted', message: 'sent, then the load was stopped before the service answered', status: null },
    };
  return { outcome: 'unknown', report };
}

function describeCause(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** The `--failed` line's error object, without a hint (an item's failure message prints none). */
export function reportOf(error: unknown): ErrorReport {
  if (!(error instanceof CliError)) return { code: 'request_failed', message: describeCause(error), status: null };
  const { hint: _hint, ...report } = error.report();
  return report;
}

/** Whether `error` (of a POST) says no connection to the service was made: nothing of it was sent, and the service was not reached. */
export function isUnreachable(error: unknown): error is RequestError {
  return error instanceof RequestError && error.notSent && (error.code === 'network_error' || error.code === 'timeout');
}

/**
 * The stop of a load that could not reach its service for `limitMs`: exit 1, the last failure named with its hint (the base URL and
 * where it came from: the client's, settings.ts's unreachableHint), and how to go on.
 */
export function unreachableStop(error: RequestError, limitMs: number): CliError {
  const took = limitMs % 1000 === 0 ? `${limitMs / 1000} s` : `${limitMs} ms`;
  return new CliError(
    `${error.message}; every connection failed for ${took}, so no more pets are sent`,
    ExitCode.failure,
    'unreachable',
    `${error.hint ?? 'Is the service running? Check the base URL.'}\n` +
      'Once it answers, the same command with --failed sends only the pets not created.',
  );
}

/** How often one item was sent again, and since when (performance.now()) its connections fail while none has opened. */
export interface Tries {
  resent: number;
  reconnects: number;
  failingSince?: number;
}

export const NO_TRIES: Tries = { resent: 0, reconnects: 0 };

/**
 * What follows a failed POST: sent again after `waitMs` (unless the load stops meanwhile: then not_sent, as `outcome` if it does not);
 * created, its answer unreadable; or ended with `outcome`. `stop`: the load stops too (a 401, a missing path, a refusing proxy, or the
 * service not reached: the first stop stands).
 */
export type AfterFailure = { stop?: Stop } & (
  | { next: 'resend'; waitMs: number; tries: Tries; outcome: Outcome; report: ErrorReport }
  | { next: 'created'; status: number; why: string }
  | { next: 'end'; outcome: Outcome; report: ErrorReport }
);

/** What the policy is told: `--retries`, how long every connection may fail, the backoff's jitter, and where `--verbose` lines go. */
export interface PostPolicyOptions {
  retries: number;
  unreachableMs: number;
  /** Random numbers in [0, 1) for the backoff's jitter. */
  random: () => number;
  debug: (line: string) => void;
}

/** The policy of one load's POSTs, with its view of the service: when it last answered, and since when every connection fails. */
export class PostPolicy {
  private lastContact = Number.NEGATIVE_INFINITY;
  private failingSince?: number;

  constructor(private readonly options: PostPolicyOptions) {}

  /** A POST was answered: the service is reached. */
  answered(): void {
    this.lastContact = performance.now();
    this.failingSince = undefined;
  }

  /** What follows the POST that failed with `error` after `tries`; `current`: the load's stop so far. */
  afterFailure(error: unknown, tries: Tries, current: Stop | undefined): AfterFailure {
    const result = classifySendError(error);
    const reach = this.observe(error);
    const stop = current ?? reach.stop;
    // Every connection failed for a while: the load stops (said once, at its end), rather than trying each pet in turn.
    if (stop?.reason === 'unreachable' && result.outcome === 'not_sent')
      return { stop: reach.stop, next: 'end', outcome: 'not_sent', report: notSentReport(stop) };
    const next = this.nextTry(error, result, tries, reach.unreachable);
    if (result.outcome === 'created_unreadable') return { stop: reach.stop, next: 'created', status: result.status, why: result.why };
    const { outcome, report } = result;
    if (next) return { stop: reach.stop, next: 'resend', waitMs: next.waitMs, tries: next.tries, outcome, report };
    return { stop: reach.stop ?? result.stop, next: 'end', outcome, report };
  }

  /** Notes a failure: a connection made (the service answered or read the request), or none; the load's stop once none for too long. */
  private observe(error: unknown): { unreachable: boolean; stop?: Extract<Stop, { reason: 'unreachable' }> } {
    if (!isUnreachable(error)) {
      this.answered();
      return { unreachable: false };
    }
    const now = performance.now();
    this.failingSince ??= now;
    const limitMs = this.options.unreachableMs;
    if (now - this.failingSince < limitMs) return { unreachable: true };
    return { unreachable: true, stop: { reason: 'unreachable', error: unreachableStop(error, limitMs), cause: error.message } };
  }

  /** The wait (milliseconds) before the item is sent again, and its tries then; undefined when it is not sent again. */
  private nextTry(error: unknown, result: SendResult, tries: Tries, unreachable: boolean): { waitMs: number; tries: Tries } | undefined {
    const { retries, random, debug } = this.options;
    const failingSince = unreachable ? (tries.failingSince ?? performance.now()) : undefined;
    const attempt = tries.reconnects + 1;
    const code = anyMethodRetryCode(error);
    let reconnect: number | undefined;
    if (code !== undefined && attempt <= retries) {
      reconnect = backoffMs(attempt, random);
      debug(`* retry ${attempt} of ${retries} in ${Math.round(reconnect)} ms (${code})`);
    } else if (failingSince !== undefined && !(this.lastContact > failingSince)) {
      // Past --retries only while no connection has opened since this item's first failed: it waits for the service.
      reconnect = Math.min(250 * 2 ** (attempt - 1), MAX_WAIT_MS);
      debug(`* waiting for the service: attempt ${attempt + 1} in ${reconnect} ms (${(error as Error).message})`);
    }
    if (reconnect !== undefined) return { waitMs: reconnect, tries: { ...tries, reconnects: attempt, failingSince } };
    if ('retryAfterMs' in result && result.retryAfterMs !== undefined && tries.resent < retries)
      return { waitMs: Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS), tries: { ...tries, resent: tries.resent + 1 } };
    return undefined;
  }
}
