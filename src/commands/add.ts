/** `petstore add`: createPet (POST /pets) with a NewPet built from flags. */
import * as z from 'zod/mini';
import { Int64Text, NewPet, PetStatus, wholeNumberText } from '../api/schemas.js';
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
  else await renderPet(ctx.out, created);
}

interface AddFlags {
  name?: string;
  categoryId?: string;
  status?: string;
  file?: string;
  concurrency?: string;
  failed?: string;
}

export default async function add(ctx: Context, _args: string[], flags: Record<string, unknown>): Promise<void> {
  const f = flags as AddFlags;
  if (f.file !== undefined) {
    const conflicting = (['name', 'categoryId', 'status'] as const).find((k) => f[k] !== undefined);
    if (conflicting) throw new UsageError(`--file cannot be combined with --${conflicting === 'categoryId' ? 'category-id' : conflicting}`);
    const { runAddFile } = await import('./add-file.js');
    await runAddFile(ctx, {
      file: f.file,
      concurrency: parseFlag(Concurrency, f.concurrency ?? '8', '--concurrency', 'must be a whole number from 1 to 64'),
      failed: f.failed,
    });
    return;
  }
  for (const extra of ['concurrency', 'failed'] as const) {
    if (f[extra] !== undefined) throw new UsageError(`--${extra} goes with --file`);
  }
  if (f.name === undefined) throw new UsageError('--name is required (or --file to add many)');
  if (f.categoryId === undefined) throw new UsageError('--category-id is required (or --file to add many)');
  await runAdd(ctx, addOptions({ name: f.name, categoryId: f.categoryId, status: f.status }));
}

const Concurrency = wholeNumberText(z.number().check(z.int(), z.gte(1), z.lte(64)), 'must be a whole number from 1 to 64');
