/** `petstore list` declared: listPets (GET /pets) with `--status`, `--limit`, `--all`, output flags. Its run (./run.ts) loads when it runs. */
import { Command } from '@commander-js/extra-typings';
import { LIMIT, PET_STATUSES } from '../../interface-values.js';
import type { Factory } from '../../factory.js';
import { contractAction, examples, valueOption, withOutputFlags } from '../kit.js';
import type { ListOptions } from './run.js';

/** Declares `list`; its action checks the flags and calls `runF`, by default the runner with list's contract (./run.ts). */
export function newListCommand(f: Factory, runF?: (options: ListOptions) => Promise<void>) {
  return withOutputFlags(new Command('list'), 'records')
    .description('List animals (listPets)')
    .addOption(valueOption('--status <status>', 'only animals with this status', { choices: PET_STATUSES }))
    .addOption(valueOption('--limit <n>', `animals per page, ${LIMIT.min} to ${LIMIT.max}`, { defaultText: String(LIMIT.default) }))
    .option('--all', 'follow the service\'s next-page links (Link rel="next") to the last page')
    .addHelpText(
      'after',
      examples('petstore list --status available', "petstore list --limit 100 --jq '.[].name'", 'petstore list --all --format ndjson'),
    )
    .action(contractAction(f, async () => (await import('./run.js')).LIST, runF));
}
