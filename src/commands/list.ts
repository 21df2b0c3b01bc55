/** `petstore list`: listPets (GET /pets) with `--status`, `--limit`, `--all` and `--format`. */
import * as z from 'zod/mini';
import { LimitText, PetStatus, type ListPetsQuery, type Pet } from '../api/schemas.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { renderJson, renderNdjson, renderPetRows, renderPetTable } from '../render.js';
import { parseFlag, STATUS_ALLOWED } from './flags.js';

/** Output formats of `list`: a table (TTY default), tab-separated rows (piped default), a JSON array, or NDJSON. */
export const ListFormat = z.enum(['table', 'tsv', 'json', 'ndjson']);
export type ListFormat = z.infer<typeof ListFormat>;

export interface ListOptions {
  query: ListPetsQuery;
  /** Follow `Link: rel="next"` pages. */
  all: boolean;
  format: ListFormat;
}

interface ListFlags {
  status?: string;
  limit?: string;
  all?: boolean;
  format?: string;
}

/** Flags to options; throws UsageError for a bad `--status`, `--limit` or `--format`. */
export function listOptions(flags: ListFlags, json: boolean, stdoutIsTTY: boolean): ListOptions {
  const format =
    flags.format === undefined ? undefined : parseFlag(ListFormat, flags.format, '--format', 'allowed values: table, tsv, json, ndjson');
  if (json && format !== undefined && format !== 'json') {
    throw new UsageError(`--json and --format ${format} ask for different formats; give one of them`);
  }
  return {
    query: {
      limit: parseFlag(LimitText, flags.limit ?? '20', '--limit', 'must be a whole number from 1 to 100'),
      status: flags.status === undefined ? undefined : parseFlag(PetStatus, flags.status, '--status', STATUS_ALLOWED),
    },
    all: flags.all ?? false,
    format: format ?? (json ? 'json' : stdoutIsTTY ? 'table' : 'tsv'),
  };
}

/**
 * Fetches the pets and prints them. tsv and ndjson stream page by page; table
 * and json gather every page first (a table needs its widths, JSON one array).
 * A last page as long as `--limit` may mean more pets: that gets a warning on
 * stderr, so that a listing is never cut short silently.
 */
export async function runList(ctx: Context, options: ListOptions): Promise<void> {
  const client = await ctx.client();
  const gathered: Pet[] = [];
  let lastPageLength = 0;
  for await (const page of client.listPetPages(options.query, options.all)) {
    lastPageLength = page.length;
    if (options.format === 'tsv') renderPetRows(ctx.out, page);
    else if (options.format === 'ndjson') renderNdjson(ctx.out, page);
    else gathered.push(...page);
  }
  if (options.format === 'json') renderJson(ctx.out, gathered);
  if (options.format === 'table') await renderPetTable({ ...ctx.out, isTTY: true }, gathered);
  if (lastPageLength >= options.query.limit) ctx.warn(fullPageWarning(options));
}

function fullPageWarning({ query: { limit }, all }: ListOptions): string {
  const more = limit < 100 ? ' (--limit goes up to 100)' : '';
  return all
    ? `warning: the last page held ${limit} pets, the --limit, and the service sent no next-page link: it may have more${more}`
    : `warning: showing one page of ${limit} pets, the --limit: the service may have more; --all follows its next-page links${more}`;
}

export default async function list(ctx: Context, _args: string[], flags: Record<string, unknown>): Promise<void> {
  await runList(ctx, listOptions(flags as ListFlags, ctx.options.json, ctx.io.stdoutIsTTY));
}
