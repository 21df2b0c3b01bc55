/** `petstore add`'s contract for the runner (../runner.ts): flags checked, then one pet created (asked for at a terminal), or a bulk load's own run; those two load only when used. */
import type { PetstoreClient } from '../../api/client.js';
import { Int64Text, NewPet, PetStatus } from '../../api/schemas.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { CONCURRENCY } from '../../flag-bounds.js';
import { PET_VIEW } from '../../output/views.js';
import { parseFlag, parseWholeNumber } from '../parse-flag.js';
import { record } from '../runner.js';
import type { AddFileOptions } from './add-file.js';
import { createPet } from './http.js';
import { afterCreateFailed } from './maybe-created.js';
import type { GivenFields } from './prompt-pet.js';

/** The flags of `add` as commander parses them (add.ts declares them; `contractAction` holds the two to one type). */
export interface AddFlags {
  name?: string;
  categoryId?: string;
  status?: string;
  file?: string;
  concurrency?: string;
  failed?: string;
  retryUnknown?: boolean;
  resolveUnknown?: boolean;
  restart?: boolean;
  prompt?: boolean;
}

export type AddOptions = { kind: 'one'; pet: NewPet } | { kind: 'prompt'; given: GivenFields } | { kind: 'file'; load: AddFileOptions };

/** A terminal on stdin and stdout and no PETSTORE_NO_PROMPT=1: `add` may ask for missing fields. */
export interface PromptContext {
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  noPromptEnv: boolean;
}

const FLAG_NAMES: Record<string, string> = {
  categoryId: '--category-id',
  retryUnknown: '--retry-unknown',
  resolveUnknown: '--resolve-unknown',
};

const flagName = (key: string) => FLAG_NAMES[key] ?? `--${key}`;

/** add checks its flags itself (`addOptions`): a refused combination is named before a bad value. */
const ADD_INPUTS = {};

/** add: one pet created and printed, or with --file a bulk load (add-file.ts); a refused flag combination named before a bad value. */
export const ADD = record<typeof ADD_INPUTS, AddOptions, AddFlags>({
  shape: 'record',
  shapeOf: (options: AddOptions) => (options.kind === 'file' ? 'stream' : 'record'),
  view: PET_VIEW,
  // One pet created, maybe after a prompt: never paged.
  paged: false,
  inputs: ADD_INPUTS,
  options: ({ flags }, f): AddOptions =>
    addOptions(flags, {
      stdinIsTTY: f.io.std.stdinIsTTY,
      stdoutIsTTY: f.io.std.stdoutIsTTY,
      noPromptEnv: f.env.PETSTORE_NO_PROMPT === '1',
    }),
  ownRun: (options: AddOptions) =>
    options.kind === 'file' ? async (f) => (await import('./add-file.js')).runAddFile(f, options.load) : undefined,
  fetch: (client, options, f) => createOne(f, client, options),
});

/** Flags to options (a prompt only at two terminals, unless turned off); throws UsageError naming a wrong or missing flag. */
function addOptions(flags: AddFlags, prompt: PromptContext): AddOptions {
  if (flags.file !== undefined) {
    const conflicting = (['name', 'categoryId', 'status'] as const).find((k) => flags[k] !== undefined);
    if (conflicting) throw new UsageError(`--file cannot be combined with ${flagName(conflicting)}`);
    if (flags.restart && flags.failed === undefined)
      throw new UsageError('--restart goes with --failed: the journal is kept beside that file');
    if (flags.resolveUnknown && flags.failed === undefined)
      throw new UsageError("--resolve-unknown goes with --failed: the journal and the store's ids are kept beside that file");
    if (flags.resolveUnknown && flags.retryUnknown)
      throw new UsageError('--resolve-unknown cannot be combined with --retry-unknown: it sends again only the unknown items not stored');
    const concurrency = parseWholeNumber(flags.concurrency, CONCURRENCY, '--concurrency');
    return {
      kind: 'file',
      load: {
        file: flags.file,
        concurrency,
        failed: flags.failed,
        retryUnknown: flags.retryUnknown ?? false,
        restart: flags.restart ?? false,
        ...(flags.resolveUnknown ? { resolveUnknown: true } : {}),
      },
    };
  }
  for (const extra of ['concurrency', 'failed', 'retryUnknown', 'resolveUnknown', 'restart'] as const) {
    if (flags[extra] !== undefined) throw new UsageError(`${flagName(extra)} goes with --file`);
  }
  if (flags.name === undefined || flags.categoryId === undefined) {
    const given: GivenFields = {
      ...(flags.name === undefined ? {} : { name: flags.name }),
      ...(flags.categoryId === undefined ? {} : { categoryId: parseFlag(Int64Text, flags.categoryId, '--category-id') }),
      ...(flags.status === undefined ? {} : { status: parseFlag(PetStatus, flags.status, '--status') }),
      statusGiven: flags.status !== undefined,
    };
    if (given.name !== undefined) checkName(given.name);
    if (prompt.stdinIsTTY && prompt.stdoutIsTTY && flags.prompt !== false && !prompt.noPromptEnv) return { kind: 'prompt', given };
    // Every missing flag at once, so that one run says what the next one needs.
    const missing = [flags.name === undefined && '--name', flags.categoryId === undefined && '--category-id'].filter(Boolean);
    throw new UsageError(`${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} required (or --file to add many)`);
  }
  const pet: NewPet = {
    name: flags.name,
    categoryId: parseFlag(Int64Text, flags.categoryId, '--category-id'),
    ...(flags.status === undefined ? {} : { status: parseFlag(PetStatus, flags.status, '--status') }),
  };
  checkName(pet.name);
  return { kind: 'one', pet };
}

/** Throws UsageError for a --name NewPet refuses (empty). */
function checkName(name: string): void {
  const checked = NewPet.shape.name.safeParse(name);

  if (!checked.success) throw new UsageError(`invalid value for --name: "${name}": ${checked.error.issues[0]?.message ?? 'invalid'}`);
}

/** The NewPet of the flags, or asked for at the terminal, created; throws createPet's errors, saying whether the pet may exist (maybe-created.ts). */
async function createOne(f: Factory, client: PetstoreClient, options: AddOptions) {
  if (options.kind === 'file') throw new Error('add --file runs its own load (ownRun)');
  // The client first (made by the runner): a missing key or base URL fails before anything is asked.
  const pet = options.kind === 'one' ? options.pet : await (await import('./prompt-pet.js')).promptNewPet(f, options.given);
  try {
    return await createPet(client, pet);
  } catch (error) {
    throw afterCreateFailed(error, pet);
  }
}
