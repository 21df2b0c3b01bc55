/**
 * The one run of a command declared by a contract (issue 31 item 1): the output format settled from the contract's shape, its options
 * checked, output paged, the data fetched through the Factory's client and printed in the contract's view, a full last page warned
 * about, and a listing cut partway reported with the count it printed. The declaration's action is kit.ts's `contractAction`, which
 * holds the test seam (gh's runF) between the options and this run.
 */
import type { PetstoreClient } from '../api/client.js';
import { ListingCutError } from '../errors.js';
import type { Factory } from '../factory.js';
import type { Item, View } from '../output/render.js';

/** One page of a listing: its records, and whether the service linked a next page. */
export interface Page {
  items: readonly Item[];
  hasNext: boolean;
}

/** How a listing ended: the pages read, the length of the last, and whether it linked a next one (for the full-page warning). */
export interface ListingEnd {
  pages: number;
  lastLength: number;
  hasNext: boolean;
}

interface Declared<A extends unknown[], O> {
  /** Commander's action arguments (the command's arguments, then its flags) to the run's options; throws UsageError naming the flag. */
  options(...args: A): O;
  /** The columns a record prints with (a table's, or a record's keys). */
  view: View;
}

/** A command that prints one record. */
export interface RecordContract<A extends unknown[], O> extends Declared<A, O> {
  /** `record`: key/value lines on a terminal, a row when piped; `fields`: key/value lines everywhere (output/format.ts). */
  shape: 'record' | 'fields';
  /** The record; throws the client's errors. `f` gives what a fetch may need besides the client (the environment, warnings). */
  fetch(client: PetstoreClient, options: O, f: Factory): Promise<Item>;
}

/** A command that prints a listing, page by page as the pages come. */
export interface ListingContract<A extends unknown[], O> extends Declared<A, O> {
  shape: 'records';
  /** The pages; throws the client's errors (a ListingCutError for one cut partway). */
  fetch(client: PetstoreClient, options: O, f: Factory): AsyncIterable<Page>;
  /** Whether the run reads a whole listing: then `--timeout` bounds each page, not the command (Factory.readsWholeListing). */
  readsWholeListing?(options: O): boolean;
  /** The warning (code `full_page`) when the listing may hold more than it printed; undefined when it is whole. */
  fullPage(options: O, end: ListingEnd): string | undefined;
  /** A count of records as messages say it ("3 pets"). */
  count(n: number): string;
}

/** What a command declares for the runner: its options, how it fetches, its view and its output shape. */
export type CommandContract<A extends unknown[], O> = RecordContract<A, O> | ListingContract<A, O>;

/** Settles `contract`'s output shape on the run's exporter, then its options from `args`; throws UsageError (exit 2) for a bad flag. */
export function settleOptions<A extends unknown[], O>(f: Factory, contract: CommandContract<A, O>, args: A): O {
  f.exporter.choose(contract.shape);
  return contract.options(...args);
}

/**
 * Runs `contract` with `options`: output paged at a terminal, the data fetched through `f.client()` and printed. Throws what the fetch
 * and the printing throw; a ListingCutError first learns how many records were printed, which stay printed.
 */
export async function runContract<A extends unknown[], O>(f: Factory, contract: CommandContract<A, O>, options: O): Promise<void> {
  f.io.pageOutput();
  if (contract.shape === 'records') return runListing(f, contract, options);
  const item = await contract.fetch(await f.client(), options, f);
  await f.exporter.printOne(item, contract.view);
}

/** {@link settleOptions}, then {@link runContract}: a command run from its action's arguments, as its action runs it without runF. */
export async function runCommand<A extends unknown[], O>(f: Factory, contract: CommandContract<A, O>, ...args: A): Promise<void> {
  return runContract(f, contract, settleOptions(f, contract, args));
}

async function runListing<A extends unknown[], O>(f: Factory, contract: ListingContract<A, O>, options: O): Promise<void> {
  // Before the client is made: it takes the command's deadline when made.
  if (contract.readsWholeListing?.(options)) f.readsWholeListing();
  const client = await f.client();
  const printer = f.exporter.pages(contract.view);
  const end: ListingEnd = { pages: 0, lastLength: 0, hasNext: false };
  try {
    for await (const { items, hasNext } of contract.fetch(client, options, f)) {
      Object.assign(end, { pages: end.pages + 1, lastLength: items.length, hasNext });
      await printer.add(items);
    }
  } catch (error) {
    const printed = await printer.cut();
    if (error instanceof ListingCutError) error.setPrinted(printed, contract.count(printed));
    throw error;
  }
  await printer.end();
  const warning = contract.fullPage(options, end);
  if (warning !== undefined) f.io.warn(warning, 'full_page');
}
