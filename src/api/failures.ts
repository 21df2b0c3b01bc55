/** What an answer outside the expected statuses means (openapi/petstore.yaml, Error schema): a redirect, a missing path, an Error object, or neither. */
import { RequestError, ServiceError } from '../errors.js';
import { first, type Exchange } from './exchange.js';
import { describeBody, retryHint, tryParse } from './response.js';
import { retryAfterMs } from './retry.js';
import { ServiceErrorBody } from './schemas.js';

/** The base URL (named when a path does not exist) and where it came from, and a 401's last line (the command that fixes it). */
export interface FailureContext {
  baseUrl: URL;
  /** `--base-url`, `PETSTORE_BASE_URL` or the config file's path. */
  baseUrlFrom: string;
  loginHint?: string;
}

/** Where the base URL came from: the flag or variable that gave it, else the config. */
function baseUrlSource(from: string): string {
  return from === '--base-url' || from === 'PETSTORE_BASE_URL' ? `from ${from}` : 'from the config';
}

/** What a 404 means: `route` a wrong base URL; `pet` getPet's missing animal if its Error says so; `as-sent` (api) exit 3, any body. */
export type NotFound = 'pet' | 'route' | 'as-sent';

/** The RequestError or ServiceError of an answer outside `ok`; undefined when in `ok`. */
export function failureOf(response: Exchange, ok: readonly number[], notFound: NotFound, context: FailureContext): Error | undefined {
  const { status } = response;
  if (ok.includes(status)) return undefined;
  // No redirect interceptor is installed: a redirect could carry the key to another origin.
  if (status >= 300 && status < 400) {
    const location = first(response.headers.location);
    return new RequestError(
      `the service answered HTTP ${status} redirecting to ${location ?? '(no Location)'}; redirects are not followed`,
      'redirect',
      status,
    );
  }
  const parsed = ServiceErrorBody.safeParse(tryParse(response.text));
  const path = response.url ? new URL(response.url).pathname : 'such path';
  const route = notFound === 'route' || (notFound === 'pet' && (!parsed.success || !isMissingAnimal(parsed.data, path, context.baseUrl)));
  const baseUrlHint =
    `Check the base URL ${context.baseUrl.href} (${baseUrlSource(context.baseUrlFrom)}): ` +
    "the interface's paths are under its /v1, as in https://petstore.example.com/v1";
  if (status === 404 && route) {
    const said = parsed.success ? parsed.data.message : describeBody(response);
    return new RequestError(`the service has no ${path}: HTTP 404 (${said}); the base URL may be wrong`, 'no_such_path', 404, baseUrlHint);
  }
  const hint = status === 401 ? context.loginHint : status === 404 && !parsed.success ? baseUrlHint : retryHint(response);
  const type = first(response.headers['content-type']);
  const what = `the service answered HTTP ${status}${type ? ` (${type.split(';')[0]})` : ''}: ${describeBody(response)}`;
  if (status >= 400) {
    const error = parsed.success
      ? new ServiceError(status, parsed.data.code, parsed.data.message, hint)
      : new ServiceError(status, `http_${status}`, describeBody(response), hint, what);
    if (status === 429 || status === 503) error.retryAfterMs = retryAfterMs(response.headers['retry-after']);
    return error;
  }
  return new RequestError(`unexpected response: ${what}`, 'unexpected_response', status);
}

/**
 * Is getPet's 404 Error "no animal with that identifier" rather than a missing route? Yes when its code or message names a pet, an
 * animal or the id (quoted paths aside); else yes unless the base URL lacks /v1 or the words name a route, path, endpoint or URL.
 */
function isMissingAnimal(body: { code: string; message: string }, path: string, baseUrl: URL): boolean {
  const words = `${body.code} ${body.message}`.replace(/\S*\/\S*/g, ' ');
  const id = path.split('/').at(-1) ?? '';
  const named = (pattern: string) => new RegExp(`(?:^|[^a-z])(?:${pattern})(?![a-z])`, 'i').test(words);
  if (named('pets?|animals?') || (id !== '' && new RegExp(`(?:^|\\D)${id}(?:\\D|$)`).test(words))) return true;
  return /\/v1\/?$/.test(baseUrl.pathname) && !named('routes?|paths?|endpoints?|urls?');
}
