/** Reading the service's answers: Link, Retry-After, Deprecation and Sunset headers, body excerpts, error classification. */
import LinkHeader from 'http-link-header';
import { RequestError } from '../errors.js';
import { sanitizeText } from '../text.js';
import { first, type Exchange } from './exchange.js';
import { parseAnswerJson } from '../json.js';
import { MAX_RETRY_AFTER_MS, retryAfterMs } from './retry.js';

/** A hint line saying when to retry a 429 or 503 with Retry-After. */
export function retryHint(response: Exchange): string | undefined {
  if (response.status !== 429 && response.status !== 503) return undefined;
  const wait = retryAfterMs(response.headers['retry-after']);
  if (wait === undefined) return undefined;
  const when = new Date(Date.now() + wait).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const capped = wait > MAX_RETRY_AFTER_MS ? ` (longer than the ${MAX_RETRY_AFTER_MS / 1000} s petstore waits)` : '';
  return `The service asks to retry after ${when}${capped}; try again then.`;
}

/** The RFC 8288 `rel="next"` target of a Link header, resolved against the request URL; throws RequestError for one it cannot read. */
export function nextLink(headers: Exchange['headers'], requestUrl: URL): URL | undefined {
  const values = headers.link;
  const text = Array.isArray(values) ? values.join(', ') : values;
  if (!text) return undefined;
  try {
    const target = LinkHeader.parse(text).rel('next')[0]?.uri;
    return target === undefined ? undefined : new URL(target, requestUrl);
  } catch {
    // Not RFC 8288, or a next target that is no URL (`<http://[::1/>`).
    throw new RequestError(`unexpected response: unreadable Link header: "${text.slice(0, 120)}"`, 'unexpected_response');
  }
}

/**
 * The RequestError (exit 1, `unexpected_encoding`) of an answer whose body came with a content coding (RFC 9110 §8.4) other than
 * `identity`: petstore asks for none (no Accept-Encoding, unless `api -H` gives one) and decodes none, so its bytes are never shown;
 * undefined for a body as sent, or none.
 */
export function encodingFailure(response: Exchange, asked: boolean): RequestError | undefined {
  const value = response.headers['content-encoding'];
  // Checked first: nearly every answer has neither.
  if (value === undefined || response.text === '') return undefined;
  const codings = (Array.isArray(value) ? value.join(',') : (value ?? ''))
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding.toLowerCase() !== 'identity');
  if (codings.length === 0) return undefined;
  const named = sanitizeText(codings.join(', ')).slice(0, 60);
  const why = asked ? 'which petstore does not decode' : 'which petstore did not ask for and does not decode';
  return new RequestError(
    `the service answered HTTP ${response.status} with a body compressed as ${named} (Content-Encoding), ${why}; the body is not shown`,
    'unexpected_encoding',
    response.status,
    asked ? 'Leave out the Accept-Encoding header: petstore reads bodies as they are sent, uncompressed.' : undefined,
  );
}

/** JSON text parsed with exact integers, or undefined when it is not JSON. */
export function tryParse(text: string): unknown {
  try {
    return parseAnswerJson(text);
  } catch {
    return undefined;
  }
}

/** A short single-line excerpt of a body. */
export function describeBody(response: Exchange): string {
  const flat = response.text.slice(0, 400).replace(/\s+/g, ' ').trim();
  if (!flat) return '(empty body)';
  return flat.length > 120 ? `"${flat.slice(0, 120)}…"` : `"${flat}"`;
}

/** True for undici's connect, header and body timeouts and for a TimeoutError abort. */
export function isTimeout(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  const name = (error as { name?: string }).name ?? '';
  return /TIMEOUT/i.test(code) || name === 'TimeoutError';
}

/** RFC 9745 Deprecation ("@<unix seconds>") or RFC 8594 Sunset (an HTTP-date) as "on <date>". */
export function describeDate(value: string): string {
  const epoch = /^@(-?\d+)$/.exec(value.trim());
  const date = epoch ? new Date(Number(epoch[1]) * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? `(${value.slice(0, 40)})` : `on ${date.toISOString().slice(0, 10)}`;
}

/** application/json or application/<anything>+json. */
export function isJsonType(response: Exchange): boolean {
  return /^application\/([\w.+-]+\+)?json\b/i.test(first(response.headers['content-type']) ?? '');
}

/** The JSON body with exact numbers. Throws RequestError (exit 1) naming status and an excerpt when it is not JSON or malformed. */
export function parseBody(response: Exchange): unknown {
  const type = first(response.headers['content-type']) ?? '';
  // The usual type first: the pattern's test costs every answer of a bulk load.
  if (type !== 'application/json' && !isJsonType(response)) {
    throw new RequestError(
      `unexpected response (HTTP ${response.status}): content type ${type ? `"${type}"` : 'missing'}, not JSON: ${describeBody(response)}`,
      'unexpected_response',
      response.status,
    );
  }
  try {
    return parseAnswerJson(response.text);
  } catch {
    throw new RequestError(
      `unexpected response (HTTP ${response.status}): malformed JSON: ${describeBody(response)}`,
      'unexpected_response',
      response.status,
    );
  }
}

/** The warning of Deprecation (RFC 9745) and Sunset (RFC 8594) headers, or undefined. */
export function deprecationNotice(headers: Exchange['headers']): string | undefined {
  const deprecation = first(headers.deprecation);
  const sunset = first(headers.sunset);
  if (!deprecation && !sunset) return undefined;
  const parts: string[] = [];
  // Drafts before RFC 9745 sent "true", which has no date.
  if (deprecation) parts.push(deprecation.trim() === 'true' ? 'deprecated' : `deprecated ${describeDate(deprecation)}`);
  if (sunset) parts.push(`to be removed ${describeDate(sunset)}`);
  return `the service says this endpoint is ${parts.join(', ')}`;
}
