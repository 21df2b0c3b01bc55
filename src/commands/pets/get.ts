/** `petstore get <petId>`: getPet (GET /pets/{petId}), deprecated by the interface. */
import { Command } from '@commander-js/extra-typings';
import { GET_PET_REMOVAL_DATE } from '../../api/constants.js';
import type { Factory } from '../../factory.js';
import { chooseFormat, type OutputFlags, type OutputSpec } from '../../output/format.js';
import { examples, withOutputFlags } from '../kit.js';

/** The warning every call prints to stderr unless PETSTORE_NO_DEPRECATION_WARNING=1 ("Versioning", item 2; under 100 columns). */
export const GET_DEPRECATION_WARNING = `getPet is deprecated, removed ${GET_PET_REMOVAL_DATE}; replacement: GET /pets with a status filter`;

export interface GetOptions {
  petId: bigint;
  output: OutputSpec;
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
        'PETSTORE_NO_DEPRECATION_WARNING=1 silences it.\n' +
        examples('petstore get 42', 'petstore get 42 --json'),
    )
    .action(async (petId, flags) => runF(await getOptions(petId, flags, f.globals.json, f.io.raw.stdoutIsTTY)));
}

/** The argument to a petId; throws UsageError for anything but an int64 in decimal digits. */
export async function getOptions(petId: string, flags: OutputFlags, json: boolean, stdoutIsTTY: boolean): Promise<GetOptions> {
  const output = chooseFormat(flags, json, stdoutIsTTY, 'pet');
  const [{ Int64Text }, { parseFlag }] = await Promise.all([import('../../api/schemas.js'), import('../parse-flag.js')]);
  return { petId: parseFlag(Int64Text, petId, 'argument <petId>'), output };
}

/** Warns of the deprecation, fetches the pet and prints it (through the pager at a terminal). */
export async function runGet(f: Factory, options: GetOptions): Promise<void> {
  f.io.pageOutput();
  const client = await f.client();
  if (f.env.PETSTORE_NO_DEPRECATION_WARNING !== '1') f.io.warn(GET_DEPRECATION_WARNING, 'deprecated_operation');
  const [{ printOne }, { PET_VIEW }] = await Promise.all([import('../../output/render.js'), import('../../output/views.js')]);
  await printOne(f.io.out, await client.getPet(options.petId), PET_VIEW, options.output);
}
