/**
 * A listing read page by page as listPets is (`limit` per page, next-page links): its contract for the runner from the operation's pages,
 * with `--all`'s whole listing, and the warning of a full page in the command's own noun. Its flags: `withPagingFlags` (kit.ts).
 */
import type { PagesOptions, PetstoreClient } from '../api/client.js';
import type { KeyOf } from '../api/pages.js';
import type { Item } from '../output/render.js';
import { UsageError } from '../errors.js';
import { countOf, type Noun } from '../counts.js';
import { type Inputs, type ListingContract, type ListingEnd, listing, type Page } from './runner.js';

/** What a listing holds, as its counts and warnings say it (counts.ts). */
export { countOf, type Noun } from '../counts.js';

/** The `limit` of a listing's operation: its bounds, and the default the service applies (listPets: 1 to 100, default 20). */
export interface LimitBounds {
  min: number;
  max: number;
  default: number;
}

/** How a paged listing reads: `limit` records a page, and with `all` every next page. */
export interface Paging {
  limit: number;
  all: boolean;
}

/**
 * `--limit` and `--all` as checked to a Paging: without `--limit`, the most a page holds with `--all` (fewer requests), else the default.
 * Throws UsageError for a limit above `bounds.max`, pointing to `--all` where it was not given.
 */
export function pagingOf(limit: number | undefined, all: unknown, bounds: LimitBounds): Paging {
  if (limit !== undefined && limit > bounds.max) {
    const pointer = all === true ? '' : '; --all lists every page';
    throw new UsageError(
      `invalid value for --limit: "${limit}": must be a whole number from ${bounds.min} to ${bounds.max}, the most one page holds${pointer}`,
    );
  }
  return { limit: limit ?? (all === true ? bounds.max : bounds.default), all: all === true };
}

/** A paged listing's declaration: a listing's, less what the helper says (its shape, fetch, whole listing, full-page warning, count). */
export interface PagedDeclared<I extends Inputs, O>
  extends Omit<ListingContract<I, O>, 'shape' | 'fetch' | 'read' | 'readsWholeListing' | 'fullPage' | 'count'> {
  /** What the records are, for counts and the full-page warning. */
  noun: Noun;
  /** The operation's `limit` bounds: the warning suggests `--limit max`. */
  bounds: LimitBounds;
  /** The options' Paging (often the options themselves). */
  paging(options: O): Paging;
  /**
   * Each record's identity (its id, a number or bigint as parsed), so that no record prints twice when the collection changes while
   * it is read, and a page of nothing new that links on ends the walk (`client.pages`' `keyOf`); null only for records without one.
   */
  keyOf: KeyOf<Item> | null;
  /**
   * The operation's pages as the client walks them: `client.pages(path, { ok: [200], schema, root }, walk)` (`walk` carries
   * {@link keyOf}); throws the client's errors (a ListingCutError for a page after the first).
   */
  pages(client: PetstoreClient, options: O, walk: PagesOptions<Item>): AsyncIterable<Page>;
}

/**
 * The contract of a paged listing (shape `records`): the pages `declared.pages` reads (every one with `--all`, each next page asked for
 * while the last is printed, `--timeout` per page), then a warning when a full page may not be the end, in `declared.noun`'s words.
 */
export function pagedListing<I extends Inputs, O>(declared: PagedDeclared<I, O>): ListingContract<I, O> {
  const { noun, bounds, paging, pages, keyOf, ...rest } = declared;
  const count = countOf(noun);
  return listing<I, O>({
    ...rest,
    shape: 'records',
    readsWholeListing: (options) => paging(options).all,
    async *fetch(client, options) {
      yield* pages(client, options, { all: paging(options).all, ahead: true, ...(keyOf ? { keyOf } : {}) });
    },
    // A full page may not be the end when the service links no pages; a next link not followed (no --all) is not. A service that linked
    // pages ends its listing by linking none.
    fullPage: (options, end) => {
      const asked = paging(options);
      return (end.pages === 1 && end.lastLength >= asked.limit) || end.hasNext ? fullPageWarning(count, bounds, asked, end) : undefined;
    },
    count,
  });
}

function fullPageWarning(count: (n: number) => string, bounds: LimitBounds, { limit, all }: Paging, last: ListingEnd): string {
  if (last.hasNext) return `showing one page of ${count(last.lastLength)}; the service has more: --all fetches every page`;
  const where = all ? 'the last page held' : 'showing';
  return limit < bounds.max
    ? `${where} ${count(limit)}, as many as --limit ${limit} asks for; the service may have more: try --limit ${bounds.max}`
    : `${where} ${count(limit)}, the most one page holds; the service may have more but sent no next-page link`;
}
