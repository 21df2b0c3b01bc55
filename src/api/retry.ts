/**
 * Retry policy for undici's retry interceptor, a table by method. A GET (or
 * HEAD, OPTIONS: safe methods, RFC 9110 §9.2.1) is retried on connection
 * errors, timeouts and the statuses 408, 429, 502, 503 and 504, with
 * exponential backoff and full jitter, honouring Retry-After (RFC 9110 §10.2.3,
 * seconds or HTTP-date) up to {@link MAX_RETRY_AFTER_MS}. Any other method (a
 * POST above all) is retried only when its connection was never established,
 * so a pet is never created twice.
 */
import { interceptors, type Dispatcher, type RetryHandler } from 'undici';

export const RETRY_STATUS_CODES = [408, 429, 502, 503, 504];
/** Connection errors after which a GET may be sent again. */
const GET_ERROR_CODES = [
  'ECONNRESET',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETDOWN',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EHOSTUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
];
/** Errors that prove no byte of the request reached the server. */
const NEVER_CONNECTED_CODES = ['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT'];

/**
 * Whether an error code proves the request never reached the service: no
 * connection (refused, no such host, unreachable, connect timeout) or a TLS
 * handshake that failed (the request is sent only after it).
 */
export function provesNotSent(code: string | undefined): boolean {
  if (code === undefined) return false;
  return (
    ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT'].includes(code) ||
    /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_)/.test(code)
  );
}

interface MethodPolicy {
  /** Statuses after which the request is sent again. */
  statuses: readonly number[];
  /** Error codes after which the request is sent again. */
  errors: readonly string[];
}

const SAFE: MethodPolicy = { statuses: RETRY_STATUS_CODES, errors: GET_ERROR_CODES };
const UNSAFE: MethodPolicy = { statuses: [], errors: NEVER_CONNECTED_CODES };
/** The policy of each method; a method not listed is UNSAFE. */
export const RETRY_POLICY: Readonly<Record<string, MethodPolicy>> = { GET: SAFE, HEAD: SAFE, OPTIONS: SAFE };

/** Longest Retry-After waited for, in milliseconds; a longer one ends the command instead. */
export const MAX_RETRY_AFTER_MS = 60_000;
const BASE_DELAY_MS = 250;
const MAX_BACKOFF_MS = 8_000;

export interface RetryPolicyOptions {
  /** Retries after the first attempt; 0 turns retrying off. */
  retries: number;
  log?: (line: string) => void;
  /** Random number in [0, 1) for jitter; Math.random by default. */
  random?: () => number;
}

/**
 * Milliseconds a Retry-After value asks to wait (delta-seconds or HTTP-date),
 * or undefined when the header is absent or unreadable.
 */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The undici interceptor carrying this policy, for `dispatcher.compose()`. */
export function retryInterceptor(options: RetryPolicyOptions): Dispatcher.DispatcherComposeInterceptor {
  const random = options.random ?? Math.random;
  const retry: RetryHandler.RetryCallback = (error, { state, opts }, callback) => {
    const { statusCode, code, headers } = error as Error & {
      statusCode?: number;
      code?: string;
      headers?: Record<string, string | string[] | undefined>;
    };
    const policy = RETRY_POLICY[opts.method.toUpperCase()] ?? UNSAFE;
    const eligible =
      statusCode !== undefined && code === 'UND_ERR_REQ_RETRY' ? policy.statuses.includes(statusCode) : policy.errors.includes(code ?? '');
    if (!eligible || state.counter > options.retries) {
      callback(error);
      return;
    }
    const asked = retryAfterMs(headers?.['retry-after']);
    if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) {
      callback(error);
      return;
    }
    const backoff = Math.min(BASE_DELAY_MS * 2 ** (state.counter - 1), MAX_BACKOFF_MS) * random();
    const delay = asked ?? backoff;
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
    // Hand the last response (a 503, say) to the client when retrying stops,
    // so that it reports the service's own Error instead of a generic one.
    throwOnError: false,
  });
}
