/**
 * Following RFC 8288 `Link: <url>; rel="next"` (`list --all`, `api --paginate`, `get`'s listPets fallback) until the service links no
 * next page: only on the base URL's origin (the key goes with every request), never to a page already fetched, and not past
 * {@link MAX_EMPTY_RUN} empty pages in a row that still link a next one. Each guard stops a loop, never a large store: it ends the
 * command with an error. A listing that fails partway reports what it printed and the page it stopped at (errors.ts PartialOutput).
 */
import { CliError, type PartialOutput, RequestError } from '../errors.js';

/** Empty pages in a row, each linking a next one, after which a listing stops (a service looping on nothing). */
export const MAX_EMPTY_RUN = 3;

export class PageTrail {
  // A page's URL is kept as its href: 100 bytes or so a page, 10,000 pages for a million pets at 100 a page.
  private readonly seen = new Set<string>();
  private page = 1;
  private emptyRun = 0;

  constructor(
    private readonly origin: string,
    first: URL,
  ) {
    this.seen.add(first.href);
  }

  /** Pages fetched so far, counting the first. */
  get pages(): number {
    return this.page;
  }

  /**
   * Records and returns `next`, linked by a page that held `items` items (undefined when the page is not a list). Throws RequestError
   * (exit 1): `cross_origin_link`, `repeated_page`, or `empty_pages` after {@link MAX_EMPTY_RUN} empty pages in a row.
   */
  follow(next: URL, items?: number): URL {
    if (next.origin !== this.origin) {
      throw new RequestError(`refusing to follow the next page link to another origin: ${next.origin}`, 'cross_origin_link');
    }
    if (this.seen.has(next.href)) {
      throw new RequestError(
        `stopped at page ${this.page}: the next page link repeats a page already fetched (${next.href})`,
        'repeated_page',
      );
    }
    this.emptyRun = items === 0 ? this.emptyRun + 1 : 0;
    if (this.emptyRun >= MAX_EMPTY_RUN) {
      throw new RequestError(
        `stopped at page ${this.page}: ${MAX_EMPTY_RUN} empty pages in a row, each linking another (${next.href})`,
        'empty_pages',
      );
    }
    this.seen.add(next.href);
    this.page += 1;
    return next;
  }
}

/** The codes of {@link PageTrail}'s stops: the link they refused is no page to go on from. */
const GUARD_CODES = new Set(['cross_origin_link', 'repeated_page', 'empty_pages']);

/**
 * Returns `error` with `partial` attached when it is a CliError without one (without `next` when a guard of {@link PageTrail}
 * stopped the listing); anything else as it is.
 */
export function withPartialOutput(error: unknown, partial: PartialOutput): unknown {
  if (!(error instanceof CliError) || error.partial !== undefined) return error;
  error.partial = GUARD_CODES.has(error.code) ? { printed: partial.printed, what: partial.what } : partial;
  return error;
}
