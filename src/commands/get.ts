/** `petstore get <petId>`: getPet (GET /pets/{petId}), deprecated by the interface. */
import { Int64Text } from '../api/schemas.js';
import type { Context } from '../context.js';
import { renderJson, renderPet } from '../render.js';
import { parseFlag } from './flags.js';

/** The warning every call prints to stderr unless PETSTORE_NO_DEPRECATION_WARNING=1 (Versioning, item 2). */
export const GET_DEPRECATION_WARNING =
  'warning: getPet (GET /pets/{petId}) is deprecated and will be removed on 2030-12-05; ' +
  'use "petstore list --status <status>" (GET /pets with a status filter) instead';

/** Flags to the petId; throws UsageError for anything but an int64 in decimal digits. */
export function getOptions(petId: string): { petId: bigint } {
  return { petId: parseFlag(Int64Text, petId, 'argument <petId>') };
}

/** Warns of the deprecation, fetches the pet and prints it (key/value view or JSON). */
export async function runGet(ctx: Context, options: { petId: bigint }): Promise<void> {
  const client = await ctx.client();
  if (ctx.env.PETSTORE_NO_DEPRECATION_WARNING !== '1') ctx.warn(GET_DEPRECATION_WARNING);
  const pet = await client.getPet(options.petId);
  if (ctx.options.json) renderJson(ctx.out, pet);
  else await renderPet(ctx.out, pet);
}

export default async function get(ctx: Context, args: string[]): Promise<void> {
  await runGet(ctx, getOptions(args[0] ?? ''));
}
