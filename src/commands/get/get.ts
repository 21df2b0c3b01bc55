/** `petstore get <petId>` declared: getPet (GET /pets/{petId}, deprecated), or listPets once it is gone. Its run (./run.ts) loads when it runs. */
import { Command } from '@commander-js/extra-typings';
import { GET_PET_REMOVAL_DATE } from '../../interface-values.js';
import type { Factory } from '../../factory.js';
import { contractAction, examples, withOutputFlags } from '../kit.js';
import type { GetOptions } from './run.js';

/** Declares `get`; its action checks the argument and calls `runF`, by default the runner with get's contract (./run.ts). */
export function newGetCommand(f: Factory, runF?: (options: GetOptions) => Promise<void>) {
  return withOutputFlags(new Command('get'), 'record')
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
    .action(contractAction(f, async () => (await import('./run.js')).GET, runF));
}
