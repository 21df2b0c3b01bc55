/**
 * Following RFC 8288 `Link: <url>; rel="next"` from page to page, for
 * `list --all` and `api --paginate`: only on the base URL's origin (the key
 * goes with every request), never to a page already fetched, and for at most
 * {@link MAX_PAGES} pages. Each guard ends the command with an error, never
 * silently.
 */
import { RequestError } from '../errors.js';

/** Most pages followed before the command stops with an error. */
export const MAX_PAGES = 1000;

/** The pages fetched so far, from a first URL. */
export class PageTrail {
  private readonly seen = new Set<string>();
  private page = 1;

  constructor(
    /** The base URL's origin: next links elsewhere are refused. */
    private readonly origin: string,
    first: URL,
  ) {
    this.seen.add(first.href);
  }

  /**
   * Records `next` as the following page and returns it. Throws RequestError
   * (exit 1) when it is on another origin (`cross_origin_link`), repeats a
   * page already fetched (`repeated_page`), or would pass {@link MAX_PAGES}
   * (`too_many_pages`).
   */
  follow(next: URL): URL {
    if (next.origin !== this.origin) {
      throw new RequestError(`refusing to follow the next page link to another origin: ${next.origin}`, 'cross_origin_link');
    }
    if (this.seen.has(next.href)) {
      throw new RequestError(
        `stopped at page ${this.page}: the next page link repeats a page already fetched (${next.href})`,
        'repeated_page',
      );
    }
    if (this.page >= MAX_PAGES) {
      throw new RequestError(`stopped after ${MAX_PAGES} pages: the service still links a next page (${next.href})`, 'too_many_pages');
    }
    this.seen.add(next.href);
    this.page += 1;
    return next;
  }
}
