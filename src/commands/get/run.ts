/** `petstore get`'s contract for the runner (../runner.ts): the ids checked; one pet fetched here, several streamed by ./many.ts. */
import * as z from 'zod/mini';
import type { PetstoreClient } from '../../api/client.js';
import { Int64Text, type Pet } from '../../api/schemas.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { CONCURRENCY } from '../../flag-bounds.js';
import { PET_VIEW } from '../../output/views.js';
import { parseWholeNumber } from '../parse-flag.js';
import { record } from '../runner.js';
import { deprecationSilenced, warnGetDeprecated } from './deprecation.js';
import { findPetViaList, isGetPetGone, LookupProgress, VIA_LIST_FORCED, VIA_LIST_GONE } from './find-via-list.js';
import { getPet } from './http.js';

export { GET_DEPRECATION_WARNING, SILENCE_HINT } from './deprecation.js';

/** The word of `get -`: the ids come from standard input. */
export const STDIN_WORD = '-';

/** One word of get's arguments: an int64 in decimal digits (Int64Text's messages), or "-". */
const PetIdWord = z.string().check(
  z.superRefine((text, context) => {
    if (text === STDIN_WORD) return;
    const checked = Int64Text.safeParse(text);
    if (!checked.success) context.addIssue({ code: 'custom', message: checked.error.issues[0]?.message ?? 'not an int64', input: text });
  }),
);

export interface GetOptions {
  /** The ids of the command line in their order, repeats kept; or `stdin` for `get -`. */
  ids: bigint[] | 'stdin';
  /** Requests in flight at once for several ids (CONCURRENCY's bounds). */
  concurrency: number;
}

/** Several ids, or `-`: streamed by ./many.ts, printed as records. One id is today's `get`. */
export function isMany(options: GetOptions): boolean {
  return options.ids === 'stdin' || options.ids.length > 1;
}

/** get: one pet as a record, with getPet's deprecation warning; several ids, or `-`, as records in their order (./many.ts). */
export const GET = record({
  shape: 'record',
  shapeOf: (options: GetOptions) => (isMany(options) ? 'records' : 'record'),
  view: PET_VIEW,
  inputs: { arguments: [['argument <petId>', PetIdWord, 'variadic']] as const },
  options: ({ arguments: [words], flags }): GetOptions => {
    const concurrency = parseWholeNumber(flags.concurrency as string | undefined, CONCURRENCY, '--concurrency');
    if (words.includes(STDIN_WORD)) {
      if (words.length > 1) throw new UsageError('"-" reads the ids from standard input: give it alone, without other ids');
      return { ids: 'stdin', concurrency };
    }
    return { ids: words.map((word) => BigInt(word)), concurrency };
  },
  ownRun: (options: GetOptions) => (isMany(options) ? async (f) => (await import('./many.js')).runMany(f, options) : undefined),
  fetch: (client, options, f) => fetchPet(f, client, (options.ids as bigint[])[0]!),
});

/** Warns and fetches the pet (getPet; listPets with PETSTORE_GET_VIA_LIST=1 or once getPet is gone). Throws their errors, or exit 3. */
async function fetchPet(f: Factory, client: PetstoreClient, petId: bigint): Promise<Pet> {
  if (deprecationSilenced(f)) client.silenceDeprecation();
  const viaList = f.env.PETSTORE_GET_VIA_LIST === '1';
  let pet = viaList ? undefined : await getPetUnlessGone(f, client, petId);
  if (pet === undefined) {
    if (viaList) f.io.warn(VIA_LIST_FORCED, 'get_via_list');
    // The lookup may read the whole store: --timeout bounds each page, not the whole command.
    f.readsWholeListing();
    const progress = new LookupProgress(f.io, { petId });
    try {
      pet = await findPetViaList(client, petId, (counts) => {
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
  warnGetDeprecated(f);
  try {
    return await getPet(client, petId);
  } catch (error) {
    if (isGetPetGone(error)) return undefined;
    throw error;
  }
}
