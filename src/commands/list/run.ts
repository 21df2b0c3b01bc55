/** `petstore list` run: the flags checked, the pages fetched and printed. */
import { PetStatus } from '../../api/schemas.js';
import type { Factory } from '../../factory.js';
import { LIMIT } from '../../interface-values.js';
import type { Exporter } from '../../output/exporter.js';
import { PET_VIEW } from '../../output/views.js';
import { parseFlag } from '../parse-flag.js';
import { LimitText, type ListPetsQuery, listPetPages } from './http.js';

/** The flags of `list` as commander parses them (./list.ts declares them). */
export interface ListFlags {
  status?: string;
  limit?: string;
  all?: boolean;
}

export interface ListOptions {
  query: ListPetsQuery;
  /** Follow `Link: rel="next"` pages. */
  all: boolean;
}

/**
 * Flags to options, the output's format settled with `exporter` (a list of
 * pets); throws UsageError for a bad `--format` (or one at odds with `--json`
 * or `--jq`), `--status` or `--limit`.
 */
export function listOptions(flags: ListFlags, exporter: Exporter): ListOptions {
  exporter.choose('pets');
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
  const client = await f.client();
  const printer = f.exporter.pages(PET_VIEW);
  let last = { length: 0, hasNext: false };
  for await (const { pets, hasNext } of listPetPages(client, options.query, options.all)) {
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
