/** getPet (`GET /pets/{petId}`, deprecated by openapi/petstore.yaml), through the generic client. */
import type { PetstoreClient } from '../../api/client.js';
import { Pet } from '../../api/schemas.js';

/** The Pet (200); a missing pet's 404 becomes a ServiceError, others as the client's `expect` says. */
export function getPet(client: PetstoreClient, petId: bigint): Promise<Pet> {
  return client.sendFor({ method: 'GET', path: `pets/${petId}` }, { ok: [200], schema: Pet, root: 'pet', notFound: 'pet' });
}
