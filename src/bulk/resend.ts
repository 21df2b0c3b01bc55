/**
 * When one item of a bulk load is sent again (load-sending.ts): after a connection that never opened (at most --retries times, or for
 * as long as no connection opens at all: reachability.ts), or after a 429 or 503 with Retry-After (at most --retries times). Any
 * other failure is never sent again: the POST may have reached the service.
 */
import type { PetstoreClient } from '../api/client.js';
import { MAX_RETRY_AFTER_MS } from '../api/retry.js';
import type { SendResult } from './outcomes.js';
import { type Reachability, waitForServiceMs } from './reachability.js';

/** How often one item was sent again, and since when (performance.now()) its connections fail while none has opened. */
export interface Tries {
  resent: number;
  reconnects: number;
  failingSince?: number;
}

export const NO_TRIES: Tries = { resent: 0, reconnects: 0 };

/** What the decision looks at beside the failure: the client's backoff, the load's view of its service, --retries, --verbose. */
export interface ResendContext {
  client: PetstoreClient;
  reach: Reachability;
  retries: number;
  debug: (line: string) => void;
}

/**
 * The wait (milliseconds) before the item whose POST failed with `error` (classified as `result`; `unreachable`: no connection was
 * made) is sent again, and its tries then; undefined when it is not sent again.
 */
export function nextTry(
  error: unknown,
  result: SendResult,
  tries: Tries,
  unreachable: boolean,
  context: ResendContext,
): { waitMs: number; tries: Tries } | undefined {
  const failingSince = unreachable ? (tries.failingSince ?? performance.now()) : undefined;
  let reconnect = context.client.reconnectDelay(error, tries.reconnects + 1);
  // Past --retries only while no connection has opened since this item's first failed: it waits for the service.
  if (reconnect === undefined && failingSince !== undefined && !context.reach.reachedSince(failingSince)) {
    reconnect = waitForServiceMs(tries.reconnects + 1);
    context.debug(`* waiting for the service: attempt ${tries.reconnects + 2} in ${reconnect} ms (${(error as Error).message})`);
  }
  if (reconnect !== undefined) return { waitMs: reconnect, tries: { ...tries, reconnects: tries.reconnects + 1, failingSince } };
  if ('retryAfterMs' in result && result.retryAfterMs !== undefined && tries.resent < context.retries)
    return { waitMs: Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS), tries: { ...tries, resent: tries.resent + 1 } };
  return undefined;
}
