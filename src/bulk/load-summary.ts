/** The end of a bulk load: counts, why it stopped, the summary line on stderr, and the error whose exit code it ends with. */
import { CliError, ExitCode, type ErrorReport, type InterruptedError } from '../errors.js';
import type { IOStreams } from '../iostreams.js';
import { petCount } from '../text.js';
import type { Tally } from './journal-codec.js';
import { describeLines } from './outcomes.js';
import type { SettleCounts } from './settle-unknown.js';

/** A load's counts, as its journal's end record keeps them (journal-codec.ts). */
export type { Tally } from './journal-codec.js';

/** Why a load stopped early (notSentReport says each reason in words). */
export type Stop =
  | { reason: 'signal'; error: InterruptedError }
  | {
      reason: 'unreachable';
      error: CliError /** The last connection's failure: "cannot reach 127.0.0.1:4010: ECONNREFUSED". */;
      cause: string;
    }
  | { reason: 'auth' | 'no_such_path' | 'proxy' | 'stdout' | 'failed_file' | 'journal' | 'lock' | 'lease' | 'jq'; error: CliError };

export interface LoadEnd {
  tally: Tally;
  stop?: Stop;
  failedPath?: string;
  /** The input was not read to its end (a second Ctrl-C). */
  inputCut: boolean;
  lastLine: number;
  /** Lines not created whose outcome could not be written to --failed. */
  unrecorded: readonly number[];
  /** What --resolve-unknown did with the unknown items, when it held any. */
  settled?: SettleCounts;
}

export const KEEP_THEM_HINT = '--failed FILE keeps the pets not created, to load them again';

/** The error object of an item not sent because the load stopped. */
export function notSentReport(stop: Stop): ErrorReport {
  const why = {
    signal: `the load was ${stop.error.message}`,
    auth: 'the service rejected the API key (HTTP 401)',
    no_such_path: 'the service has no such path (HTTP 404): the base URL may be wrong',
    proxy: 'the proxy refused to open a tunnel to the service',
    stdout: 'standard output could not be written',
    failed_file: '--failed could not be written',
    journal: 'the journal could not be written',
    unreachable: `the service could not be reached (${stop.reason === 'unreachable' ? stop.cause : ''})`,
    lock: 'another process took over the lock of --failed',
    lease: 'the lock of --failed went unrenewed past its lease (this process was paused)',
    jq: '--jq could not finish',
  }[stop.reason];
  return { code: 'not_sent', message: `not sent: ${why}`, status: null };
}

/** Writes the summary line (and warnings); returns the error to end with: the stop's own, exit 1 if an item was not created, else undefined. */
export function summarise(io: IOStreams, end: LoadEnd): CliError | undefined {
  const { tally: t, stop } = end;
  const notCreated = t.failed + t.unknown + t.notSent + t.skipped;
  if (t.read === 0 && !stop) {
    io.info('the input holds no pets; nothing was created', 'empty_input', { created: 0 });
    return undefined;
  }
  const parts = [`${t.failed} failed`];
  if (t.unknown) parts.push(`${t.unknown} unknown`);
  if (t.notSent) parts.push(`${t.notSent} not sent`);
  if (t.skipped) parts.push(`${t.skipped} of unknown outcome skipped`);
  // Said only when every line reached --failed: none unrecorded (a full disk) and the file put in place.
  const written =
    end.failedPath && notCreated && stop?.reason !== 'failed_file' && end.unrecorded.length === 0 ? ` (written to ${end.failedPath})` : '';
  const prefix = stop ? `${stop.reason === 'signal' ? stop.error.message : 'stopped'}: ` : '';
  const cut = end.inputCut ? `; nothing after line ${end.lastLine} was read` : '';
  // Cut short, the input may hold more pets than were read: the count says whose.
  const of = end.inputCut ? `${petCount(t.read)} read so far` : petCount(t.read);
  const s = end.settled;
  const settled = s ? `; unknown outcomes settled: ${s.settled} created, ${s.resent} sent again, ${s.unknown} left unknown` : '';
  const fields = s ? { ...t, settled: { created: s.settled, resent: s.resent, unknown: s.unknown, others: s.others } } : { ...t };
  io.info(`${prefix}created ${t.created} of ${of}; ${parts.join(', ')}${written}${settled}${cut}`, 'summary', fields);
  if (t.skipped) {
    const items = t.skipped === 1 ? 'item' : 'items';
    io.warn(
      `${t.skipped} ${items} of unknown outcome (sent before, perhaps created) not sent again; --retry-unknown sends them`,
      'unknown_skipped',
    );
  }
  if (end.unrecorded.length || stop?.reason === 'failed_file') {
    const rest = end.inputCut ? `, and of every line after ${end.lastLine}` : '';
    io.warn(
      `the outcomes of these input lines were not recorded: ${describeLines([...end.unrecorded].sort((a, b) => a - b)) || 'none'}${rest}`,
      'unrecorded',
    );
  }
  if (stop?.reason === 'journal')
    io.warn(
      'the journal lacks the answers that came after its last whole record: the same command run again counts those items unknown ' +
        '(perhaps created) and does not send them again; with --resolve-unknown it sends again those that no pet of the store matches',
      'journal_incomplete',
    );
  if (stop) return stop.error;
  if (notCreated)
    return new CliError(
      `${notCreated} of ${of} ${notCreatedVerb(notCreated, t.unknown + t.skipped)}`,
      ExitCode.failure,
      'partial_failure',
      end.failedPath === undefined ? KEEP_THEM_HINT : undefined,
    );
  return undefined;
}

/** How `count` items not created are said, `uncertain` of them unknown (perhaps created): "were not created" only when none is. */
function notCreatedVerb(count: number, uncertain: number): string {
  const one = count === 1;
  if (uncertain === 0) return one ? 'was not created' : 'were not created';
  if (uncertain === count)
    return one ? 'may not have been created: its outcome is unknown' : 'may not have been created: their outcome is unknown';
  return one ? 'was not created or is of unknown outcome' : 'were not created or are of unknown outcome';
}
