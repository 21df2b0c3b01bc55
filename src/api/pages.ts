/**
 * Following RFC 8288 `Link: <url>; rel="next"` (`list --all`, `api --paginate`): only on the base URL's origin (the key goes with every
 * request), never to a page already fetched, at most {@link MAX_PAGES}; each guard ends the command with an error.
 */
import { RequestError } from '../errors.js';

export const MAX_PAGES = 1000;

export class PageTrail {
  private readonly seen = new Set<string>();
  private page = 1;

  constructor(
    private readonly origin: string,
    first: URL,
  ) {
    this.seen.add(first.href);
  }

  /** Records and returns `next`. Throws RequestError (exit 1): `cross_origin_link`, `repeated_page` or `too_many_pages`. */
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
