/** `petstore list`: listPets (GET /pets) with `--status` and `--limit`. */
import { LimitText, PetStatus, type ListPetsQuery } from '../api/schemas.js';
import type { Context } from '../context.js';
import { renderJson, renderPetTable } from '../render.js';
import { parseFlag, STATUS_ALLOWED } from './flags.js';

/** Options of `list`: the listPets query. */
export type ListOptions = ListPetsQuery;

/** Flags to options; throws UsageError for a bad `--status` or `--limit`. */
export function listOptions(flags: { status?: string; limit?: string }): ListOptions {
  return {
    limit: parseFlag(LimitText, flags.limit ?? '20', '--limit', 'must be a whole number from 1 to 100'),
    status: flags.status === undefined ? undefined : parseFlag(PetStatus, flags.status, '--status', STATUS_ALLOWED),
  };
}

/** Fetches the pets and prints them as a table, tab-separated rows or JSON. */
export async function runList(ctx: Context, options: ListOptions): Promise<void> {
  const pets = await (await ctx.client()).listPets(options);
  if (ctx.options.json) renderJson(ctx.out, pets);
  else renderPetTable(ctx.out, pets);
}

export default async function list(ctx: Context, _args: string[], flags: Record<string, unknown>): Promise<void> {
  await runList(ctx, listOptions(flags as { status?: string; limit?: string }));
}
