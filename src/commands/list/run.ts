/** `petstore list`'s contract for the runner (../runner.ts): its flags checked, listPets' pages, the pet view, the full-page warning. */
import { PetStatus } from '../../api/schemas.js';
import { LIMIT } from '../../interface-values.js';
import { PET_VIEW } from '../../output/views.js';
import { petCount } from '../../text.js';
import { type ListingEnd, listing } from '../runner.js';
import { LimitText, type ListPetsQuery, listPetPages } from './http.js';

export interface ListOptions {
  query: ListPetsQuery;
  all: boolean;
}

/** list: listPets' pages (all of them with `--all`) printed as they come; a full last page warns that there may be more. */
export const LIST = listing({
  shape: 'records',
  view: PET_VIEW,
  inputs: { flags: { status: PetStatus, limit: LimitText } },
  options: ({ flags: { status, limit, all } }): ListOptions => ({
    // A whole listing in pages of the most one holds: a fifth of the requests of the interface's default.
    query: { limit: limit ?? (all ? LIMIT.max : LIMIT.default), status },
    all: all === true,
  }),
  readsWholeListing: (options) => options.all,
  async *fetch(client, options) {
    for await (const { pets, hasNext, repeats } of listPetPages(client, options.query, { all: options.all, ahead: true })) {
      yield { items: pets, hasNext, repeats };
    }
  },
  // A full page may not be the end when the service links no pages; a next link not followed (no --all) is not. A service that linked
  // pages ends its listing by linking none.
  fullPage: (options, end) =>
    (end.pages === 1 && end.lastLength >= options.query.limit) || end.hasNext ? fullPageWarning(options, end) : undefined,
  count: petCount,
});

function fullPageWarning({ query: { limit }, all }: ListOptions, last: ListingEnd): string {
  if (last.hasNext) return `showing one page of ${petCount(last.lastLength)}; the service has more: --all fetches every page`;
  const where = all ? 'the last page held' : 'showing';
  return limit < LIMIT.max
    ? `${where} ${petCount(limit)}, as many as --limit ${limit} asks for; the service may have more: try --limit ${LIMIT.max}`
    : `${where} ${petCount(limit)}, the most one page holds; the service may have more but sent no next-page link`;
}
