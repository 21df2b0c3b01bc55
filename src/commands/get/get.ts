/** `petstore get <petId...>` declared: getPet (GET /pets/{petId}, deprecated), or listPets once it is gone. Its run (./run.ts) loads when it runs. */
import { Command } from '@commander-js/extra-typings';
import { GET_PET_REMOVAL_DATE } from '../../interface-values.js';
import type { Factory } from '../../factory.js';
import { CONCURRENCY } from '../../flag-bounds.js';
import { contractAction, examples, valueOption, withOutputFlags } from '../kit.js';
import type { GetOptions } from './run.js';

/** Declares `get`; its action checks the ids and calls `runF`, by default the runner with get's contract (./run.ts). */
export function newGetCommand(f: Factory, runF?: (options: GetOptions) => Promise<void>) {
  return withOutputFlags(new Command('get'), 'record', 'several ids: a table on a terminal')
    .description(`Get animals by id (getPet; deprecated, removed on ${GET_PET_REMOVAL_DATE})`)
    .argument('<petId...>', 'identifiers of the animals (int64s), or - to read them from standard input')
    .addOption(
      valueOption('--concurrency <n>', `with several ids: requests in flight at once, ${CONCURRENCY.min} to ${CONCURRENCY.max}`, {
        defaultText: String(CONCURRENCY.default),
      }),
    )
    .addHelpText(
      'after',
      '\nSeveral ids print one record each, in the order given (a JSON array with --json, one pet a\n' +
        'line with --format ndjson); a repeated id is fetched once. "-" reads ids from standard\n' +
        'input, separated by any whitespace, and prints as they come. Missing ids are named on\n' +
        'stderr and the others printed: exit 3 when all failures are missing ids, else 1.\n' +
        '--timeout bounds each request of several ids, not the whole run.\n' +
        `\nThe service removes getPet on ${GET_PET_REMOVAL_DATE}; the interface names GET /pets with a status\n` +
        'filter (petstore list --status <status>) as its replacement. get warns once a run on\n' +
        'stderr; PETSTORE_NO_DEPRECATION_WARNING=1 silences it, and the warning of a Deprecation\n' +
        'or Sunset header from the service.\n' +
        '\nOnce getPet is gone (the service answers 410, or 404 for a route it does not have), get\n' +
        'finds the pets through listPets instead, one pass over its pages (limit 100) for all the\n' +
        'ids, with a warning; PETSTORE_GET_VIA_LIST=1 takes that way at once, to try it.\n' +
        examples(
          'petstore get 42',
          'petstore get 42 43 44 --json',
          "petstore list --status sold --jq '.[].id' | petstore get - --format ndjson",
        ),
    )
    .action(contractAction(f, async () => (await import('./run.js')).GET, runF));
}
