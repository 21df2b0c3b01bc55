// The one table of network error codes (api/network-errors.ts) and the one owner of a bulk load's POST policy (bulk/post-policy.ts):
// what each code proves and who retries it, and what follows each kind of failed POST (issue 39 item 3). The loads themselves are
// tested end to end in test/bulk-reconnect.test.ts, test/bulk-outcomes.test.ts and test/add-outcome.test.ts.
import { describe, expect, test } from 'vitest';
import { anyMethodRetryCode, isRetried, NETWORK_ERROR_CODES, networkErrorOf, provesNotSent } from '../src/api/network-errors.js';
import { NO_TRIES, PostPolicy, type PostPolicyOptions } from '../src/bulk/post-policy.js';
import { RequestError, ServiceError } from '../src/errors.js';

const codes = (keep: (row: (typeof NETWORK_ERROR_CODES)[string]) => boolean) =>
  Object.entries(NETWORK_ERROR_CODES)
    .filter(([, row]) => keep(row))
    .map(([code]) => code)
    .sort();

describe('the table of network error codes', () => {
  test('a GET is retried after any code of the table, a POST only after one that proves no connection was made', () => {
    expect(Object.keys(NETWORK_ERROR_CODES).filter((code) => isRetried(code, true))).toEqual(Object.keys(NETWORK_ERROR_CODES));
    expect(codes((row) => row.retried === 'any')).toEqual(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT']);
    expect(Object.keys(NETWORK_ERROR_CODES).filter((code) => isRetried(code, false))).toEqual(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT']);
    expect(isRetried('ERR_TLS_CERT_ALTNAME_INVALID', true)).toBe(false);
    expect(isRetried(undefined, true)).toBe(false);
  });

  test('what proves a request never left: no connection, or a TLS handshake refused; a dropped connection or a timeout does not', () => {
    expect(codes((row) => row.sent === 'never')).toEqual(
      ['EAI_AGAIN', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'UND_ERR_CONNECT_TIMEOUT'].sort(),
    );
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_SSL_WRONG_VERSION_NUMBER', 'CERT_HAS_EXPIRED'])
      expect(provesNotSent(code), code).toBe(true);
    for (const code of ['ECONNRESET', 'EPIPE', 'UND_ERR_HEADERS_TIMEOUT', 'EHOSTDOWN', 'toString', undefined])
      expect(provesNotSent(code), String(code)).toBe(false);
  });

  test('how a failure is said: unreachable, a dropped connection, or a timeout', () => {
    expect(codes((row) => row.says === 'unreachable')).toEqual(
      ['EAI_AGAIN', 'ECONNREFUSED', 'EHOSTDOWN', 'EHOSTUNREACH', 'ENETDOWN', 'ENETUNREACH', 'ENOTFOUND'].sort(),
    );
    expect(codes((row) => row.says === 'dropped')).toEqual(['ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED', 'UND_ERR_SOCKET']);
    expect(networkErrorOf('hasOwnProperty')).toBeUndefined();
  });

  test("a POST's resend is found through the causes an error keeps (three deep)", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(anyMethodRetryCode(new RequestError('cannot reach', 'network_error', null))).toBeUndefined();
    expect(anyMethodRetryCode(Object.assign(new RequestError('cannot reach', 'network_error'), { cause: refused }))).toBe('ECONNREFUSED');
    expect(anyMethodRetryCode({ cause: { cause: { cause: refused } } })).toBeUndefined();
  });
});

describe("a bulk load's POST policy", () => {
  const debug: string[] = [];
  const policy = (over: Partial<PostPolicyOptions> = {}) =>
    new PostPolicy({ retries: 2, unreachableMs: 60_000, random: () => 0.5, debug: (line) => debug.push(line), ...over });
  /** A POST whose connection was refused, as the transport reports it. */
  const refused = () => {
    const error = new RequestError('cannot reach 127.0.0.1:9: ECONNREFUSED', 'network_error');
    error.notSent = true;
    error.cause = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    return error;
  };

  test('a refused connection: sent again after the backoff, --retries times, said with --verbose; then, while nothing answers, it waits for the service', () => {
    debug.length = 0;
    const p = policy();
    const first = p.afterFailure(refused(), NO_TRIES, undefined);
    expect(first).toMatchObject({ next: 'resend', waitMs: 125, tries: { reconnects: 1, resent: 0 } });
    const second = p.afterFailure(refused(), first.next === 'resend' ? first.tries : NO_TRIES, undefined);
    expect(second).toMatchObject({ next: 'resend', waitMs: 250, tries: { reconnects: 2 } });
    const third = p.afterFailure(refused(), second.next === 'resend' ? second.tries : NO_TRIES, undefined);
    expect(third).toMatchObject({ next: 'resend', waitMs: 1000, tries: { reconnects: 3 } });
    expect(debug).toEqual([
      '* retry 1 of 2 in 125 ms (ECONNREFUSED)',
      '* retry 2 of 2 in 250 ms (ECONNREFUSED)',
      '* waiting for the service: attempt 4 in 1000 ms (cannot reach 127.0.0.1:9: ECONNREFUSED)',
    ]);
  });

  test('past --retries, an item refused while the service answers others ends not_sent', () => {
    const p = policy({ retries: 0 });
    p.answered();
    const after = p.afterFailure(refused(), { resent: 0, reconnects: 0, failingSince: performance.now() - 1 }, undefined);
    expect(after).toMatchObject({ next: 'end', outcome: 'not_sent', report: { code: 'network_error' } });
  });

  test('every connection failing for the limit stops the load: the item not_sent, the stop unreachable', () => {
    const after = policy({ unreachableMs: 0 }).afterFailure(refused(), NO_TRIES, undefined);
    expect(after.next).toBe('end');
    expect(after.stop?.reason).toBe('unreachable');
    expect(after).toMatchObject({ outcome: 'not_sent', report: { code: 'not_sent' } });
  });

  test('a 429 with Retry-After: sent again after the wait it asks, at most 60 s, --retries times; then failed', () => {
    const busy = new ServiceError(429, 'busy', 'slow down');
    busy.retryAfterMs = 120_000;
    const p = policy({ retries: 1 });
    const first = p.afterFailure(busy, NO_TRIES, undefined);
    expect(first).toMatchObject({ next: 'resend', waitMs: 60_000, tries: { resent: 1 } });
    expect(p.afterFailure(busy, { resent: 1, reconnects: 0 }, undefined)).toMatchObject({ next: 'end', outcome: 'failed' });
  });

  test('what an answer proves: a 400 failed, a 503 or a dropped connection unknown, a 401 failed and the load stops, a 2xx unread created', () => {
    const p = policy();
    expect(p.afterFailure(new ServiceError(400, 'invalid', 'bad'), NO_TRIES, undefined)).toMatchObject({ next: 'end', outcome: 'failed' });
    expect(p.afterFailure(new ServiceError(503, 'down', 'later'), NO_TRIES, undefined)).toMatchObject({ next: 'end', outcome: 'unknown' });
    const dropped = new RequestError('the connection closed before its answer came (ECONNRESET)', 'connection_closed');
    expect(p.afterFailure(dropped, NO_TRIES, undefined)).toMatchObject({ next: 'end', outcome: 'unknown' });
    const auth = p.afterFailure(new ServiceError(401, 'unauthorized', 'no'), NO_TRIES, undefined);
    expect(auth).toMatchObject({ next: 'end', outcome: 'failed' });
    expect(auth.stop?.reason).toBe('auth');
    const unread = new RequestError('unexpected response (HTTP 201): pet.id: missing', 'unexpected_response', 201);
    expect(p.afterFailure(unread, NO_TRIES, undefined)).toMatchObject({ next: 'created', status: 201 });
  });
});
