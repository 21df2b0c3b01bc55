/** HTTP client of the service: one `send` for any path under the base URL, `expect` for a command's zod schema; endpoints live in commands/<name>/http.ts. */
import type { Dispatcher } from 'undici';
import type * as z from 'zod/mini';
import { RequestError } from '../errors.js';
import { BodyReadError, exchange, type Exchange, type ExchangeLimits } from './exchange.js';
import { type KeyOf, PageWalk, Repeats } from './pages.js';
import { deprecationNotice, encodingFailure, parseBody } from './response.js';
import { retryInterceptor } from './retry.js';
import { describeIssue, quickCheckOf } from './schemas.js';
import { failureOf, type NotFound } from './failures.js';
import { describeSendFailure, openDispatcher, type ProxyChoice } from './transport.js';
import type { ClientOptions, SendRequest } from './requests.js';

export type { ClientOptions, SendRequest } from './requests.js';

/** Largest response body read, in bytes (16 MiB). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** What an endpoint call expects of a response; `root` names the body in messages ("pets"). */
export interface Expectation<T extends z.ZodMiniType> {
  ok: readonly number[];
  schema: T;
  root: string;
  /**
   * What a 404 of this operation means ({@link NotFound}): `'route'`, the default, a wrong base URL (exit 1); `{ missing: 'animal' }`,
   * no such item (exit 3), with `routeMayBeGone` for a deprecated route the service may have removed; `'pet'`, getPet's (that, for
   * animals); `'as-sent'`, `petstore api`'s, the service's answer as it is (exit 3).
   */
  notFound?: NotFound;
}

/**
 * How far {@link PetstoreClient.pages} walks: the first page, or with `all` every page; `ahead` asks for each next page early; `keyOf`
 * (a pet's id) drops each item whose key came before, and stops the walk at a page of nothing new that links on ({@link Repeats}).
 */
export interface PagesOptions<T = unknown> {
  all: boolean;
  ahead?: boolean;
  keyOf?: KeyOf<T>;
}

/** One page of {@link PetstoreClient.pages}: its items (without repeats, with `keyOf`), whether it links a next page, and the repeats dropped. */
export interface WalkedPage<T> {
  items: T;
  hasNext: boolean;
  /** Items of this page dropped as passed on before (0 without `keyOf`). */
  repeats: number;
}

/** A request's URL and what each request reads of it: a URL's getters build a new string each time they are read. */
interface Target {
  url: URL;
  origin: string;
  /** Path and query, as the request line has them. */
  path: string;
  host: string;
  href: string;
}

function targetOf(url: URL): Target {
  return { url, origin: url.origin, path: `${url.pathname}${url.search}`, host: url.host, href: url.href };
}

/** Does `headers` name `name` (lower case), in any case? */
function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

export class PetstoreClient {
  private readonly dispatcher: Dispatcher;
  /** The pool or proxy itself, without the retry interceptor: for requests with `retry: false`. */
  private readonly direct: Dispatcher;
  private readonly deadline: AbortSignal;
  /** A Deprecation or Sunset header warns once, and never after {@link silenceDeprecation}. */
  private deprecationWarning = true;
  // Built once: a bulk load sends thousands of requests with the same headers and limits.
  private readonly baseHeaders: Record<string, string>;
  private readonly jsonHeaders: Record<string, string>;
  private readonly urls = new Map<string, URL>();
  /** The {@link Target} of each path sent without a query (a bulk load's thousands of POSTs share one). */
  private readonly targets = new Map<string, Target>();
  private readonly limits: ExchangeLimits;
  /** Origin of the base URL: every request goes there (next-page links are held to it). */
  readonly origin: string;
  private readonly proxy?: ProxyChoice;

  constructor(private readonly options: ClientOptions) {
    const timeout = options.timeoutMs;
    // noDelay among the connect options, besides undici's own setNoDelay once connected: a socket interceptor that opens the real
    // connection in the socket's stead (nock's, the tests' guard) copies the options, not calls made before it connected.
    const timeouts = { connect: { timeout, noDelay: true }, headersTimeout: timeout, bodyTimeout: timeout };
    this.origin = options.baseUrl.origin;
    const { dispatcher: agent, proxy } = options.dispatcher
      ? { dispatcher: options.dispatcher, proxy: undefined }
      : openDispatcher(options.baseUrl, options.env, timeouts);
    this.proxy = proxy;
    this.direct = agent;
    this.dispatcher = agent.compose(retryInterceptor({ retries: options.retries, log: options.log, random: options.random }));
    const left = options.deadlineAt === undefined ? timeout : Math.max(0, Math.ceil(options.deadlineAt - performance.now()));
    this.deadline = AbortSignal.any([options.signal, AbortSignal.timeout(left)]);
    this.baseHeaders = { authorization: `Bearer ${options.apiKey}`, accept: 'application/json', 'user-agent': options.userAgent };
    this.jsonHeaders = { ...this.baseHeaders, 'content-type': 'application/json' };
    const host = options.baseUrl.host;
    const tooLarge = () =>
      new RequestError(`response from ${host} is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB; aborted`, 'body_too_large');
    this.limits = { maxBytes: MAX_BODY_BYTES, tooLarge };
  }

  /** The absolute URL of a path under the base URL (a leading "/" too), parsed once per path and shared: copy before changing it. */
  url(path: string): URL {
    let url = this.urls.get(path);
    if (!url) {
      url = new URL(path.replace(/^\/+/, ''), this.options.baseUrl);
      this.urls.set(path, url);
    }
    return url;
  }

  /**
   * Sends one request and resolves with the response, whatever its status. Throws RequestError for another origin, a network failure, a
   * timeout or a compressed body (`unexpected_encoding`, with the status), the InterruptedError of Ctrl-C, and BodyReadError (wrapping
   * the cause) when the status came but the body could not be read.
   */
  async send(request: SendRequest): Promise<Exchange> {
    const { url, origin, path, host, href } = this.target(request);
    if (origin !== this.origin) throw new RequestError(`refusing to send the API key to another origin: ${origin}`, 'cross_origin');
    const headers = request.headers
      ? { ...(request.body === undefined ? this.baseHeaders : this.jsonHeaders), ...request.headers }
      : request.body === undefined
        ? this.baseHeaders
        : this.jsonHeaders;
    const signal = request.signal === undefined ? this.deadline : request.signal;
    const log = this.options.log;
    const started = log ? performance.now() : 0;
    if (log) {
      log(`> ${request.method} ${href}`);
      for (const [name, value] of Object.entries(headers))
        log(`> ${name}: ${name.toLowerCase() === 'authorization' ? 'Bearer [redacted]' : value}`);
    }
    try {
      const waited = this.options.onWait?.(host);
      const answer = exchange(
        request.retry === false ? this.direct : this.dispatcher,
        { origin: this.origin, path, method: request.method, headers, body: request.body },
        signal,
        this.limits,
        request.deadlineMs,
      );
      const response = await (waited ? answer.finally(waited) : answer);
      response.url = href;
      log?.(`< HTTP ${response.status} (${Math.round(performance.now() - started)} ms, ${Buffer.byteLength(response.text)} bytes)`);
      this.noticeDeprecation(response.headers);
      const encoded = encodingFailure(response, request.headers !== undefined && hasHeader(request.headers, 'accept-encoding'));
      if (encoded) throw encoded;
      return response;
    } catch (error) {
      if (error instanceof BodyReadError) {
        throw new BodyReadError(error.answeredStatus, error.headers, this.describeFailure(error.cause, url, signal));
      }
      throw this.describeFailure(error, url, signal, request.method.toUpperCase());
    }
  }

  /** `request`'s {@link Target}: kept per path when it is a path without a query; the query appended to a copy of the path's URL. */
  private target(request: SendRequest): Target {
    const { path, query } = request;
    if (typeof path === 'string' && !query) {
      let target = this.targets.get(path);
      if (!target) {
        target = targetOf(this.url(path));
        this.targets.set(path, target);
      }
      return target;
    }
    const base = typeof path === 'string' ? this.url(path) : path;
    if (!query) return targetOf(base);
    const url = new URL(base);
    for (const [name, value] of query) url.searchParams.append(name, value);
    return targetOf(url);
  }

  /** Sends `request` and returns its body checked by `expected` ({@link expect}); throws {@link send}'s and {@link expect}'s errors. */
  sendExpecting<T extends z.ZodMiniType>(request: SendRequest, expected: Expectation<T>): Promise<z.infer<T>> {
    // A reaction rather than an async function: a bulk load makes thousands.
    return this.send(request).then((response) => this.expect(response, expected));
  }

  /**
   * Sends `request` and expects a status of `expected.ok` whose body is not read (204 No Content: RFC 9110, section 15.3.5); resolves
   * with that status. Throws {@link send}'s errors, and {@link failureOf}'s for any other status (a 404 as `expected.notFound` says).
   */
  async sendExpectingStatus(request: SendRequest, expected: Omit<Expectation<z.ZodMiniType>, 'schema' | 'root'>): Promise<number> {
    const response = await this.send(request);
    const failure = this.failureOf(response, expected.ok, expected.notFound);
    if (failure) throw failure;
    return response.status;
  }

  /**
   * GETs `first` and, with `all`, its next pages (`ahead`: asked early), each via {@link expect}. A page whose Link cannot be read is
   * passed on, then its ListingStopError thrown; so is a guard's (PageTrail's, {@link Repeats}'); a page after the first that fails, a
   * ListingCutError.
   */
  async *pages<T extends z.ZodMiniType>(
    first: string,
    expected: Expectation<T>,
    { all, ahead = false, keyOf }: PagesOptions<z.infer<T> extends readonly (infer I)[] ? I : never>,
  ): AsyncGenerator<WalkedPage<z.infer<T>>> {
    const walk = this.walk(this.url(first));
    const repeats = keyOf && new Repeats(keyOf);
    for (;;) {
      const response = await walk.fetch();
      // Sent before this page is parsed, so that it travels meanwhile; a page that turns out unreadable leaves it unread.
      if (all && ahead && expected.ok.includes(response.status)) await walk.lookAhead(response);
      let items: z.infer<T>;
      try {
        items = this.expect(response, expected);
      } catch (error) {
        throw walk.cut(error);
      }
      let next: URL | undefined;
      let linkError: unknown;
      try {
        next = walk.nextOf(response);
      } catch (error) {
        linkError = walk.stopHere(error);
      }
      const count = Array.isArray(items) ? items.length : undefined;
      let kept: unknown = items;
      if (repeats && Array.isArray(items)) {
        const fresh = repeats.fresh(items);
        if (all && next && items.length > 0 && fresh.length === 0) throw walk.repeatedPage(next, expected.root);
        kept = fresh;
      }
      const dropped = count === undefined ? 0 : count - (kept as unknown[]).length;
      yield { items: kept as z.infer<T>, hasNext: next !== undefined, repeats: dropped };
      if (linkError) throw linkError;
      if (!all || !next) return;
      walk.advance(response, count);
    }
  }

  /** A {@link PageWalk} of GETs (or `request`) from `first`: each page has its own `--timeout` and stops on Ctrl-C. */
  walk(first: URL, request: Omit<SendRequest, 'path'> = { method: 'GET' }): PageWalk {
    return new PageWalk((r) => this.send(r), this.origin, first, {
      signal: this.options.signal,
      deadlineMs: this.options.timeoutMs,
      ...request,
    });
  }

  /** Ends every request in flight with `reason` (a bulk load's second Ctrl-C, whose POSTs carry no signal); nothing is sent after. */
  async abortAll(reason: Error): Promise<void> {
    this.destroyed = true;
    await this.dispatcher.destroy(reason);
  }

  /** Set by {@link abortAll}: the dispatcher is gone, and closing it again would throw. */
  private destroyed = false;

  /** Silences Deprecation and Sunset header warnings (RFC 9745, RFC 8594), for PETSTORE_NO_DEPRECATION_WARNING=1. */
  silenceDeprecation(): void {
    this.deprecationWarning = false;
  }

  /** Closes the connections (nothing to do after {@link abortAll}). */
  async close(): Promise<void> {
    if (!this.destroyed) await this.dispatcher.close();
  }

  /** The RequestError or ServiceError of an answer outside `ok` (a 404 as `notFound` says: see {@link NotFound}); undefined when in `ok`. */
  failureOf(response: Exchange, ok: readonly number[], notFound: NotFound = 'route'): Error | undefined {
    return failureOf(response, ok, notFound, this.options);
  }

  /** The body, numbers exact, checked by `expected.schema`; throws {@link failureOf}'s error, or RequestError `unexpected_response` if refused. */
  expect<T extends z.ZodMiniType>(response: Exchange, expected: Expectation<T>): z.infer<T> {
    const failure = this.failureOf(response, expected.ok, expected.notFound);
    if (failure) throw failure;
    const data = parseBody(response);
    if (quickCheckOf(expected.schema)?.(data)) return data as z.infer<T>;
    const checked = expected.schema.safeParse(data);
    if (!checked.success) {
      throw new RequestError(
        `unexpected response (HTTP ${response.status}): ${describeIssue(checked.error, expected.root)}`,
        'unexpected_response',
        response.status,
      );
    }
    // The parsed value, not zod's copy: key order and unknown fields reach `--json` as sent.
    return data as z.infer<T>;
  }

  private describeFailure(error: unknown, url: URL, signal: AbortSignal | null, method?: string): Error {
    return describeSendFailure(error, url.host, signal, this.options.timeoutMs, this.proxy, method, this.options.reachHint);
  }

  private noticeDeprecation(headers: Exchange['headers']): void {
    if (!this.deprecationWarning) return;
    const notice = deprecationNotice(headers);
    if (!notice) return;
    this.deprecationWarning = false;
    this.options.warn(notice, 'deprecated_endpoint');
  }
}
