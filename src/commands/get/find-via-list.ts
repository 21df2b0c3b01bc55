/**
 * `get` after getPet's removal: the interface names listPets as its
 * replacement, which has no id parameter, so the pet is found by reading the
 * catalogue page by page (openapi/petstore.yaml, listPets and getPet).
 */
import type { PetstoreClient } from '../../api/client.js';
import { LIMIT } from '../../interface-values.js';
import { type Pet, wholeInt64 } from '../../api/schemas.js';
import { listPetPages } from '../list/http.js';
import { CliError, ExitCode, RequestError, ServiceError } from '../../errors.js';

/** The warning when PETSTORE_GET_VIA_LIST=1 chooses this way. */
export const VIA_LIST_FORCED = `PETSTORE_GET_VIA_LIST=1: looking the pet up through listPets, page by page (limit ${LIMIT.max}), instead of getPet`;

/** The warning when the service answered that getPet is gone. */
export const VIA_LIST_GONE = `getPet has been removed from the service; looking the pet up through listPets, page by page (limit ${LIMIT.max}), which reads the catalogue`;

/**
 * Does this error of getPet say that the service no longer has getPet? Yes
 * for a 410 (Gone), and for a 404 that the 404 rule reads as a route the
 * service does not have (RequestError `no_such_path`), not a missing animal.
 */
export function isGetPetGone(error: unknown): boolean {
  if ((error instanceof ServiceError || error instanceof RequestError) && error.status === 410) return true;
  return error instanceof RequestError && error.code === 'no_such_path' && error.status === 404;
}

/** A Pet's id as a bigint (ids written `1.0` or `1e2` are whole numbers too), or undefined. */
function idOf(pet: Pet): bigint | undefined {
  return typeof pet.id === 'bigint' ? pet.id : wholeInt64(pet.id.source);
}

/**
 * Follows listPets' pages (limit 100, next-page links as `list --all` does)
 * until a pet has `petId`, compared exactly as int64; calls `onFirstPage`
 * once listPets has answered (so that a service without listPets either, a
 * wrong base URL, is reported as that alone). Returns that Pet as the
 * service sent it. Throws a CliError with exit 3 (`not_found`) when no page
 * holds it, and what listPets throws (RequestError, ServiceError) otherwise.
 */
export async function findPetViaList(client: PetstoreClient, petId: bigint, onFirstPage: () => void): Promise<Pet> {
  let pages = 0;
  let read = 0;
  let lastFull = false;
  for await (const { pets, hasNext } of listPetPages(client, { limit: LIMIT.max }, true)) {
    if (pages === 0) onFirstPage();
    pages += 1;
    read += pets.length;
    const found = pets.find((pet) => idOf(pet) === petId);
    if (found) return found;
    lastFull = pets.length >= LIMIT.max && !hasNext;
  }
  const where = `${pages === 1 ? '1 page' : `${pages} pages`} of listPets (${read === 1 ? '1 pet' : `${read} pets`})`;
  throw new CliError(
    `no animal with id ${petId}: none on the ${where}`,
    ExitCode.notFound,
    'not_found',
    lastFull ? 'the last page was full and the service linked no next page: it may hold pets that listPets does not show' : undefined,
  );
}
