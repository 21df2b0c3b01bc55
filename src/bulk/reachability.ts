/**
 * Whether a bulk load reaches its service: when every connection fails (refused, no such host, an unreachable network, a connect that
 * timed out) for UNREACHABLE_MS, the load stops sending at once, rather than trying each pet in turn (docs/bulk-loads.md, "The service
 * cannot be reached").
 */
import { CliError, ExitCode, RequestError } from '../errors.js';
import type { Stop } from './load-summary.js';

/** How long every connection may fail before the load stops, in milliseconds. */
export const UNREACHABLE_MS = 5_000;

/** The longest wait between two connection attempts of one item while no connection succeeds, in milliseconds. */
const MAX_WAIT_MS = 1_000;

/** Whether `error` (of a POST) says no connection to the service was made: nothing of it was sent, and the service was not reached. */
export function isUnreachable(error: unknown): error is RequestError {
  return error instanceof RequestError && error.notSent && (error.code === 'network_error' || error.code === 'timeout');
}

/** The wait before attempt `attempt` (1 for the first resend) of an item while the service is not reached: 250 ms doubling, at most 1 s. */
export function waitForServiceMs(attempt: number): number {
  return Math.min(250 * 2 ** (attempt - 1), MAX_WAIT_MS);
}

/** The stop of a load that could not reach its service for `limitMs`: exit 1, the last failure named, and how to check the base URL. */
export function unreachableStop(error: RequestError, limitMs: number): CliError {
  const took = limitMs % 1000 === 0 ? `${limitMs / 1000} s` : `${limitMs} ms`;
  return new CliError(
    `${error.message}; every connection failed for ${took}, so no more pets are sent`,
    ExitCode.failure,
    'unreachable',
    'Check the base URL (--base-url and PETSTORE_BASE_URL override the config) and that the service is up, then run the same ' +
      'command again: with --failed it sends only the pets not created. The base URL in the config:\n  petstore config get base-url',
  );
}

/** The load's view of its service: when it last answered (any answer, or a connection made), and since when every connection fails. */
export class Reachability {
  private lastContact = Number.NEGATIVE_INFINITY;
  private failingSince?: number;

  constructor(readonly limitMs: number) {}

  /** A connection was made (an answer came, or the request left). */
  contact(): void {
    this.lastContact = performance.now();
    this.failingSince = undefined;
  }

  /**
   * Notes a POST's failure: a connection made ({@link contact}), or none (`unreachable`); `stop`, the load's stop, once every connection
   * has failed for {@link limitMs}.
   */
  observe(error: unknown): { unreachable: boolean; stop?: Extract<Stop, { reason: 'unreachable' }> } {
    if (!isUnreachable(error)) {
      this.contact();
      return { unreachable: false };
    }
    const now = performance.now();
    this.failingSince ??= now;
    if (now - this.failingSince < this.limitMs) return { unreachable: true };
    return { unreachable: true, stop: { reason: 'unreachable', error: unreachableStop(error, this.limitMs), cause: error.message } };
  }

  /** Whether a connection was made after `time` (performance.now() milliseconds). */
  reachedSince(time: number): boolean {
    return this.lastContact > time;
  }
}
