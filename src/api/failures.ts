/** What an answer outside the expected statuses means (openapi/petstore.yaml, Error schema): a redirect, a missing path, an Error object, or neither. */
import { RequestError, ServiceError } from '../errors.js';
import { first, type Exchange } from './exchange.js';
import { describeBody, retryHint, tryParse } from './response.js';
import { retryAfterMs } from './retry.js';
import { ServiceErrorBody } from './schemas.js';

/** A 3xx answer (exit 1, `redirect`): never followed, as a redirect could carry the key to another origin. */
export class RedirectError extends RequestError {
  override name = 'RedirectError';

  constructor(
    status: number,
    /** The Location header as sent, if any. */
    readonly location: string | undefined,
  ) {
    super(
      `the service answered HTTP ${status} redirecting to ${location ?? '(no Location)'}; redirects are not followed`,
      'redirect',
      status,
    );
  }
}

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

/**
 * What a 404 of one operation means, declared with its call (`Expectation.notFound`, or `failureOf`'s argument). The exit code follows
 * from the declaration, never from the answer's words:
 * - `'route'`, the default: the service has no such path, so the base URL may be wrong. RequestError `no_such_path`, exit 1.
 * - `{ missing: 'animal' }`: no such item (a record by its id, a delete). The service's Error as a ServiceError, exit 3; an answer
 *   without an Error body says "no such animal" and adds the base URL's hint, exit 3 still.
 * - `{ missing, routeMayBeGone: true }`: the same, for a deprecated operation whose route the service may have removed (getPet): a 404
 *   without an Error body, or whose words name a route rather than the item, is read as `'route'` (get then looks the pet up another way).
 * - `'pet'`: getPet's, short for `{ missing: 'animal', routeMayBeGone: true }`.
 * - `'as-sent'`: `petstore api`'s: the service's answer as it is, exit 3 whatever its body.
 */
export type NotFound = 'route' | 'as-sent' | 'pet' | MissingItem;

/** A 404 that means the item asked for does not exist (exit 3): see {@link NotFound}. */
export interface MissingItem {
  /** The item, as "no such ..." names it: `animal`, `order`. */
  missing: string;
  /** The operation is deprecated and its route may be gone: a 404 that does not read as a missing item is the route's. */
  routeMayBeGone?: boolean;
}

/** getPet's 404 ({@link NotFound} `'pet'`). */
const GET_PET_NOT_FOUND: MissingItem = { missing: 'animal', routeMayBeGone: true };

/** The RequestError or ServiceError of an answer outside `ok`; undefined when in `ok`. */
export function failureOf(response: Exchange, ok: readonly number[], notFound: NotFound, context: FailureContext): Error | undefined {
  const { status } = response;
  if (ok.includes(status)) return undefined;
  // No redirect interceptor is installed: a redirect could carry the key to another origin.
  if (status >= 300 && status < 400) return new RedirectError(status, first(response.headers.location));
  const parsed = ServiceErrorBody.safeParse(tryParse(response.text));
  const path = response.url ? new URL(response.url).pathname : 'such path';
  const meaning = notFound === 'pet' ? GET_PET_NOT_FOUND : notFound;
  const route =
    meaning === 'route' ||
    (meaning !== 'as-sent' &&
      meaning.routeMayBeGone === true &&
      (!parsed.success || !isMissingItem(parsed.data, meaning.missing, path, context.baseUrl)));
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
    const missing = status === 404 && typeof meaning === 'object' ? `no such ${meaning.missing}: ` : '';
    const error = parsed.success
      ? new ServiceError(status, parsed.data.code, parsed.data.message, hint)
      : new ServiceError(status, `http_${status}`, describeBody(response), hint, `${missing}${what}`);
    if (status === 429 || status === 503) error.retryAfterMs = retryAfterMs(response.headers['retry-after']);
    error.location = first(response.headers.location);
    return error;
  }
  return new RequestError(`unexpected response: ${what}`, 'unexpected_response', status);
}

/**
 * Does a 404 Error of a deprecated operation say "no such item" rather than "no such route"? Yes when its code or message names the
 * item (`missing`, a pet or an animal) or the id (quoted paths aside); else yes unless the base URL lacks /v1 or the words name a
 * route, path, endpoint or URL. Read only for {@link MissingItem.routeMayBeGone}: the exit code of a missing item is declared, not read.
 */
function isMissingItem(body: { code: string; message: string }, missing: string, path: string, baseUrl: URL): boolean {
  const words = `${body.code} ${body.message}`.replace(/\S*\/\S*/g, ' ');
  const id = path.split('/').at(-1) ?? '';
  const named = (pattern: string) => new RegExp(`(?:^|[^a-z])(?:${pattern})(?![a-z])`, 'i').test(words);
  const item = `${missing.replace(/[^a-z]/gi, '')}s?|pets?|animals?`;
  if (named(item) || (id !== '' && new RegExp(`(?:^|\\D)${id}(?:\\D|$)`).test(words))) return true;
  return /\/v1\/?$/.test(baseUrl.pathname) && !named('routes?|paths?|endpoints?|urls?');
}
