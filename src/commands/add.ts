/** `petstore add`: createPet (POST /pets) with a NewPet built from flags. */
import { Int64Text, NewPet, PetStatus } from '../api/schemas.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { renderJson, renderPet } from '../render.js';
import { parseFlag, STATUS_ALLOWED } from './flags.js';

/** Flags to a NewPet; throws UsageError naming the flag that is wrong. */
export function addOptions(flags: { name: string; categoryId: string; status?: string }): NewPet {
  const pet = {
    name: flags.name,
    categoryId: parseFlag(Int64Text, flags.categoryId, '--category-id'),
    ...(flags.status === undefined ? {} : { status: parseFlag(PetStatus, flags.status, '--status', STATUS_ALLOWED) }),
  };
  const checked = NewPet.safeParse(pet);
  if (!checked.success) {
    throw new UsageError(`invalid value for --name: "${flags.name}": ${checked.error.issues[0]?.message ?? 'invalid'}`);
  }
  return checked.data;
}

/** Creates the pet and prints the created Pet (key/value view or JSON). */
export async function runAdd(ctx: Context, pet: NewPet): Promise<void> {
  const created = await (await ctx.client()).createPet(pet);
  if (ctx.options.json) renderJson(ctx.out, created);
  else renderPet(ctx.out, created);
}

export default async function add(ctx: Context, _args: string[], flags: Record<string, unknown>): Promise<void> {
  await runAdd(ctx, addOptions(flags as { name: string; categoryId: string; status?: string }));
}
