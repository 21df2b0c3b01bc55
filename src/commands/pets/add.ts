/** `petstore add`: createPet (POST /pets) with a NewPet built from flags, or many from `--file`. */
import { Command } from '@commander-js/extra-typings';
import { PET_STATUSES } from '../../interface-values.js';
import type { NewPet } from '../../api/schemas.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { CONCURRENCY } from '../../flag-bounds.js';
import type { Exporter } from '../../output/exporter.js';
import { formatsFor } from '../../output/format.js';
import { examples, valueOption, withOutputFlags } from '../kit.js';
import type { AddFileOptions } from './add-file.js';
import type { GivenFields } from './prompt-pet.js';

/** `add` as declared: its flags, help and examples (the flags' type is inferred from here). */
function declareAdd() {
  return withOutputFlags(new Command('add'), 'pet', `with --file: ${formatsFor('stream').join(' or ')}`)
    .description('Add an animal (createPet), or many from a file')
    .option('--name <name>', "the animal's name (required without --file)")
    .option('--category-id <id>', 'identifier of its category, an int64 (required without --file)')
    .addOption(valueOption('--status <status>', 'its availability status', { choices: PET_STATUSES }))
    .option('--file <path>', 'add every NewPet of a JSON array or NDJSON file ("-" for standard input)')
    .addOption(
      valueOption('--concurrency <n>', `with --file: requests in flight at once, ${CONCURRENCY.min} to ${CONCURRENCY.max}`, {
        defaultText: String(CONCURRENCY.default),
      }),
    )
    .option('--failed <path>', 'with --file: write the items not created as NDJSON, to load again with --file')
    .option('--retry-unknown', 'with --file: also send items whose outcome is unknown (they may have been created)')
    .option('--restart', 'with --file and --failed: discard the journal of an earlier run of this load and start over')
    .option('--no-prompt', 'never ask for a missing --name or --category-id at a terminal: exit 2 instead')
    .addHelpText(
      'after',
      '\nAt a terminal, without --file, add asks for a missing --name or --category-id (and for\n' +
        'the status, unless --status is given); --no-prompt or PETSTORE_NO_PROMPT=1 turns that off.\n' +
        examples(
          'petstore add --name Rex --category-id 1 --status available',
          'petstore add    # at a terminal: asks for the name, category id and status',
          'petstore add --file pets.ndjson --failed failed.ndjson --json > created.ndjson',
        ),
    );
}

/** The flags of `add` as commander parses them. */
export type AddFlags = ReturnType<ReturnType<typeof declareAdd>['opts']>;

/** One pet from flags, one whose missing fields are asked at the terminal, or a bulk load from a file. */
export type AddOptions = { kind: 'one'; pet: NewPet } | { kind: 'prompt'; given: GivenFields } | { kind: 'file'; load: AddFileOptions };

/** What decides whether `add` may ask for missing fields: a terminal on stdin and stdout, and no opt-out. */
export interface PromptContext {
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  /** PETSTORE_NO_PROMPT=1. */
  noPromptEnv: boolean;
}

/** Declares `add`; its action checks the flags and calls `runF` (runAdd by default). */
export function newAddCommand(f: Factory, runF: (options: AddOptions) => Promise<void> = (options) => runAdd(f, options)) {
  return declareAdd().action(async (flags) =>
    runF(
      await addOptions(flags, f.exporter, {
        stdinIsTTY: f.io.raw.stdinIsTTY,
        stdoutIsTTY: f.io.raw.stdoutIsTTY,
        noPromptEnv: f.env.PETSTORE_NO_PROMPT === '1',
      }),
    ),
  );
}

const FLAG_NAMES: Record<string, string> = { categoryId: '--category-id', retryUnknown: '--retry-unknown' };

const flagName = (key: string) => FLAG_NAMES[key] ?? `--${key}`;

/**
 * Flags to options, the output's format settled with `exporter` (one pet, or
 * with `--file` a stream of them); throws UsageError naming the flag that is
 * wrong or missing. A missing --name or --category-id is asked for (kind
 * `prompt`) only when `prompt` allows it: both terminals, no --no-prompt, no
 * PETSTORE_NO_PROMPT=1.
 */
export async function addOptions(
  flags: AddFlags,
  exporter: Exporter,
  prompt: PromptContext = { stdinIsTTY: false, stdoutIsTTY: false, noPromptEnv: true },
): Promise<AddOptions> {
  const [{ Int64Text, NewPet, PetStatus }, { parseFlag, parseWholeNumber }] = await Promise.all([
    import('../../api/schemas.js'),
    import('../parse-flag.js'),
  ]);
  if (flags.file !== undefined) {
    const conflicting = (['name', 'categoryId', 'status'] as const).find((k) => flags[k] !== undefined);
    if (conflicting) throw new UsageError(`--file cannot be combined with ${flagName(conflicting)}`);
    if (flags.restart && flags.failed === undefined)
      throw new UsageError('--restart goes with --failed: the journal is kept beside that file');
    const concurrency = parseWholeNumber(flags.concurrency, CONCURRENCY, '--concurrency');
    exporter.choose('stream');
    return {
      kind: 'file',
      load: {
        file: flags.file,
        concurrency,
        failed: flags.failed,
        retryUnknown: flags.retryUnknown ?? false,
        restart: flags.restart ?? false,
      },
    };
  }
  for (const extra of ['concurrency', 'failed', 'retryUnknown', 'restart'] as const) {
    if (flags[extra] !== undefined) throw new UsageError(`${flagName(extra)} goes with --file`);
  }
  if (flags.name === undefined || flags.categoryId === undefined) {
    const given: GivenFields = {
      ...(flags.name === undefined ? {} : { name: flags.name }),
      ...(flags.categoryId === undefined ? {} : { categoryId: parseFlag(Int64Text, flags.categoryId, '--category-id') }),
      ...(flags.status === undefined ? {} : { status: parseFlag(PetStatus, flags.status, '--status') }),
      statusGiven: flags.status !== undefined,
    };
    if (given.name !== undefined) checkName(NewPet, given.name);
    if (prompt.stdinIsTTY && prompt.stdoutIsTTY && flags.prompt !== false && !prompt.noPromptEnv) {
      exporter.choose('pet');
      return { kind: 'prompt', given };
    }
    if (flags.name === undefined) throw new UsageError('--name is required (or --file to add many)');
    throw new UsageError('--category-id is required (or --file to add many)');
  }
  const pet = {
    name: flags.name,
    categoryId: parseFlag(Int64Text, flags.categoryId, '--category-id'),
    ...(flags.status === undefined ? {} : { status: parseFlag(PetStatus, flags.status, '--status') }),
  };
  const checked = NewPet.safeParse(pet);
  if (!checked.success) throw new UsageError(`invalid value for --name: "${flags.name}": ${checked.error.issues[0]?.message ?? 'invalid'}`);
  exporter.choose('pet');
  return { kind: 'one', pet: checked.data };
}

/** Throws UsageError for a --name that NewPet refuses (empty). */
function checkName(schema: typeof NewPet, name: string): void {
  const checked = schema.shape.name.safeParse(name);
  if (!checked.success) throw new UsageError(`invalid value for --name: "${name}": ${checked.error.issues[0]?.message ?? 'invalid'}`);
}

/** Creates the pet (or runs the bulk load) and prints what was created. */
export async function runAdd(f: Factory, options: AddOptions): Promise<void> {
  if (options.kind === 'file') {
    const { runAddFile } = await import('./add-file.js');
    return runAddFile(f, options.load);
  }
  const [client, { PET_VIEW }] = await Promise.all([f.client(), import('../../output/views.js')]);
  // The client first: a missing key or base URL fails before anything is asked.
  const pet = options.kind === 'one' ? options.pet : await (await import('./prompt-pet.js')).promptNewPet(f, options.given);
  await f.exporter.printOne(await client.createPet(pet), PET_VIEW);
}
