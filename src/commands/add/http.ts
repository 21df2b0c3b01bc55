/** createPet (`POST /pets` with a NewPet body, openapi/petstore.yaml), through the generic client. */
import type { PetstoreClient, SendRequest } from '../../api/client.js';
import { NewPet, type OperationSchemas, Pet } from '../../api/schemas.js';
import { stringifyJson } from '../../json.js';

/** The operation `add` calls, with and without --file. */
export const OPERATIONS: readonly OperationSchemas[] = [{ operationId: 'createPet', body: NewPet, answer: Pet }];

/** POSTs `pet` and returns the created Pet (201, or 200). Never retried once sent; `limits` as in {@link SendRequest}. */
export function createPet(client: PetstoreClient, pet: NewPet, limits: Pick<SendRequest, 'signal' | 'deadlineMs'> = {}): Promise<Pet> {
  return client.sendExpecting(
    { method: 'POST', path: 'pets', body: stringifyJson(pet), ...limits },
    { ok: [201, 200], schema: Pet, root: 'pet' },
  );
}
