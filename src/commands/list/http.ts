/** listPets (`GET /pets?limit=&status=`, openapi/petstore.yaml): its query and its answer, through the generic client. */
import * as z from 'zod/mini';
import type { PagesOptions, PetstoreClient } from '../../api/client.js';
import { int64Of, type OperationSchemas, type Pet, Pets, PetStatus, wholeNumberText } from '../../api/schemas.js';
import { LIMIT } from '../../interface-values.js';

const LIMIT_RANGE = `must be a whole number from ${LIMIT.min} to ${LIMIT.max}`;

/** The `limit` of listPets: a whole number from 1 to 100. */
export const Limit = z.number().check(z.int(LIMIT_RANGE), z.gte(LIMIT.min, LIMIT_RANGE), z.lte(LIMIT.max, LIMIT_RANGE));

/** listPets' query: `limit` 1..100 (default 20), optional `status`. */
export const ListPetsQuery = z.strictObject({
  limit: z._default(Limit, LIMIT.default),
  status: z.optional(PetStatus),
});
export type ListPetsQuery = z.infer<typeof ListPetsQuery>;

/** The operations `list` calls (the registry names them for test/openapi-schemas.test.ts). */
export const OPERATIONS: readonly OperationSchemas[] = [{ operationId: 'listPets', query: ListPetsQuery, answer: Pets }];

/**
 * `--limit` text: digits only, at least 1. Above 100 the options refuse it (`pagingOf` of ../paged-listing.ts), which knows whether
 * `--all` was given: without it, the message points to it.
 */
export const LimitText = wholeNumberText(z.number().check(z.int(LIMIT_RANGE), z.gte(LIMIT.min, LIMIT_RANGE)), LIMIT_RANGE);

/** A pet's id as the key of {@link listPetPages}' repeats: a number or bigint as parsed (`1.0` as its bigint). */
export const petKey = (pet: Pet): number | bigint => (typeof pet.id === 'object' ? int64Of(pet.id) : pet.id);

/**
 * listPets page by page: each page's pets as sent, but those already passed on (by id: the store changed while it was read), whether a
 * next page is linked, and how many repeats were dropped; throws as PetstoreClient.pages, a page of nothing new that links on included.
 */
export async function* listPetPages(
  client: PetstoreClient,
  query: ListPetsQuery,
  walk: Omit<PagesOptions, 'keyOf'>,
): AsyncGenerator<{ pets: Pet[]; hasNext: boolean; repeats: number }> {
  const params = new URLSearchParams({ limit: String(query.limit) });
  if (query.status) params.set('status', query.status);
  const pages = client.pages(`pets?${params}`, { ok: [200], schema: Pets, root: 'pets' }, { ...walk, keyOf: petKey });
  for await (const { items, hasNext, repeats } of pages) yield { pets: items, hasNext, repeats };
}
