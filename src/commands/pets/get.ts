/**
 * `petstore get <petId>`: getPet (GET /pets/{petId}), deprecated by the
 * interface (openapi/petstore.yaml); once the service no longer has it, the
 * pet is looked up through listPets (see find-via-list.ts).
 */
import { Command } from '@commander-js/extra-typings';
import type { PetstoreClient } from '../../api/client.js';
import { GET_PET_REMOVAL_DATE } from '../../interface-values.js';
import type { Pet } from '../../api/schemas.js';
import type { Factory } from '../../factory.js';
import type { Exporter } from '../../output/exporter.js';
import { examples, withOutputFlags } from '../kit.js';

/**
 * The warning every call prints to stderr unless PETSTORE_NO_DEPRECATION_WARNING=1
 * ("Versioning", item 2; under 100 columns), which also silences the service's
 * Deprecation and Sunset headers on get's requests.
 */
export const GET_DEPRECATION_WARNING = `getPet is deprecated, removed ${GET_PET_REMOVAL_DATE}; replacement: GET /pets with a status filter`;

export interface GetOptions {
  petId: bigint;
}

/** Declares `get`; its action checks the argument and calls `runF` (runGet by default). */
export function newGetCommand(f: Factory, runF: (options: GetOptions) => Promise<void> = (options) => runGet(f, options)) {
  return withOutputFlags(new Command('get'), 'pet')
    .description(`Get one animal by id (getPet; deprecated, removed on ${GET_PET_REMOVAL_DATE})`)
    .argument('<petId>', 'identifier of the animal (an int64)')
    .addHelpText(
      'after',
      `\nThe service removes this operation on ${GET_PET_REMOVAL_DATE}; the interface names GET /pets with a status\n` +
        'filter (petstore list --status <status>) as its replacement. Each call warns on stderr;\n' +
        'PETSTORE_NO_DEPRECATION_WARNING=1 silences it, and the warning of a Deprecation or\n' +
        'Sunset header from the service.\n' +
        '\nOnce getPet is gone (the service answers 410, or 404 for a route it does not have), get\n' +
        'finds the pet through listPets instead, page by page (limit 100), with a warning on\n' +
        'stderr; PETSTORE_GET_VIA_LIST=1 takes that way at once, to try it before the removal.\n' +
        examples('petstore get 42', 'petstore get 42 --json'),
    )
    .action(async (petId) => runF(await getOptions(petId, f.exporter)));
}

/**
 * The argument to a petId, the output's format settled with `exporter` (one
 * pet); throws UsageError for a bad `--format` (or one at odds with `--json`
 * or `--jq`), and for a petId that is not an int64 in decimal digits.
 */
export async function getOptions(petId: string, exporter: Exporter): Promise<GetOptions> {
  exporter.choose('pet');
  const [{ Int64Text }, { parseFlag }] = await Promise.all([import('../../api/schemas.js'), import('../parse-flag.js')]);
  return { petId: parseFlag(Int64Text, petId, 'argument <petId>') };
}

/**
 * Warns of the deprecation, fetches the pet and prints it (through the pager
 * at a terminal). getPet first, unless PETSTORE_GET_VIA_LIST=1; when the
 * service no longer has getPet, listPets page by page. Throws what getPet or
 * listPets throws, or a CliError with exit 3 when no page holds the pet.
 */
export async function runGet(f: Factory, options: GetOptions): Promise<void> {
  f.io.pageOutput();
  const client = await f.client();
  if (f.env.PETSTORE_NO_DEPRECATION_WARNING === '1') client.silenceDeprecation();
  const viaList = f.env.PETSTORE_GET_VIA_LIST === '1';
  let pet = viaList ? undefined : await getPetUnlessGone(f, client, options.petId);
  if (pet === undefined) {
    const { findPetViaList, VIA_LIST_FORCED, VIA_LIST_GONE } = await import('./find-via-list.js');
    if (viaList) f.io.warn(VIA_LIST_FORCED, 'get_via_list');
    pet = await findPetViaList(client, options.petId, () => viaList || f.io.warn(VIA_LIST_GONE, 'get_via_list'));
  }
  const { PET_VIEW } = await import('../../output/views.js');
  await f.exporter.printOne(pet, PET_VIEW);
}

/** getPet's Pet, or undefined when the service answers that it has no getPet any more (see isGetPetGone). */
async function getPetUnlessGone(f: Factory, client: PetstoreClient, petId: bigint): Promise<Pet | undefined> {
  if (f.env.PETSTORE_NO_DEPRECATION_WARNING !== '1') f.io.warn(GET_DEPRECATION_WARNING, 'deprecated_operation');
  try {
    return await client.getPet(petId);
  } catch (error) {
    const { isGetPetGone } = await import('./find-via-list.js');
    if (isGetPetGone(error)) return undefined;
    throw error;
  }
}
