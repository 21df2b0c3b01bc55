/** getPet (`GET /pets/{petId}`, deprecated by openapi/petstore.yaml), through the generic client. */
import type { PetstoreClient } from '../../api/client.js';
import { Int64, type OperationSchemas, Pet } from '../../api/schemas.js';
import { OPERATIONS as LIST_OPERATIONS } from '../list/http.js';

/** The operations `get` calls: getPet, and listPets once getPet is gone (find-via-list.ts). */
export const OPERATIONS: readonly OperationSchemas[] = [{ operationId: 'getPet', path: { petId: Int64 }, answer: Pet }, ...LIST_OPERATIONS];

/** The Pet (200); a missing pet's 404 becomes a ServiceError, others as the client's `expect` says. */
export function getPet(client: PetstoreClient, petId: bigint): Promise<Pet> {
  return client.sendExpecting({ method: 'GET', path: `pets/${petId}` }, { ok: [200], schema: Pet, root: 'pet', notFound: 'pet' });
}
