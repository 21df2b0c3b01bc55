/**
 * Following RFC 8288 `Link: <url>; rel="next"` until the service links no next page: no cap, only guards against a loop (another
 * origin, a page already fetched, {@link MAX_EMPTY_PAGES} empty pages in a row that link on), each an error.
 */
import { CliError, InterruptedError, ListingCutError, RequestError } from '../errors.js';
import type { Exchange } from './exchange.js';
import type { SendRequest } from './requests.js';
import { nextLink } from './response.js';

/** Empty pages in a row, each still linking a next page, after which a listing stops. */
export const MAX_EMPTY_PAGES = 3;

const EMPTY_ARRAY = /^\s*\[\s*\]\s*$/;

export class PageTrail {
  // Every href followed: a Set of 50,000 links (1,000,000 pets at limit 20) holds a few MiB.
  private readonly seen = new Set<string>();
  private emptyInRow = 0;
  /** The page number of the last page followed (1: the first). */
  page = 1;

  constructor(
    private readonly origin: string,
    first: URL,
  ) {
    this.seen.add(first.href);
  }

  /**
   * Records and returns `next`, the link of a page that held `items` items (undefined: not a list). Throws RequestError (exit 1):
   * `cross_origin_link`, `repeated_page`, or `empty_pages` after {@link MAX_EMPTY_PAGES} empty pages in a row that linked a next page.
   */
  follow(next: URL, items?: number): URL {
    this.check(next, items);
    this.emptyInRow = items === 0 ? this.emptyInRow + 1 : 0;
    this.seen.add(next.href);
    this.page += 1;
    return next;
  }

  /** Would {@link follow} take `next`? Nothing is recorded. */
  accepts(next: URL, items?: number): boolean {
    try {
      this.check(next, items);
      return true;
    } catch {
      return false;
    }
  }

  private check(next: URL, items?: number): void {
    if (next.origin !== this.origin) {
      throw new RequestError(`refusing to follow the next page link to another origin: ${next.origin}`, 'cross_origin_link');
    }
    if (this.seen.has(next.href)) {
      throw new RequestError(
        `stopped at page ${this.page}: the next page link repeats a page already fetched (${next.href})`,
        'repeated_page',
      );
    }
    if (items === 0 && this.emptyInRow + 1 >= MAX_EMPTY_PAGES) {
      throw new RequestError(
        `stopped at page ${this.page}: ${MAX_EMPTY_PAGES} pages in a row were empty yet linked a next page (${next.href})`,
        'empty_pages',
      );
    }
  }
}

/**
 * One walk along a listing's pages: {@link fetch} sends the current page's request, {@link advance} follows its next link; a failure
 * of a page after the first becomes a {@link ListingCutError} naming its link ({@link cut}).
 */
export class PageWalk {
  private readonly trail: PageTrail;
  /** The request {@link lookAhead} sent for the next page, and that page's link. */
  private ahead?: { href: string; answer: Promise<Exchange> };
  /** The last page's answer and its next link ({@link nextOf}). */
  private linked?: { response: Exchange; next: URL | undefined };
  /** The link of the page to fetch next. */
  url: URL;

  constructor(
    private readonly send: (request: SendRequest) => Promise<Exchange>,
    origin: string,
    first: URL,
    private readonly request: Omit<SendRequest, 'path'>,
  ) {
    this.url = first;
    this.trail = new PageTrail(origin, first);
  }

  /** The page number of {@link url} (1: the first). */
  get page(): number {
    return this.trail.page;
  }

  /** The current page's answer (the one {@link lookAhead} sent, if it did), whatever its status; throws what `send` throws, through {@link cut}. */
  async fetch(): Promise<Exchange> {
    const ahead = this.ahead?.href === this.url.href ? this.ahead.answer : undefined;
    this.ahead = undefined;
    try {
      return await (ahead ?? this.send({ ...this.request, path: this.url }));
    } catch (error) {
      throw this.cut(error);
    }
  }

  /**
   * Sends the request for the page `response` links as next (unless {@link advance} would refuse it) and resolves once it has left,
   * so that it travels while this page is printed; {@link fetch} takes its answer. Never rejects.
   */
  async lookAhead(response: Exchange): Promise<void> {
    let next: URL | undefined;
    try {
      next = this.nextOf(response);
    } catch {
      return;
    }
    // The page is not parsed yet: an empty array is told by its text, so that the last empty page allowed asks for nothing more.
    if (!next || !this.trail.accepts(next, EMPTY_ARRAY.test(response.text) ? 0 : undefined)) return;
    const answer = this.send({ ...this.request, path: next });
    // Read by fetch; a walk that stops before (an error, Ctrl-C) must not leave an unhandled rejection.
    answer.catch(() => undefined);
    this.ahead = { href: next.href, answer };
    // undici writes a request on a later turn of the event loop: without this turn it would leave only once this page was printed.
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** Moves to the page `response` links as next, which held `items` items (undefined: not a list); false when it links none. Throws PageTrail's RequestError. */
  advance(response: Exchange, items?: number): boolean {
    const next = this.nextOf(response);
    if (!next) return false;
    this.url = this.trail.follow(next, items);
    return true;
  }

  /** The `rel="next"` link of the current page's `response` (parsed once), or undefined; throws nextLink's RequestError. */
  nextOf(response: Exchange): URL | undefined {
    if (this.linked?.response !== response) this.linked = { response, next: nextLink(response.headers, this.url) };
    return this.linked.next;
  }

  /** `error` of reading the current page: after the first page a CliError becomes a ListingCutError (not Ctrl-C); else as it is. */
  cut(error: unknown): unknown {
    if (this.page === 1 || !(error instanceof CliError) || error instanceof InterruptedError || error instanceof ListingCutError)
      return error;
    return new ListingCutError(error, this.page, this.url.href);
  }
}
