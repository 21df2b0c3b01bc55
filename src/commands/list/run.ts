/** `petstore list` run: the flags checked, the pages fetched and printed. */
import { PetStatus } from '../../api/schemas.js';
import { ListingCutError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { LIMIT } from '../../interface-values.js';
import type { Exporter } from '../../output/exporter.js';
import { PET_VIEW } from '../../output/views.js';
import { petCount } from '../../text.js';
import { parseFlag } from '../parse-flag.js';
import { LimitText, type ListPetsQuery, listPetPages } from './http.js';

/** The flags of `list` as commander parses them. */
export interface ListFlags {
  status?: string;
  limit?: string;
  all?: boolean;
}

export interface ListOptions {
  query: ListPetsQuery;
  all: boolean;
}

/** Flags to options, the `pets` shape settled on `exporter`. Throws UsageError for a bad `--format`, `--status` or `--limit`. */
export function listOptions(flags: ListFlags, exporter: Exporter): ListOptions {
  exporter.choose('records');
  return {
    query: {
      // A whole listing in pages of the most one holds: a fifth of the requests of the interface's default.
      limit: flags.limit === undefined ? (flags.all ? LIMIT.max : LIMIT.default) : parseFlag(LimitText, flags.limit, '--limit'),
      status: flags.status === undefined ? undefined : parseFlag(PetStatus, flags.status, '--status'),
    },
    all: flags.all ?? false,
  };
}

/**
 * Prints the pets page by page (paged at a terminal); a full last page warns that there may be more, so a listing is never cut short
 * silently. A listing that fails partway keeps what it printed and throws the ListingCutError saying how many pets that was.
 */
export async function runList(f: Factory, options: ListOptions): Promise<void> {
  f.io.pageOutput();
  // --all reads the whole store: --timeout bounds each page and each --jq run, not the whole command.
  if (options.all) f.readsWholeListing();
  const client = await f.client();
  const printer = f.exporter.pages(PET_VIEW);
  let last = { length: 0, hasNext: false };
  let pages = 0;
  try {
    for await (const { pets, hasNext } of listPetPages(client, options.query, { all: options.all, ahead: true })) {
      last = { length: pets.length, hasNext };
      pages += 1;
      await printer.add(pets);
    }
  } catch (error) {
    const printed = await printer.cut();
    if (error instanceof ListingCutError) error.setPrinted(printed, petCount(printed));
    throw error;
  }
  await printer.end();
  // A full page may not be the end when the service links no pages; a next link not followed (no --all) is not. A service that linked
  // pages ends its listing by linking none.
  if ((pages === 1 && last.length >= options.query.limit) || last.hasNext) f.io.warn(fullPageWarning(options, last), 'full_page');
}

function fullPageWarning({ query: { limit }, all }: ListOptions, last: { length: number; hasNext: boolean }): string {
  if (last.hasNext) return `showing one page of ${petCount(last.length)}; the service has more: --all fetches every page`;
  const where = all ? 'the last page held' : 'showing';
  return limit < LIMIT.max
    ? `${where} ${petCount(limit)}, as many as --limit ${limit} asks for; the service may have more: try --limit ${LIMIT.max}`
    : `${where} ${petCount(limit)}, the most one page holds; the service may have more but sent no next-page link`;
}
