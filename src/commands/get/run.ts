/** `petstore get`'s contract for the runner (../runner.ts): the argument checked, the pet fetched (through listPets once getPet is gone). */
import type { PetstoreClient } from '../../api/client.js';
import { Int64Text, type Pet } from '../../api/schemas.js';
import type { Factory } from '../../factory.js';
import { GET_PET_REMOVAL_DATE } from '../../interface-values.js';
import { PET_VIEW } from '../../output/views.js';
import { record } from '../runner.js';
import { findPetViaList, isGetPetGone, LookupProgress, VIA_LIST_FORCED, VIA_LIST_GONE } from './find-via-list.js';
import { getPet } from './http.js';

/** Printed on every call unless PETSTORE_NO_DEPRECATION_WARNING=1 ("Versioning", item 2): what changes, and how to silence it. */
export const GET_DEPRECATION_WARNING = `getPet is deprecated, removed ${GET_PET_REMOVAL_DATE}; after that, get reads listPets pages to find the pet. PETSTORE_NO_DEPRECATION_WARNING=1 silences this`;

export interface GetOptions {
  petId: bigint;
}

/** get: one pet, with getPet's deprecation warning. The argument must be an int64 in digits (else UsageError). */
export const GET = record({
  shape: 'record',
  view: PET_VIEW,
  inputs: { arguments: [['argument <petId>', Int64Text]] as const },
  options: ({ arguments: [petId] }): GetOptions => ({ petId }),
  fetch: (client, options, f) => fetchPet(f, client, options),
});

/** Warns and fetches the pet (getPet; listPets with PETSTORE_GET_VIA_LIST=1 or once getPet is gone). Throws their errors, or exit 3. */
async function fetchPet(f: Factory, client: PetstoreClient, options: GetOptions): Promise<Pet> {
  if (f.env.PETSTORE_NO_DEPRECATION_WARNING === '1') client.silenceDeprecation();
  const viaList = f.env.PETSTORE_GET_VIA_LIST === '1';
  let pet = viaList ? undefined : await getPetUnlessGone(f, client, options.petId);
  if (pet === undefined) {
    if (viaList) f.io.warn(VIA_LIST_FORCED, 'get_via_list');
    // The lookup may read the whole store: --timeout bounds each page, not the whole command.
    f.timeoutEachRequest();
    f.growHeapSlowly();
    const progress = new LookupProgress(f.io, options.petId);
    try {
      pet = await findPetViaList(client, options.petId, (counts) => {
        if (counts.pages === 1 && !viaList) f.io.warn(VIA_LIST_GONE, 'get_via_list');
        progress.update(counts);
      });
    } finally {
      progress.stop();
    }
  }
  return pet;
}

/** getPet's Pet, or undefined when the service has no getPet any more. */
async function getPetUnlessGone(f: Factory, client: PetstoreClient, petId: bigint): Promise<Pet | undefined> {
  if (f.env.PETSTORE_NO_DEPRECATION_WARNING !== '1') f.io.warn(GET_DEPRECATION_WARNING, 'deprecated_operation');
  try {
    return await getPet(client, petId);
  } catch (error) {
    if (isGetPetGone(error)) return undefined;
    throw error;
  }
}
