/** listPets (`GET /pets?limit=&status=`, openapi/petstore.yaml): its query and its answer, through the generic client. */
import * as z from 'zod/mini';
import type { PagesOptions, PetstoreClient } from '../../api/client.js';
import { type OperationSchemas, type Pet, Pets, PetStatus, wholeNumberText } from '../../api/schemas.js';
import { LIMIT } from '../../interface-values.js';

const LIMIT_RANGE = `must be a whole number from ${LIMIT.min} to ${LIMIT.max}`;

/** The `limit` of listPets: a whole number from 1 to 100; above that, the message points to `--all`. */
export const Limit = z
  .number()
  .check(
    z.int(LIMIT_RANGE),
    z.gte(LIMIT.min, LIMIT_RANGE),
    z.lte(LIMIT.max, `${LIMIT_RANGE}, the most one page holds; --all lists every page`),
  );

/** listPets' query: `limit` 1..100 (default 20), optional `status`. */
export const ListPetsQuery = z.strictObject({
  limit: z._default(Limit, LIMIT.default),
  status: z.optional(PetStatus),
});
export type ListPetsQuery = z.infer<typeof ListPetsQuery>;

/** The operations `list` calls (the registry names them for test/openapi-schemas.test.ts). */
export const OPERATIONS: readonly OperationSchemas[] = [{ operationId: 'listPets', query: ListPetsQuery, answer: Pets }];

/** `--limit` text: digits only, then the limit bounds. */
export const LimitText = wholeNumberText(Limit, LIMIT_RANGE);

/** listPets page by page: each Pets array as sent, and whether a next page is linked; throws as PetstoreClient.pages. */
export async function* listPetPages(
  client: PetstoreClient,
  query: ListPetsQuery,
  walk: PagesOptions,
): AsyncGenerator<{ pets: Pet[]; hasNext: boolean }> {
  const params = new URLSearchParams({ limit: String(query.limit) });
  if (query.status) params.set('status', query.status);
  for await (const { items, hasNext } of client.pages(`pets?${params}`, { ok: [200], schema: Pets, root: 'pets' }, walk)) {
    yield { pets: items, hasNext };
  }
}
