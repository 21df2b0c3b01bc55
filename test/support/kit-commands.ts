/**
 * Two commands made of the kit alone, for the kit's tests (they are in no registry): `zap <petId>`, a change asked about first
 * (confirm, `--yes`, `--no-prompt`), a DELETE answered 204 with a declared not-found; and `things list`, a paged listing of a schema of
 * its own with its own noun. test/fixtures/kit-cli.ts runs them as a process, for the pseudo-terminal.
 */
import { Command } from '@commander-js/extra-typings';
import * as z from 'zod/mini';
import type { PetstoreClient } from '../../src/api/client.js';
import { Int64Text, pageLimit, ResponseInt64 } from '../../src/api/schemas.js';
import { type ConfirmFlags, confirm } from '../../src/commands/confirm.js';
import { contractAction, examples, withOutputFlags, withPagingFlags } from '../../src/commands/kit.js';
import { type Paging, pagedListing, pagingOf } from '../../src/commands/paged-listing.js';
import { task } from '../../src/commands/runner.js';
import type { Factory } from '../../src/factory.js';
import { viewOfKeys } from '../../src/output/views.js';

export interface ZapOptions extends ConfirmFlags {
  petId: bigint;
}

/** The DELETE (204; a 404 is no such animal, exit 3). */
export function deletePet(client: PetstoreClient, petId: bigint): Promise<number> {
  return client.sendExpectingStatus({ method: 'DELETE', path: `pets/${petId}` }, { ok: [204], notFound: { missing: 'animal' } });
}

const ZAP_INPUTS = { arguments: [['argument <petId>', Int64Text]] as const };

/** zap: asks "Delete pet N?" (unless --yes), then deletes it and says so. */
export const ZAP = task<typeof ZAP_INPUTS, ZapOptions, ConfirmFlags>({
  inputs: ZAP_INPUTS,
  options: ({ flags: { yes, prompt }, arguments: [petId] }) => ({ petId, yes, prompt }),
  async run(f, options) {
    const client = await f.client();
    await confirm(f, `Delete pet ${options.petId}?`, options);
    await deletePet(client, options.petId);
    f.io.info(`Deleted pet ${options.petId}`, 'deleted', { id: options.petId });
  },
});

export function newZapCommand(f: Factory, runF?: (options: ZapOptions) => Promise<void>) {
  return new Command('zap')
    .description('Delete an animal (a test of the kit)')
    .argument('<petId>', 'identifier of the animal (an int64)')
    .option('--yes', 'do not ask: delete at once (needed where petstore cannot ask)')
    .option('--no-prompt', 'never ask at a terminal: exit 2 unless --yes is given')
    .addHelpText('after', examples('petstore zap 42'))
    .action(contractAction(f, async () => ZAP, runF));
}

/** The bounds of `things list`'s limit: 1 to 5, 2 by default. */
export const THING_LIMIT = { min: 1, max: 5, default: 2 } as const;

const Thing = z.looseObject({ id: ResponseInt64, label: z.string() });
const Things = z.array(Thing);

const THINGS_INPUTS = { flags: { limit: pageLimit(THING_LIMIT).text } };

/** things list: GET /things?limit=N pages, "things" in its counts and warnings. */
export const THINGS = pagedListing({
  view: viewOfKeys(['id', 'label'], 'No things.'),
  noun: { one: 'thing', many: 'things' },
  bounds: THING_LIMIT,
  inputs: THINGS_INPUTS,
  options: ({ flags: { limit, all } }): Paging => pagingOf(limit, all, THING_LIMIT),
  paging: (options) => options,
  keyOf: (thing) => thing.id as bigint,
  pages: (client, options, walk) => client.pages(`things?limit=${options.limit}`, { ok: [200], schema: Things, root: 'things' }, walk),
});

export function newThingsCommand(f: Factory, runF?: (options: Paging) => Promise<void>) {
  const list = withPagingFlags(withOutputFlags(new Command('list').description('List things'), 'records'), 'things', THING_LIMIT).action(
    contractAction(f, async () => THINGS, runF),
  );
  return new Command('things').description('Things (a test of the kit)').addCommand(list);
}
