/**
 * HTTP client of the pet store service (petstore-interface.md, "Endpoints"),
 * on one keep-alive undici dispatcher per invocation. Every response is read
 * with a size cap, parsed with exact int64 ids and checked against the zod
 * schemas; an HTTP error status becomes a ServiceError.
 */
import type { Dispatcher } from 'undici';
import type * as z from 'zod/mini';
import { RequestError, ServiceError } from '../errors.js';
import { exchange, type Exchange, type ExchangeLimits } from './exchange.js';
import { parseJson } from './json.js';
import { describeBody, describeDate, first, isTimeout, nextLink, retryHint, tryParse } from './response.js';
import { retryInterceptor } from './retry.js';
import { describeIssue, Pet, Pets, ServiceErrorBody, type ListPetsQuery, type NewPet } from './schemas.js';
import { describeNetworkFailure, openDispatcher, type ProxyChoice } from './transport.js';

/** Largest response body read, in bytes (16 MiB). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Status codes taken as success: createPet answers 201 (200 accepted too), the GETs 200. */
const CREATED: readonly number[] = [201, 200];
const OK: readonly number[] = [200];

/** Most pages `listPetPages` follows before it stops with an error (never silently). */
export const MAX_PAGES = 1000;

export interface ClientOptions {
  /** Base address ending in "/" (see settings.parseBaseUrl); endpoint paths join onto it. */
  baseUrl: URL;
  apiKey: string;
  /** Sent as User-Agent, e.g. "petstore/0.1.0". */
  userAgent: string;
  /** Deadline of the whole command in milliseconds; also the connect, header and body timeout. */
  timeoutMs: number;
  /** Retries of a GET after the first attempt (0 turns retrying off). */
  retries: number;
  /** Aborts every request (Ctrl-C, SIGTERM). */
  signal: AbortSignal;
  /** Environment, for HTTPS_PROXY, HTTP_PROXY and NO_PROXY. */
  env: NodeJS.ProcessEnv;
  /** Receives `--verbose` lines (the key is never in them). */
  log?: (line: string) => void;
  /** Receives warnings, such as a Deprecation or Sunset header (RFC 9745, RFC 8594). */
  warn: (line: string) => void;
}

/** The service's three operations: listPets (as pages), createPet and getPet. */
export class PetstoreClient {
  private readonly dispatcher: Dispatcher;
  private readonly deadline: AbortSignal;
  private warnedDeprecation = false;
  // Built once: a bulk load sends thousands of requests with the same headers and limits.
  private readonly petsUrl: URL;
  private readonly petsPath: string;
  private readonly headers: { GET: Record<string, string>; POST: Record<string, string> };
  private readonly limits: ExchangeLimits;
  private readonly origin: string;
  private readonly proxy?: ProxyChoice;

  constructor(private readonly options: ClientOptions) {
    const timeout = options.timeoutMs;
    const timeouts = { connect: { timeout }, headersTimeout: timeout, bodyTimeout: timeout };
    // Every request goes to the base URL's origin (next-page links are held to it).
    this.origin = options.baseUrl.origin;
    const { dispatcher: agent, proxy } = openDispatcher(options.baseUrl, options.env, timeouts);
    this.proxy = proxy;
    this.dispatcher = agent.compose(retryInterceptor({ retries: options.retries, log: options.log }));
    this.deadline = AbortSignal.any([options.signal, AbortSignal.timeout(timeout)]);
    this.petsUrl = new URL('pets', options.baseUrl);
    this.petsPath = this.petsUrl.pathname;
    const get = { authorization: `Bearer ${options.apiKey}`, accept: 'application/json', 'user-agent': options.userAgent };
    this.headers = { GET: Object.freeze(get), POST: Object.freeze({ ...get, 'content-type': 'application/json' }) };
    const host = options.baseUrl.host;
    const tooLarge = () => new RequestError(`response from ${host} is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB; aborted`, 'body_too_large');
    this.limits = { maxBytes: MAX_BODY_BYTES, tooLarge };
  }

  /**
   * listPets (`GET /pets?limit=&status=`) page by page, each the Pets array
   * exactly as sent (unknown fields kept). With `all`, follows RFC 8288 `Link: <url>; rel="next"`
   * headers (the interface promises no pagination: without one the first page
   * is everything), on the same origin only and for at most {@link MAX_PAGES}
   * pages. Throws RequestError for a next link to another origin or past the cap.
   */
  async *listPetPages(query: ListPetsQuery, all: boolean): AsyncGenerator<Pet[]> {
    const params = new URLSearchParams({ limit: String(query.limit) });
    if (query.status) params.set('status', query.status);
    let url = new URL(`pets?${params}`, this.options.baseUrl);
    for (let page = 1; ; page += 1) {
      const response = await this.send('GET', url);
      yield this.expect(response, OK, Pets, 'pets');
      const next = all ? nextLink(response.headers, url) : undefined;
      if (!next) return;
      if (next.origin !== this.origin) {
        throw new RequestError(`refusing to follow the next page link to another origin: ${next.origin}`, 'cross_origin_link');
      }
      if (page >= MAX_PAGES) {
        throw new RequestError(`stopped after ${MAX_PAGES} pages: the service still links a next page (${next.href})`, 'too_many_pages');
      }
      url = next;
    }
  }

  /**
   * createPet: `POST /pets` with a NewPet body. Returns the created Pet (201).
   * Never retried once sent. With `{ interruptible: false }` neither Ctrl-C nor
   * the command's deadline aborts the request, only the connect, header and
   * body timeouts do (bulk loads let requests in flight finish on Ctrl-C).
   */
  async createPet(pet: NewPet, { interruptible = true } = {}): Promise<Pet> {
    const status = pet.status === undefined ? '' : `,"status":${JSON.stringify(pet.status)}`;
    const body = `{"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId}${status}}`;
    const response = await this.send('POST', this.petsUrl, body, interruptible ? this.deadline : null, this.petsPath);
    return this.expect(response, CREATED, Pet, 'pet');
  }

  /** getPet (deprecated): `GET /pets/{petId}`. Returns the Pet (200); 404 becomes a ServiceError. */
  async getPet(petId: bigint): Promise<Pet> {
    const response = await this.send('GET', new URL(`pets/${petId}`, this.options.baseUrl));
    return this.expect(response, OK, Pet, 'pet');
  }

  /** Closes the keep-alive connections. */
  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  /**
   * Sends one request to `url`, whose origin is the base URL's; `signal` null
   * means only the dispatcher's own timeouts bound it; `path` may be given precomputed.
   */
  private async send(
    method: 'GET' | 'POST',
    url: URL,
    body?: string,
    signal: AbortSignal | null = this.deadline,
    path = `${url.pathname}${url.search}`,
  ): Promise<Exchange> {
    const headers = this.headers[method];
    const log = this.options.log;
    const started = log ? performance.now() : 0;
    if (log) {
      log(`> ${method} ${url.href}`);
      for (const [name, value] of Object.entries(headers)) log(`> ${name}: ${name === 'authorization' ? 'Bearer [redacted]' : value}`);
    }
    try {
      const response = await exchange(this.dispatcher, { origin: this.origin, path, method, headers, body }, signal, this.limits);
      log?.(`< HTTP ${response.status} (${Math.round(performance.now() - started)} ms, ${Buffer.byteLength(response.text)} bytes)`);
      this.noticeDeprecation(response.headers);
      return response;
    } catch (error) {
      throw this.describeFailure(error, url, signal);
    }
  }

  private describeFailure(error: unknown, url: URL, signal: AbortSignal | null): Error {
    if (error instanceof RequestError) return error;
    if (signal === this.deadline && this.options.signal.aborted) return this.options.signal.reason as Error;
    const host = url.host;
    if (signal?.aborted || isTimeout(error)) {
      return new RequestError(`request to ${host} timed out after ${this.options.timeoutMs} ms`, 'timeout');
    }
    return describeNetworkFailure(error, host, this.proxy);
  }

  private noticeDeprecation(headers: Exchange['headers']): void {
    if (this.warnedDeprecation) return;
    const deprecation = first(headers['deprecation']);
    const sunset = first(headers['sunset']);
    if (!deprecation && !sunset) return;
    this.warnedDeprecation = true;
    const parts: string[] = [];
    if (deprecation) parts.push(`deprecated ${describeDate(deprecation)}`);
    if (sunset) parts.push(`to be removed ${describeDate(sunset)}`);
    this.options.warn(`warning: the service says this endpoint is ${parts.join(', ')}`);
  }

  private expect<T extends z.ZodMiniType>(response: Exchange, ok: readonly number[], schema: T, root: string): z.infer<T> {
    const { status } = response;
    // undici follows no redirect without its redirect interceptor, which is not
    // installed: a redirect could carry the key to another origin.
    if (ok.includes(status)) {
      const data = this.parseBody(response);
      const checked = schema.safeParse(data);
      if (!checked.success) {
        throw new RequestError(`unexpected response (HTTP ${status}): ${describeIssue(checked.error, root)}`, 'unexpected_response', status);
      }
      // The checked value is returned as parsed, not zod's copy, so that key order
      // and unknown fields reach `--json` exactly as the service sent them.
      return data as z.infer<T>;
    }
    if (status >= 300 && status < 400) {
      const location = first(response.headers['location']);
      throw new RequestError(
        `the service answered HTTP ${status} redirecting to ${location ?? '(no Location)'}; redirects are not followed`,
        'redirect',
        status,
      );
    }
    const hint = retryHint(response);
    const parsed = ServiceErrorBody.safeParse(tryParse(response.text));
    if (parsed.success && status >= 400) {
      throw new ServiceError(status, parsed.data.code, parsed.data.message, hint);
    }
    const excerpt = describeBody(response);
    const type = first(response.headers['content-type']);
    const what = `the service answered HTTP ${status}${type ? ` (${type.split(';')[0]})` : ''}: ${excerpt}`;
    if (status >= 400) throw new ServiceError(status, `http_${status}`, excerpt, hint, what);
    throw new RequestError(`unexpected response: ${what}`, 'unexpected_response', status);
  }

  private parseBody(response: Exchange): unknown {
    const type = first(response.headers['content-type']) ?? '';
    if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
      throw new RequestError(
        `unexpected response (HTTP ${response.status}): content type ${type ? `"${type}"` : 'missing'}, not JSON: ${describeBody(response)}`,
        'unexpected_response',
        response.status,
      );
    }
    try {
      return parseJson(response.text);
    } catch {
      throw new RequestError(
        `unexpected response (HTTP ${response.status}): malformed JSON: ${describeBody(response)}`,
        'unexpected_response',
        response.status,
      );
    }
  }
}
