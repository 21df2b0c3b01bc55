/**
 * The one table of the network error codes petstore tells apart (Node's and undici's), and what each proves about a request that met
 * it. The GETs' retry (retry.ts), a POST's in a bulk load (bulk/post-policy.ts, through `RequestError.notSent` and
 * {@link anyMethodRetryCode}) and the words of a failure (transport.ts) all read it; no other list of these codes exists.
 */

/** What one error code proves, and what is done about it. */
export interface NetworkErrorCode {
  /** `never`: no connection was made, so no byte of the request left (it is `not_sent`); `maybe`: it may have reached the service. */
  sent: 'never' | 'maybe';
  /** Sent again by the retry interceptor (retry.ts) for `any` method, a POST too (nothing of it left), or only for a `safe` one (GET). */
  retried: 'any' | 'safe';
  /** How transport.ts says it: "cannot reach" (`unreachable`), "the connection closed before its answer came" (`dropped`), a `timeout`. */
  says: 'unreachable' | 'dropped' | 'timeout';
}

/** Every code, and what it proves. A code not here proves nothing and is never retried. */
export const NETWORK_ERROR_CODES: Readonly<Record<string, NetworkErrorCode>> = {
  // No connection: refused, or none made in time.
  ECONNREFUSED: { sent: 'never', retried: 'any', says: 'unreachable' },
  UND_ERR_CONNECT_TIMEOUT: { sent: 'never', retried: 'any', says: 'timeout' },
  // No such host, or no route to it.
  ENOTFOUND: { sent: 'never', retried: 'safe', says: 'unreachable' },
  EAI_AGAIN: { sent: 'never', retried: 'safe', says: 'unreachable' },
  ENETUNREACH: { sent: 'never', retried: 'safe', says: 'unreachable' },
  EHOSTUNREACH: { sent: 'never', retried: 'safe', says: 'unreachable' },
  // The network or host is down: said as unreachable, but not taken as proof that nothing was sent.
  ENETDOWN: { sent: 'maybe', retried: 'safe', says: 'unreachable' },
  EHOSTDOWN: { sent: 'maybe', retried: 'safe', says: 'unreachable' },
  // An open connection closed: the request may have been read.
  ECONNRESET: { sent: 'maybe', retried: 'safe', says: 'dropped' },
  EPIPE: { sent: 'maybe', retried: 'safe', says: 'dropped' },
  UND_ERR_SOCKET: { sent: 'maybe', retried: 'safe', says: 'dropped' },
  UND_ERR_CLOSED: { sent: 'maybe', retried: 'safe', says: 'dropped' },
  // Sent, and no answer in time.
  UND_ERR_HEADERS_TIMEOUT: { sent: 'maybe', retried: 'safe', says: 'timeout' },
  UND_ERR_BODY_TIMEOUT: { sent: 'maybe', retried: 'safe', says: 'timeout' },
};

/** A TLS handshake that failed (a certificate refused, or no TLS server there): the request never left. Never retried. */
const TLS_HANDSHAKE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_)/;

/** The table's row of `code`; undefined for a code it does not hold. */
export function networkErrorOf(code: string | undefined): NetworkErrorCode | undefined {
  return code === undefined ? undefined : Object.hasOwn(NETWORK_ERROR_CODES, code) ? NETWORK_ERROR_CODES[code] : undefined;
}

/** Whether an error code proves the request never reached the service: no connection (the table's `sent: 'never'`), or a failed TLS handshake. */
export function provesNotSent(code: string | undefined): boolean {
  return code !== undefined && (networkErrorOf(code)?.sent === 'never' || TLS_HANDSHAKE.test(code));
}

/** Whether the retry interceptor sends a request of a `safe` method (or, if not safe, any other) again after `code`. */
export function isRetried(code: string | undefined, safe: boolean): boolean {
  const row = networkErrorOf(code);
  return row !== undefined && (safe || row.retried === 'any');
}

/**
 * The code when `error` (or a cause, three deep) is one retried for any method (the table's `retried: 'any'`: no connection was ever
 * made): the one failure after which a POST is sent again.
 */
export function anyMethodRetryCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; e = e.cause as typeof e, depth += 1)
    if (typeof e.code === 'string' && networkErrorOf(e.code)?.retried === 'any') return e.code;
  return undefined;
}
