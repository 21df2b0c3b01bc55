/** `petstore add` declared: createPet (POST /pets) with a NewPet from flags, or many from `--file`. Its run (./run.ts) loads when it runs. */
import { Command } from '@commander-js/extra-typings';
import { PET_STATUSES } from '../../interface-values.js';
import type { Factory } from '../../factory.js';
import { CONCURRENCY } from '../../flag-bounds.js';
import { formatsFor } from '../../output/format.js';
import { contractAction, examples, valueOption, withOutputFlags } from '../kit.js';
import type { AddOptions } from './run.js';

/** Declares `add`; its action checks the flags and calls `runF`, by default the runner with add's contract (./run.ts). */
export function newAddCommand(f: Factory, runF?: (options: AddOptions) => Promise<void>) {
  return withOutputFlags(new Command('add'), 'record', `with --file: ${formatsFor('stream').join(' or ')}`)
    .description('Add an animal (createPet), or many from a file')
    .option('--name <name>', "the animal's name (required without --file)")
    .option('--category-id <id>', 'identifier of its category, an int64 (required without --file)')
    .addOption(valueOption('--status <status>', 'its availability status', { choices: PET_STATUSES }))
    .option('--file <path>', 'add every NewPet of a JSON array or NDJSON file ("-" for standard input)')
    .addOption(
      valueOption('--concurrency <n>', `with --file: requests in flight at once, ${CONCURRENCY.min} to ${CONCURRENCY.max}`, {
        defaultText: String(CONCURRENCY.default),
      }),
    )
    .option('--failed <path>', 'with --file: write the items not created as NDJSON, to load again with --file')
    .option('--retry-unknown', 'with --file: also send items whose outcome is unknown (they may have been created)')
    .option(
      '--resolve-unknown',
      'with --file and --failed: settle items whose outcome is unknown against listings of the store; send again those not stored',
    )
    .option('--restart', 'with --file and --failed: discard the journal of an earlier run of this load and start over')
    .option('--no-prompt', 'never ask for a missing --name or --category-id at a terminal: exit 2 instead')
    .addHelpText(
      'after',
      '\nAt a terminal, without --file, add asks for a missing --name or --category-id (and for\n' +
        'the status, unless --status is given); --no-prompt or PETSTORE_NO_PROMPT=1 turns that off.\n' +
        examples(
          'petstore add --name Rex --category-id 1 --status available',
          'petstore add    # at a terminal: asks for the name, category id and status',
          'petstore add --file pets.ndjson --failed failed.ndjson --json > created.ndjson',
        ),
    )
    .action(contractAction(f, async () => (await import('./run.js')).ADD, runF));
}
