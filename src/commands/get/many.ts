/** `petstore get ID ID...` and `get -`: many pets in one process, streamed in input order (lookup-window.ts), each failure named. */
import { addAbortSignal, type Readable } from 'node:stream';
import { CliError, InterruptedError, OutputClosedError, UsageError } from '../../errors.js';
import { readsDirectory } from '../../fifo.js';
import type { Factory } from '../../factory.js';
import { stringifyJson } from '../../json.js';
import type { Pet } from '../../api/schemas.js';
import { deprecationSilenced, warnGetDeprecated } from './deprecation.js';
import { VIA_LIST_FORCED } from './find-via-list.js';
import { commandLineTokens, IdReader, type IdToken } from './id-source.js';
import { type Done, LookupWindow, type WindowLimits } from './lookup-window.js';
import { PetPrinter } from './many-output.js';
import { LookupStoppedError, Tally } from './outcomes.js';

/** Ids of standard input held per request in flight: room for answers that come before an earlier one. */
const WINDOW_PER_REQUEST = 32;
/** Most ids of standard input looked for by one listPets pass once getPet is gone: a longer input takes a pass per this many. */
export const PASS_IDS = 10_000;
/** Distinct ids of standard input remembered for their repeats, with their pets: the last 10,000 at least, 20,000 at most. */
export const RECENT_IDS = 20_000;

/** The ids of the command line in their order, or `stdin` for `get -`; requests in flight at once. */
export interface ManyOptions {
  ids: readonly bigint[] | 'stdin';
  concurrency: number;
}

/**
 * Looks up every id of `options` and prints the pets in order. Throws a CliError for ids not printed (exit 3 when all were missing, else
 * 1), or what stopped the run, with the counts: a 401 (4), a service out of reach (1), Ctrl-C (130, after saying what was printed).
 */
export async function runMany(f: Factory, options: ManyOptions): Promise<void> {
  // Each request has --timeout of its own, not the whole run; the pets printed are garbage at once.
  f.timeoutEachRequest();
  f.growHeapSlowly();
  const fromStdin = options.ids === 'stdin';
  if (fromStdin && readsDirectory(f.io.std.stdin as { fd?: number }))
    throw new UsageError('get - cannot read standard input: it is a directory (EISDIR)');
  const client = await f.client();
  if (deprecationSilenced(f)) client.silenceDeprecation();
  const viaList = f.env.PETSTORE_GET_VIA_LIST === '1';
  if (viaList) f.io.warn(VIA_LIST_FORCED, 'get_via_list');
  else warnGetDeprecated(f);
  // Standard input may be the terminal the pager would take; a progress line of its own replaces the spinner.
  if (!fromStdin) f.io.pageOutput();
  f.io.holdStatus();
  const every = Number.POSITIVE_INFINITY;
  const limits: WindowLimits = fromStdin
    ? {
        concurrency: options.concurrency,
        window: options.concurrency * WINDOW_PER_REQUEST,
        passWindow: PASS_IDS,
        recent: RECENT_IDS,
        viaList,
      }
    : { concurrency: options.concurrency, window: every, passWindow: every, recent: every, viaList };
  const tally = new Tally();
  const printer = new PetPrinter(f, fromStdin);
  const window = new LookupWindow(
    f,
    client,
    limits,
    (done) => printDone(f, done, printer, tally),
    () => printer.drawGathered(),
  );
  const stdin = fromStdin ? addAbortSignal(f.signal, f.io.std.stdin as Readable) : undefined;
  if (stdin && f.io.std.stdinIsTTY && f.io.std.stderrIsTTY)
    f.io.info('reading pet ids from the terminal, one or more a line; Ctrl-D ends the input', 'reading_terminal');
  try {
    const reader = stdin ? new IdReader(stdin) : undefined;
    const batches = reader ? reader.batches() : oneBatch(commandLineTokens(options.ids as readonly bigint[]));
    // Nothing more is ready to read: a pass for the ids held starts now, and a table is drawn once they are printed, so that output
    // follows input (a person typing ids sees each answer).
    await window.run(batches, () => !reader?.slicing && (stdin?.readableLength ?? 0) === 0);
  } catch (error) {
    await printer.cut();
    Object.assign(tally, { read: window.read, printed: printer.printed });
    throw stoppedError(f, error, tally);
  } finally {
    stdin?.destroy();
  }
  await printer.end();
  Object.assign(tally, { read: window.read, printed: printer.printed });
  const failure = tally.error();
  if (failure) throw failure;
}

async function* oneBatch(tokens: IdToken[]): AsyncGenerator<IdToken[]> {
  yield tokens;
}

/** Prints the pets of `done` in order, naming each failure on stderr as it comes. */
async function printDone(f: Factory, done: readonly Done[], printer: PetPrinter, tally: Tally): Promise<void> {
  let pets: Pet[] = [];
  for (const { token, outcome } of done) {
    if (outcome?.kind === 'found') {
      pets.push(outcome.pet);
      continue;
    }
    // Pets before a failure are printed before it is named: stdout and stderr read in the same order at a terminal.
    if (pets.length) await printer.add(pets);
    pets = [];
    printer.flush();
    tally.fail(f.io, token, outcome);
  }
  await printer.add(pets);
  tally.printed = printer.printed;
}

/** The error a stopped run ends with, saying what was printed of what was read; Ctrl-C's is said here, as main says nothing of it. */
function stoppedError(f: Factory, error: unknown, tally: Tally): unknown {
  const { printed, read } = tally;
  if (error instanceof InterruptedError) {
    const message = `${error.message}: ${tally.progress}`;
    if (f.io.json) f.io.writeError(`${stringifyJson({ code: 'interrupted', message, status: null, printed, read })}\n`);
    else f.io.writeMessage(`${message}\n`);
    return error;
  }
  // The pager quit (q): the run ends quietly, as at `| head`.
  if (!(error instanceof CliError) || error instanceof OutputClosedError) return error;
  // A service out of reach: its error carries the hint of where the base URL comes from (settings.ts's unreachableHint).
  return new LookupStoppedError(error, { printed, read }, tally.progress);
}
