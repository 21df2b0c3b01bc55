/** `petstore list`'s contract for the runner (../runner.ts): its flags checked, listPets' pages, the pet view, the full-page warning. */
import { PetStatus } from '../../api/schemas.js';
import { PETS } from '../../counts.js';
import { LIMIT } from '../../interface-values.js';
import { PET_VIEW } from '../../output/views.js';
import { pagedListing, pagingOf } from '../paged-listing.js';
import { LimitText, type ListPetsQuery, listPetPages } from './http.js';

export interface ListOptions {
  query: ListPetsQuery;
  all: boolean;
}

/** list: listPets' pages (all of them with `--all`) printed as they come; a full last page warns that there may be more. */
export const LIST = pagedListing({
  view: PET_VIEW,
  noun: PETS,
  bounds: LIMIT,
  inputs: { flags: { status: PetStatus, limit: LimitText } },
  options: ({ flags: { status, limit, all } }): ListOptions => {
    // A whole listing in pages of the most one holds: a fifth of the requests of the interface's default.
    const paging = pagingOf(limit, all, LIMIT);
    return { query: { limit: paging.limit, status }, all: paging.all };
  },
  paging: (options) => ({ limit: options.query.limit, all: options.all }),
  // listPetPages keys each pet by its id itself.
  keyOf: null,
  async *pages(client, options, walk) {
    for await (const { pets, hasNext, repeats } of listPetPages(client, options.query, walk)) yield { items: pets, hasNext, repeats };
  },
});
