/** The one run of a command declared by a contract: format, options, pager, fetch, print, full-page warning; kit.ts holds the runF seam. */
import type * as z from 'zod/mini';
import type { PetstoreClient } from '../api/client.js';
import { InterruptedError, isCutListing } from '../errors.js';
import type { Factory } from '../factory.js';
import type { OutputShape } from '../output/format.js';
import type { Item, View } from '../output/render.js';
import { REPEATS_DROPPED, repeatsWarning } from '../text.js';
import { parseFlag } from './parse-flag.js';

/** A command's value flags and arguments with their zod schemas; the runner checks each one given, a usage error naming it. */
export interface Inputs {
  /** By commander's key for the flag (`limit` for `--limit`, `categoryId` for `--category-id`). */
  flags?: Readonly<Record<string, z.ZodMiniType>>;
  /**
   * In the order of the command's arguments, each with the name its errors give it (`argument <petId>`); a variadic one (`<petId...>`,
   * the last) is marked `'variadic'`, and each of its words is checked by the schema.
   */
  arguments?: ReadonlyArray<readonly [name: string, schema: z.ZodMiniType] | readonly [name: string, schema: z.ZodMiniType, 'variadic']>;
}

/**
 * What the runner hands `options`: the flags and the arguments. A flag of `inputs` is its schema's output; the others are as commander
 * gives them, typed `F`: the contract's flags type (by default any key, its value unknown), which the command's declaration must fit
 * (`contractAction` takes only a command whose flags, as @commander-js/extra-typings infers them, are an `F`).
 */
export interface Checked<I extends Inputs, F = Record<string, unknown>> {
  flags: { [K in keyof I['flags']]?: I['flags'][K] extends z.ZodMiniType ? z.output<I['flags'][K]> : never } & Omit<F, keyof I['flags']>;
  arguments: CheckedArguments<NonNullable<I['arguments']>>;
}

/** Each argument's schema output, in order (an array of them for a variadic argument). */
type CheckedArguments<T> = {
  -readonly [K in keyof T]: T[K] extends readonly [string, infer S extends z.ZodMiniType, 'variadic']
    ? Array<z.output<S>>
    : T[K] extends readonly [string, infer S extends z.ZodMiniType]
      ? z.output<S>
      : never;
};

/** A command line as commander hands it to an action: its flags by key, and its arguments' text (a variadic one's as an array). */
export interface Given {
  flags?: Record<string, unknown>;
  arguments?: ReadonlyArray<string | readonly string[]>;
}

/** One page of a listing: its records, whether the service linked a next page, and the records dropped as printed before. */
export interface Page {
  items: readonly Item[];
  hasNext: boolean;
  /** Records of this page left out because an earlier page had them (the store changed while it was read). */
  repeats?: number;
}

/** How a listing ended: the pages read, the length of the last, and whether it linked a next one (for the full-page warning). */
export interface ListingEnd {
  pages: number;
  lastLength: number;
  hasNext: boolean;
}

/**
 * A record to print, with the check run once it is printed, which throws the error the exit code must say, or resolves for exit 0 (auth
 * status: the status record, then exit 4 for a key the service rejects).
 */
export class RecordWithExitCheck {
  constructor(
    readonly record: Item,
    readonly exitCheck: () => Promise<void>,
  ) {}
}

interface Declared<I extends Inputs, O, F> {
  /** Its value flags and arguments, with their zod schemas. */
  inputs: I;
  /** The checked flags and arguments (and `f`: terminals, environment, stdin) to the run's options; throws UsageError naming a flag. */
  options(checked: Checked<I, F>, f: Factory): O | Promise<O>;
  /** The output shape, settled once the options are made (in place of `shape`), when it depends on them (add: a record, or a stream). */
  shapeOf?(options: O): OutputShape;
  /** A run of its own for these options (add --file's streaming load), which the runner calls in place of its own; undefined: none. */
  ownRun?(options: O): ((f: Factory) => Promise<void>) | undefined;
}

interface Printed<I extends Inputs, O, F> extends Declared<I, O, F> {
  /** The columns a record prints with (a table's, or a record's keys). */
  view: View;
  /** False for output never paged at a terminal (add: the pet created, after a prompt perhaps); paged by default. */
  paged?: boolean;
}

/** A command that prints one record: fetched through the client, or `read` without one (auth status: the settings). */
export interface RecordContract<I extends Inputs, O, F = Record<string, unknown>> extends Printed<I, O, F> {
  /** `record`: key/value lines on a terminal, a row when piped; `fields`: key/value lines everywhere (output/format.ts). */
  shape: 'record' | 'fields';
  /** The record; throws the client's errors. `f` gives what a fetch may need besides the client (the environment, warnings). */
  fetch?(client: PetstoreClient, options: O, f: Factory): Promise<Item | RecordWithExitCheck>;
  /** Declared instead of `fetch` by a command that sends no request of the runner's client. */
  read?(f: Factory, options: O): Promise<Item | RecordWithExitCheck>;
}

/** A command that prints a listing, page by page as the pages come: fetched through the client, or `read` without one (config list). */
export interface ListingContract<I extends Inputs, O, F = Record<string, unknown>> extends Printed<I, O, F> {
  shape: 'records';
  /** The pages; throws the client's errors (a ListingCutError for one cut partway). */
  fetch?(client: PetstoreClient, options: O, f: Factory): AsyncIterable<Page>;
  /** Declared instead of `fetch` by a command that reads no service (config list: the config store). */
  read?(f: Factory, options: O): AsyncIterable<Page>;
  /** Whether the run reads a whole listing: then `--timeout` bounds each page, not the command (Factory.timeoutEachRequest), and the heap grows slowly. */
  readsWholeListing?(options: O): boolean;
  /** The warning (code `full_page`) when the listing may hold more than it printed; undefined when it is whole. */
  fullPage(options: O, end: ListingEnd): string | undefined;
  /** A count of records as messages say it ("3 pets"). */
  count(n: number): string;
}

/** A command that prints no record through a view (messages, or one line of text: config set, auth token); `run` does its work. */
export interface TaskContract<I extends Inputs, O, F = Record<string, unknown>> extends Declared<I, O, F> {
  shape?: undefined;
  /** The work; throws the errors main reports. */
  run(f: Factory, options: O): Promise<void>;
}

/** What a command declares for the runner: its options (from its inputs and flags `F`), how it fetches, its view and its output shape. */
export type CommandContract<I extends Inputs, O, F = Record<string, unknown>> =
  | RecordContract<I, O, F>
  | ListingContract<I, O, F>
  | TaskContract<I, O, F>;

/** Settles `contract`'s output format, checks the flags and arguments `given`, makes the options; throws UsageError (exit 2) naming one. */
export async function settleOptions<I extends Inputs, O, F>(f: Factory, contract: CommandContract<I, O, F>, given: Given): Promise<O> {
  if (contract.shape !== undefined && !contract.shapeOf) f.exporter.choose(contract.shape);
  const flags: Record<string, unknown> = { ...given.flags };
  for (const [key, schema] of Object.entries(contract.inputs.flags ?? {})) {
    const value = flags[key];
    if (value !== undefined) flags[key] = parseFlag(schema, String(value), `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  }
  const args = (contract.inputs.arguments ?? []).map(([name, schema, variadic], i) => {
    const text = given.arguments?.[i];
    if (variadic) return (typeof text === 'string' ? [text] : (text ?? [])).map((word) => parseFlag(schema, word, name));
    return parseFlag(schema, typeof text === 'string' ? text : '', name);
  });
  // Each flag of `inputs` is its schema's output now; commander's declaration of the command made the others an F (contractAction).
  const options = await contract.options({ flags, arguments: args } as Checked<I, F>, f);
  if (contract.shapeOf) f.exporter.choose(contract.shapeOf(options));
  return options;
}

/** Runs `contract` with `options`: paged, fetched through `f.client()`, printed; throws what they throw (a cut listing with its count). */
export async function runContract<I extends Inputs, O, F>(f: Factory, contract: CommandContract<I, O, F>, options: O): Promise<void> {
  const own = contract.ownRun?.(options);
  if (own) return own(f);
  if (contract.shape === undefined) return contract.run(f, options);
  if (contract.paged !== false) f.io.pageOutput();
  if (contract.shape === 'records') return runListing(f, contract, options);
  const got = contract.read ? await contract.read(f, options) : await contract.fetch?.(await f.client(), options, f);
  await f.exporter.printOne(got instanceof RecordWithExitCheck ? got.record : (got ?? {}), contract.view);
  if (got instanceof RecordWithExitCheck) await got.exitCheck();
}

/** {@link settleOptions}, then {@link runContract}: a command run from the flags and arguments given, as its action runs it without runF. */
export async function runCommand<I extends Inputs, O, F>(f: Factory, contract: CommandContract<I, O, F>, given: Given = {}): Promise<void> {
  return runContract(f, contract, await settleOptions(f, contract, given));
}

/** A listing's contract as declared, the parameter of its `options` typed from its inputs (and flags `F`, when given). */
export function listing<I extends Inputs, O, F = Record<string, unknown>>(declared: ListingContract<I, O, F>): ListingContract<I, O, F> {
  return declared;
}

/** A record's contract as declared, the parameter of its `options` typed from its inputs (and flags `F`, when given). */
export function record<I extends Inputs, O, F = Record<string, unknown>>(declared: RecordContract<I, O, F>): RecordContract<I, O, F> {
  return declared;
}

/** A task's contract as declared, the parameter of its `options` typed from its inputs (and flags `F`, when given). */
export function task<I extends Inputs, O, F = Record<string, unknown>>(declared: TaskContract<I, O, F>): TaskContract<I, O, F> {
  return declared;
}

async function runListing<I extends Inputs, O, F>(f: Factory, contract: ListingContract<I, O, F>, options: O): Promise<void> {
  // Before the client is made: it takes the command's deadline when made.
  if (contract.readsWholeListing?.(options)) {
    f.timeoutEachRequest();
    f.growHeapSlowly();
  }
  const pages = contract.read ? contract.read(f, options) : contract.fetch?.(await f.client(), options, f);
  const printer = f.exporter.pages(contract.view);
  // A table of a whole listing draws once every page is read: at a terminal, a spinner with the count says it is coming.
  const waited =
    contract.readsWholeListing?.(options) && printer.gathers
      ? f.io.waitingForListing(() => `reading the whole listing: ${contract.count(printer.gatheredCount)} so far`)
      : undefined;
  const end: ListingEnd = { pages: 0, lastLength: 0, hasNext: false };
  let repeats = 0;
  try {
    for await (const { items, hasNext, repeats: dropped = 0 } of pages ?? []) {
      Object.assign(end, { pages: end.pages + 1, lastLength: items.length + dropped, hasNext });
      repeats += dropped;
      await printer.add(items);
    }
  } catch (error) {
    waited?.();
    const printed = await printer.cut();
    if (repeats > 0) f.io.warn(repeatsWarning(contract.count(repeats)), REPEATS_DROPPED);
    if (isCutListing(error)) error.setPrinted(printed, contract.count(printed));
    // A table drawn after Ctrl-C looks whole; rows printed as they came stop where the listing did.
    if (printer.gathers && printed > 0 && interrupted(f, error)) {
      f.io.writeMessage(`interrupted: the table holds only the first ${contract.count(printed)} of the listing\n`);
    }
    throw error;
  }
  waited?.();
  await printer.end();
  if (repeats > 0) f.io.warn(repeatsWarning(contract.count(repeats)), REPEATS_DROPPED);
  const warning = contract.fullPage(options, end);
  if (warning !== undefined) f.io.warn(warning, 'full_page');
}

/** Whether `error` ends a run that Ctrl-C (or SIGTERM, SIGHUP) stopped. */
function interrupted(f: Factory, error: unknown): boolean {
  return error instanceof InterruptedError || (f.signal.aborted && f.signal.reason instanceof InterruptedError);
}
