/** createPet (`POST /pets` with a NewPet body, openapi/petstore.yaml), through the generic client. */
import type { PetstoreClient, SendRequest } from '../../api/client.js';
import { NewPet, type OperationSchemas, Pet } from '../../api/schemas.js';
import { escapeRawControls } from '../../json.js';

/** The operation `add` calls, with and without --file. */
export const OPERATIONS: readonly OperationSchemas[] = [{ operationId: 'createPet', body: NewPet, answer: Pet }];

const CREATED = { ok: [201, 200], schema: Pet, root: 'pet' } as const;

/** POSTs `pet` and returns the created Pet (201, or 200). Never retried once sent; `limits` as in {@link SendRequest}. */
export function createPet(client: PetstoreClient, pet: NewPet, limits: Pick<SendRequest, 'signal' | 'deadlineMs'> = {}): Promise<Pet> {
  return client.sendExpecting({ method: 'POST', path: 'pets', body: newPetJson(pet), ...limits }, CREATED);
}

/**
 * `pet` as compact JSON: the text stringifyJson writes of it, keys in NewPet's order as every NewPet is built (plainNewPet, NewPet's
 * parse, add's flags), without the copy of the object stringifyJson makes to write a bigint (test/properties.test.ts).
 */
export function newPetJson(pet: NewPet): string {
  const status = pet.status === undefined ? '' : `,"status":${JSON.stringify(pet.status)}`;
  return `{"name":${escapeRawControls(JSON.stringify(pet.name))},"categoryId":${pet.categoryId}${status}}`;
}
