/**
 * Following RFC 8288 `Link: <url>; rel="next"` until the service links no next page: no cap, only guards against a loop, each an error
 * that keeps what was printed ({@link ListingStopError}): another origin, a link among the last {@link RECENT_LINKS} followed, a page of
 * items all printed before that links on ({@link Repeats}: a link that changes on every page, `?nonce=N`, over the same pets), and
 * {@link MAX_EMPTY_PAGES} empty pages in a row that link on.
 */
import { CliError, InterruptedError, isCutListing, ListingCutError, ListingStopError, RequestError } from '../errors.js';
import type { Exchange } from './exchange.js';
import { Int64Set } from './int64-set.js';
import type { SendRequest } from './requests.js';
import { nextLink } from './response.js';

/** Empty pages in a row, each still linking a next page, after which a listing stops. */
export const MAX_EMPTY_PAGES = 3;

/**
 * Links kept to refuse one followed again: the last few, not all (a link that changes on every page would grow the list without end);
 * a loop over longer ones repeats its items, which {@link Repeats} stops.
 */
export const RECENT_LINKS = 16;

const EMPTY_ARRAY = /^\s*\[\s*\]\s*$/;

export class PageTrail {
  /** The last {@link RECENT_LINKS} hrefs followed, oldest first. */
  private readonly recent: string[] = [];
  private emptyInRow = 0;
  /** The page number of the last page followed (1: the first). */
  page = 1;

  constructor(
    private readonly origin: string,
    first: URL,
  ) {
    this.recent.push(first.href);
  }

  /**
   * Records and returns `next`, the link of a page that held `items` items (undefined: not a list). Throws ListingStopError (exit 1):
   * `cross_origin_link`, `repeated_page`, or `empty_pages` after {@link MAX_EMPTY_PAGES} empty pages in a row that linked a next page.
   */
  follow(next: URL, items?: number): URL {
    this.check(next, items);
    this.emptyInRow = items === 0 ? this.emptyInRow + 1 : 0;
    if (this.recent.push(next.href) > RECENT_LINKS) this.recent.shift();
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
      throw new ListingStopError(`refusing to follow the next page link to another origin: ${next.origin}`, 'cross_origin_link', this.page);
    }
    if (this.recent.includes(next.href)) {
      throw new ListingStopError(`the next page link repeats a page already fetched (${next.href})`, 'repeated_page', this.page, next.href);
    }
    if (items === 0 && this.emptyInRow + 1 >= MAX_EMPTY_PAGES) {
      throw new ListingStopError(
        `${MAX_EMPTY_PAGES} pages in a row were empty yet linked a next page (${next.href})`,
        'empty_pages',
        this.page,
        next.href,
      );
    }
  }
}

/** An int64 key of a listing's item (a pet's id), or undefined for an item without one. */
export type KeyOf<T> = (item: T) => number | bigint | undefined;

/**
 * The keys of the items a walk has passed on, so that none is printed twice when the store changes while it is read (another writer
 * inserts at the front of offset pages), in an {@link Int64Set}: under a byte a key for consecutive ids, 11 to 22 bytes for ids far apart.
 */
export class Repeats<T> {
  private readonly seen = new Int64Set();

  constructor(private readonly keyOf: KeyOf<T>) {}

  /** The items of `items` whose key was not passed on before (and those without a key), in order; each key is then passed on. */
  fresh(items: readonly T[]): T[] {
    const kept: T[] = [];
    for (const item of items) {
      const key = this.keyOf(item);
      if (key === undefined || this.seen.add(key)) kept.push(item);
    }
    return kept;
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

  /** Moves to the page `response` links as next, which held `items` items (undefined: not a list); false when it links none. Throws PageTrail's ListingStopError. */
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

  /** `error` of reading the current page: after the first page a CliError becomes a ListingCutError (not Ctrl-C, nor a guard's stop). */
  cut(error: unknown): unknown {
    if (this.page === 1 || !(error instanceof CliError) || error instanceof InterruptedError || isCutListing(error)) return error;
    return new ListingCutError(error, this.page, this.url.href);
  }

  /** `error` of reading the Link header of a page that arrived whole ({@link nextOf}), as the stop of the walk at this page. */
  stopHere(error: unknown): unknown {
    if (!(error instanceof RequestError) || isCutListing(error)) return error;
    return new ListingStopError(error.message, error.code, this.page);
  }

  /**
   * The stop at this page, which held `noun` ("pets") all passed on before and links `next`: its pages go round (a link that changes
   * on every page), or the store changed by a page or more while it was read.
   */
  repeatedPage(next: URL, noun: string): ListingStopError {
    return new ListingStopError(
      `every one of its ${noun} came on an earlier page, yet it links another page (${next.href}): the service repeats its pages, or the store changed by a page or more while it was read`,
      'repeated_page',
      this.page,
      next.href,
    );
  }
}
