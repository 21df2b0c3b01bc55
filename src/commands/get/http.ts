/** getPet (`GET /pets/{petId}`, deprecated by openapi/petstore.yaml), through the generic client. */
import type { PetstoreClient, SendRequest } from '../../api/client.js';
import { Int64, type OperationSchemas, Pet } from '../../api/schemas.js';
import { OPERATIONS as LIST_OPERATIONS } from '../list/http.js';

/** The operations `get` calls: getPet, and listPets once getPet is gone (find-via-list.ts). */
export const OPERATIONS: readonly OperationSchemas[] = [{ operationId: 'getPet', path: { petId: Int64 }, answer: Pet }, ...LIST_OPERATIONS];

const EXPECTED = { ok: [200], schema: Pet, root: 'pet', notFound: 'pet' } as const;

/** The Pet (200); a missing pet's 404 becomes a ServiceError, others as the client's `expect` says. */
export function getPet(client: PetstoreClient, petId: bigint): Promise<Pet> {
  return client.sendFor({ method: 'GET', path: `pets/${petId}` }, EXPECTED);
}

/**
 * getPet for one of many ids: the URL made from `pets` (the client's URL of `pets/`) for this request alone, as the client keeps each
 * path it is given; `limits` as in SendRequest. Resolves and throws as {@link getPet}.
 */
export function getPetOfMany(
  client: PetstoreClient,
  pets: URL,
  petId: bigint,
  limits: Pick<SendRequest, 'signal' | 'deadlineMs'>,
): Promise<Pet> {
  return client.sendFor({ method: 'GET', path: new URL(String(petId), pets), ...limits }, EXPECTED);
}
