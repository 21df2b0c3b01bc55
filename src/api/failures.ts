/**
 * What an answer outside the expected statuses means (petstore-interface.md,
 * "Errors"): a redirect (never followed), a 404 of a path that does not exist
 * (a wrong base URL, unless it is getPet's missing pet), the service's Error
 * object, or an answer the interface does not promise.
 */
import { RequestError, ServiceError } from '../errors.js';
import { first, type Exchange } from './exchange.js';
import { describeBody, retryHint, tryParse } from './response.js';
import { ServiceErrorBody } from './schemas.js';

/** What the reading of a failed answer needs to know of the client. */
export interface FailureContext {
  /** The base URL, named when a path does not exist. */
  baseUrl: URL;
  /** The last line of a 401's message: the command that fixes it. */
  loginHint?: string;
}

/**
 * The RequestError or ServiceError an answer outside `ok` stands for, or
 * undefined when its status is in `ok`. `notFound` says what a 404 means for
 * the operation: a missing pet (getPet, when the body is an Error object) or a
 * route that does not exist.
 */
export function failureOf(
  response: Exchange,
  ok: readonly number[],
  notFound: 'pet' | 'route',
  context: FailureContext,
): Error | undefined {
  const { status } = response;
  if (ok.includes(status)) return undefined;
  // undici follows no redirect without its redirect interceptor, which is not
  // installed: a redirect could carry the key to another origin.
  if (status >= 300 && status < 400) {
    const location = first(response.headers.location);
    return new RequestError(
      `the service answered HTTP ${status} redirecting to ${location ?? '(no Location)'}; redirects are not followed`,
      'redirect',
      status,
    );
  }
  const parsed = ServiceErrorBody.safeParse(tryParse(response.text));
  if (status === 404 && (notFound === 'route' || !parsed.success)) {
    const said = parsed.success ? parsed.data.message : describeBody(response);
    const path = response.url ? new URL(response.url).pathname : 'such path';
    return new RequestError(
      `the service has no ${path}: HTTP 404 (${said}); the base URL may be wrong`,
      'no_such_path',
      404,
      `Check the base URL ${context.baseUrl.href} (petstore config get base-url): ` +
        "the interface's paths are under its /v1, as in https://petstore.example.com/v1",
    );
  }
  const hint = status === 401 ? context.loginHint : retryHint(response);
  if (parsed.success && status >= 400) return new ServiceError(status, parsed.data.code, parsed.data.message, hint);
  const type = first(response.headers['content-type']);
  const what = `the service answered HTTP ${status}${type ? ` (${type.split(';')[0]})` : ''}: ${describeBody(response)}`;
  if (status >= 400) return new ServiceError(status, `http_${status}`, describeBody(response), hint, what);
  return new RequestError(`unexpected response: ${what}`, 'unexpected_response', status);
}
