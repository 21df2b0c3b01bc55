/** `petstore list` run: the flags checked, the pages fetched and printed. */
import { withPartialOutput } from '../../api/pages.js';
import { PetStatus } from '../../api/schemas.js';
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
  exporter.choose('pets');
  return {
    query: {
      // A whole listing asks for the largest pages: a fifth of the requests of the interface's default.
      limit: flags.limit === undefined ? (flags.all ? LIMIT.max : LIMIT.default) : parseFlag(LimitText, flags.limit, '--limit'),
      status: flags.status === undefined ? undefined : parseFlag(PetStatus, flags.status, '--status'),
    },
    all: flags.all ?? false,
  };
}

/**
 * Prints the pets page by page (paged at a terminal), waiting when stdout pushes back; a full last page warns that there may be more,
 * so a listing is never cut short silently. A page that fails after others were printed leaves them printed (a `--json` array
 * unclosed) and throws its error with what was printed and the page it stopped at (errors.ts PartialOutput).
 */
export async function runList(f: Factory, options: ListOptions): Promise<void> {
  f.io.pageOutput();
  const client = await f.client();
  const printer = f.exporter.pages(PET_VIEW);
  let last = { length: 0, hasNext: false };
  let pages = 0;
  let printed = 0;
  let next: URL | undefined;
  try {
    for await (const page of listPetPages(client, options.query, options.all)) {
      pages += 1;
      last = { length: page.pets.length, hasNext: page.hasNext };
      next = page.next;
      await printer.add(page.pets);
      printed += page.pets.length;
    }
  } catch (error) {
    throw pages === 0 ? error : withPartialOutput(error, { printed, what: printed === 1 ? 'pet' : 'pets', next: next?.href });
  }
  await printer.end();
  // A full last page may not be the end, unless the service paged with links and this one linked nothing.
  const paged = options.all && pages > 1;
  if ((last.length >= options.query.limit && !paged) || last.hasNext) f.io.warn(fullPageWarning(options, last), 'full_page');
}

function fullPageWarning({ query: { limit }, all }: ListOptions, last: { length: number; hasNext: boolean }): string {
  if (last.hasNext) return `showing one page of ${petCount(last.length)}; the service has more: --all fetches every page`;
  const where = all ? 'the last page held' : 'showing';
  return limit < LIMIT.max
    ? `${where} ${petCount(limit)}, as many as --limit ${limit} asks for; the service may have more: try --limit ${LIMIT.max}`
    : `${where} ${petCount(limit)}, the most one page holds; the service may have more but sent no next-page link`;
}
