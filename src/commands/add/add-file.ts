/** `petstore add --file <path|->`: every NewPet of a JSON array or NDJSON input created, or written to `--failed` for a rerun. */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { BulkLoad, type BulkLoadOptions } from '../../bulk/bulk-load.js';
import { FailedFile } from '../../bulk/failed-file.js';
import { type EarlierLoad, LoadJournal } from '../../bulk/journal.js';
import type { LoadContext } from '../../bulk/load-context.js';
import { openInput } from '../../bulk/open-input.js';
import type { Factory } from '../../factory.js';
import { PET_VIEW } from '../../output/views.js';
import { petCount } from '../../counts.js';
import { createPet } from './http.js';
import { openSettler, settleActions } from './resolve-unknown.js';

export interface AddFileOptions extends BulkLoadOptions {
  /** Where the items not created go as NDJSON, for a second run. */
  failed?: string;
  /** Discard the journal of an earlier load and start from the top. */
  restart?: boolean;
  /** Settle `unknown` items against listings of the store (resolve-unknown.ts). */
  resolveUnknown?: boolean;
}

/**
 * Runs the bulk load, printing each created pet through the exporter. Throws UsageError when the input or `--failed` cannot be opened
 * (nothing sent); later, the error of what stopped it (130/143, 4, 1), or exit 1 if any item was not created.
 */
export async function runAddFile(f: Factory, options: AddFileOptions): Promise<void> {
  // Each item's request and answer are garbage once recorded, as a listing's pages are once printed.
  f.growHeapSlowly();
  const input = openInput(options.file, f.io.std.stdin as Readable, f.signals.halt, f.signal);
  // Typed at the terminal: no progress line (its redraws would wipe the echo).
  const typed = options.file === '-' && f.io.std.stdinIsTTY;
  const source = options.file === '-' ? '-' : path.resolve(options.file);
  let failed: FailedFile | undefined;
  let journal: LoadJournal | undefined;
  try {
    // What can refuse the load (no key: exit 4) comes first: a load that never starts leaves no journal.
    const client = await f.client();
    // Each jq run has --timeout, as each request has; a second Ctrl-C ends one, as it ends the requests in flight.
    const limits = { stop: f.signals.halt, timeoutMs: f.globals.timeout };
    const jq = await f.exporter.jqStream(limits);
    // The journal's last write before this run: when the earlier runs' last POST left, at the latest (--resolve-unknown waits past it).
    let journalWritten = 0;
    if (options.failed) {
      // The journal's disk is --failed's (its folder): a test's full disk fills for both.
      failed = await FailedFile.open(options.failed, f.lockStaleMs, f.bulkSeams.bulkFileWrite);
      journalWritten = fs.statSync(failed.journalPath, { throwIfNoEntry: false })?.mtimeMs ?? 0;
      const lockOf = failed;
      journal = LoadJournal.open(failed.journalPath, { input: source, identity: input.identity }, options.restart ?? false, {
        write: f.bulkSeams.bulkFileWrite,
        // Each record only while this load holds the lock of --failed (bulk/lock-lease.ts).
        guard: () => lockOf.confirmLease(),
      });
    }
    if (journal?.earlier) sayResuming(f, journal.earlier, journal.path, options.file);
    if (typed && f.io.std.stderrIsTTY)
      f.io.info('reading pets from the terminal, one JSON object per line; Ctrl-D ends the input', 'reading_terminal');
    const settler = options.resolveUnknown ? await openSettler(f, client, journal, journalWritten, failed) : undefined;
    const load = new BulkLoad({
      context: loadContextOf(f),
      options,
      source,
      failed,
      journal,
      inputSize: input.size,
      showProgress: !typed,
      jq,
      createPet,
      ...(settler ? { settling: { settler, settle: (side) => settleActions(settler, side) } } : {}),
    });
    await load.run(client, input.stream);
  } finally {
    input.stream.destroy();
    journal?.close();
    await failed?.dispose();
  }
}

/** What the load is handed of this run (bulk/load-context.ts): bulk/ reaches no Factory, IO streams or views itself. */
function loadContextOf(f: Factory): LoadContext {
  const { std } = f.io;
  const stdout = std.stdout;
  return {
    messages: f.io,
    status: f.io,
    stdout: {
      write: (text) => f.io.writeOut(text),
      once: stdout.once?.bind(stdout),
      onError: std.onStdoutError && ((listener) => std.onStdoutError!(listener)),
    },
    printPet: (pet) => f.exporter.streamText([pet], PET_VIEW),
    timeoutMs: f.globals.timeout,
    retries: f.globals.retries,
    stop: f.signal,
    halt: f.signals.halt,
    hooks: { unreachableMs: f.bulkSeams.unreachableMs, random: f.bulkSeams.random },
  };
}

/** Says what the journal holds of an earlier load of this input: resumed, or finished (then only what was not created is looked at). */
function sayResuming(f: Factory, earlier: EarlierLoad, journalPath: string, file: string): void {
  const { failed, unknown, notSent } = earlier.decided;
  const t = earlier.finished ? earlier.tally : undefined;
  // A finished load's end record counts every item; otherwise items journaled seen with no outcome are counted apart.
  const counts = t
    ? { created: t.created, failed: t.failed, unknown: t.unknown, notSent: t.notSent, skipped: t.skipped }
    : { created: earlier.created, failed, unknown: unknown + earlier.noAnswer, notSent, passedOver: earlier.passedOver };
  const parts = [`${counts.created} created`, `${counts.failed} failed`, `${counts.unknown} unknown`];
  if (counts.notSent) parts.push(`${counts.notSent} not sent`);
  if ('skipped' in counts && counts.skipped) parts.push(`${counts.skipped} of unknown outcome skipped`);
  if ('passedOver' in counts && counts.passedOver) parts.push(`${counts.passedOver} invalid or skipped`);
  const fields = { ...counts, known: earlier.known };
  if (earlier.finished) {
    f.io.info(
      `this load of ${file === '-' ? 'standard input' : file} finished at ${earlier.finished} (journal ${journalPath}): of its ${petCount(earlier.known)}, ${parts.join(', ')}; ` +
        `the input is read again to check it is the same; the pets created are not sent again${notSent ? ', those not sent are sent now' : ''}. --restart loads it anew`,
      'load_finished',
      { ...fields, finished: earlier.finished },
    );
    return;
  }
  const setAside = earlier.setAside
    ? `; ${earlier.setAside === 1 ? '1 record' : `${earlier.setAside} records`} cut off by a crash or a full disk set aside (what they may be about counts as unknown)`
    : '';
  f.io.info(
    `resuming the load started at ${earlier.started} (journal ${journalPath}): of its first ${petCount(earlier.known)}, ${parts.join(', ')}` +
      `${earlier.noAnswer ? ` (${earlier.noAnswer} sent with no answer recorded: unknown, not sent again without --retry-unknown)` : ''}${setAside}; the items left are sent once the input proves the same`,
    'resuming',
    { ...fields, ...(earlier.setAside ? { setAside: earlier.setAside } : {}) },
  );
}
