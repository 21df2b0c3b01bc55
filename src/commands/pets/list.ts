/** `petstore list`: listPets (GET /pets) with `--status`, `--limit`, `--all` and the output flags. */
import { Command } from '@commander-js/extra-typings';
import { LIMIT, PET_STATUSES } from '../../interface-values.js';
import type { ListPetsQuery } from '../../api/schemas.js';
import type { Factory } from '../../factory.js';
import type { Exporter } from '../../output/exporter.js';
import { examples, valueOption, withOutputFlags } from '../kit.js';

export interface ListOptions {
  query: ListPetsQuery;
  /** Follow `Link: rel="next"` pages. */
  all: boolean;
}

/** `list` as declared: its flags, help and examples (the flags' type is inferred from here). */
function declareList() {
  return withOutputFlags(new Command('list'), 'pets')
    .description('List animals (listPets)')
    .addOption(valueOption('--status <status>', 'only animals with this status', { choices: PET_STATUSES }))
    .addOption(valueOption('--limit <n>', `animals per page, ${LIMIT.min} to ${LIMIT.max}`, { defaultText: String(LIMIT.default) }))
    .option('--all', 'follow the service\'s next-page links (Link rel="next") to the last page')
    .addHelpText(
      'after',
      examples('petstore list --status available', "petstore list --limit 100 --jq '.[].name'", 'petstore list --all --format ndjson'),
    );
}

/** The flags of `list` as commander parses them. */
export type ListFlags = ReturnType<ReturnType<typeof declareList>['opts']>;

/** Declares `list`; its action checks the flags and calls `runF` (runList by default). */
export function newListCommand(f: Factory, runF: (options: ListOptions) => Promise<void> = (options) => runList(f, options)) {
  return declareList().action(async (flags) => runF(await listOptions(flags, f.exporter)));
}

/**
 * Flags to options, the output's format settled with `exporter` (a list of
 * pets); throws UsageError for a bad `--format` (or one at odds with `--json`
 * or `--jq`), `--status` or `--limit`.
 */
export async function listOptions(flags: ListFlags, exporter: Exporter): Promise<ListOptions> {
  exporter.choose('pets');
  const [{ LimitText, PetStatus }, { parseFlag }] = await Promise.all([import('../../api/schemas.js'), import('../parse-flag.js')]);
  return {
    query: {
      limit: flags.limit === undefined ? LIMIT.default : parseFlag(LimitText, flags.limit, '--limit'),
      status: flags.status === undefined ? undefined : parseFlag(PetStatus, flags.status, '--status'),
    },
    all: flags.all ?? false,
  };
}

/**
 * Fetches the pets and prints them, page by page where the format can
 * stream (see ListPrinter; JSON too, as one array written page by page). A
 * last page as long as `--limit` may mean more pets: that gets a warning on
 * stderr, so that a listing is never cut short silently. At a terminal the
 * pets go through the pager.
 */
export async function runList(f: Factory, options: ListOptions): Promise<void> {
  f.io.pageOutput();
  const [client, { PET_VIEW }] = await Promise.all([f.client(), import('../../output/views.js')]);
  const printer = f.exporter.pages(PET_VIEW);
  let last = { length: 0, hasNext: false };
  for await (const { pets, hasNext } of client.listPetPages(options.query, options.all)) {
    last = { length: pets.length, hasNext };
    await printer.add(pets);
  }
  await printer.end();
  // A last page as long as the limit may not be the end; a next link not followed (no --all) is not.
  if (last.length >= options.query.limit || last.hasNext) f.io.warn(fullPageWarning(options, last), 'full_page');
}

const pets = (n: number) => (n === 1 ? '1 pet' : `${n} pets`);

function fullPageWarning({ query: { limit }, all }: ListOptions, last: { length: number; hasNext: boolean }): string {
  if (last.hasNext) return `showing one page of ${pets(last.length)}; the service has more: --all fetches every page`;
  const where = all ? 'the last page held' : 'showing';
  return limit < LIMIT.max
    ? `${where} ${pets(limit)}, as many as --limit ${limit} asks for; the service may have more: try --limit ${LIMIT.max}`
    : `${where} ${pets(limit)}, the most one page holds; the service may have more but sent no next-page link`;
}
