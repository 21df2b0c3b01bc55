/**
 * Retry policy for undici's retry interceptor: safe methods (RFC 9110 §9.2.1) on transient failures, others only if never connected; which
 * network error is which: network-errors.ts's table.
 */
import { interceptors, type Dispatcher, type RetryHandler } from 'undici';
import { isRetried } from './network-errors.js';

const RETRY_STATUS_CODES = [408, 429, 502, 503, 504];
/** Methods that change nothing (RFC 9110 §9.2.1): retried, and never said to have maybe taken effect. */
export const SAFE_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS'];
const BASE_DELAY_MS = 250;
const MAX_BACKOFF_MS = 8_000;

/** Milliseconds before retry `attempt` (1 for the first): exponential from 250 ms, at most 8 s, with full jitter (`random` in [0, 1)). */
export function backoffMs(attempt: number, random: () => number): number {
  return Math.min(BASE_DELAY_MS * 2 ** (attempt - 1), MAX_BACKOFF_MS) * random();
}

/** Longest Retry-After waited for, in milliseconds; a longer one ends the command instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Milliseconds a Retry-After value asks to wait (delta-seconds or HTTP-date), or undefined when the header is absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The undici interceptor of this policy: `retries` after the first attempt, each told to `log`; `random` in [0, 1) for the jitter. */
export function retryInterceptor(options: {
  retries: number;
  log?: (line: string) => void;
  random?: () => number;
}): Dispatcher.DispatcherComposeInterceptor {
  const random = options.random ?? Math.random;
  const retry: RetryHandler.RetryCallback = (error, { state, opts }, callback) => {
    const { statusCode, code, headers } = error as Error & {
      statusCode?: number;
      code?: string;
      headers?: Record<string, string | string[] | undefined>;
    };
    const safe = SAFE_METHODS.includes(opts.method.toUpperCase());
    const eligible =
      statusCode !== undefined && code === 'UND_ERR_REQ_RETRY' ? safe && RETRY_STATUS_CODES.includes(statusCode) : isRetried(code, safe);
    const asked = retryAfterMs(headers?.['retry-after']);
    if (!eligible || state.counter > options.retries || (asked !== undefined && asked > MAX_RETRY_AFTER_MS)) {
      callback(error);
      return;
    }
    const delay = asked ?? backoffMs(state.counter, random);
    options.log?.(
      `* retry ${state.counter} of ${options.retries} in ${Math.round(delay)} ms (${statusCode ? `HTTP ${statusCode}` : code})`,
    );
    return setTimeout(() => callback(null), delay) as unknown as undefined;
  };
  return interceptors.retry({
    retry,
    maxRetries: options.retries,
    methods: ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'],
    statusCodes: RETRY_STATUS_CODES,
    // The last response (a 503, say) reaches the client when retrying stops, which reports the service's own Error.
    throwOnError: false,
  });
}
