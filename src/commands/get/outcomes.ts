/** What became of each id of a `get` of several, said on stderr as it comes, and the error a run ends with (its exit code for main). */
import type { Pet } from '../../api/schemas.js';
import { CliError, ExitCode, type ErrorReport, ServiceError } from '../../errors.js';
import type { IOStreams } from '../../iostreams.js';
import { petCount } from '../../text.js';
import type { IdToken } from './id-source.js';

/** One id's outcome: its pet, no such pet (exit 3), or another failure of its own (exit 1). */
export type Outcome = { kind: 'found'; pet: Pet } | { kind: 'missing'; error: CliError } | { kind: 'failed'; error: CliError };

/** Missing ids listed by the final error with --json (`missing`); each is also named on its own line as it comes. */
export const MAX_LISTED = 1000;
/** Missing ids named by the final error's message. */
export const MAX_NAMED = 20;

/** A run's counts: ids read (words, good or not), pets printed, and failures of each kind, with the missing ids to list. */
export class Tally {
  read = 0;
  printed = 0;
  missing = 0;
  invalid = 0;
  failed = 0;
  /** The distinct missing ids, in order, the first {@link MAX_LISTED}. */
  readonly missingIds = new Set<bigint>();

  /** Counts and names on stderr the failure of `token` (`outcome` undefined: a word that is not an int64, never sent). */
  fail(io: IOStreams, token: IdToken, outcome?: Exclude<Outcome, { kind: 'found' }>): void {
    const line = token.line === undefined ? {} : { line: token.line };
    if (!outcome) {
      this.invalid += 1;
      io.warn(`line ${token.line}: "${token.text}" is not a pet id: ${token.error}; not sent`, 'invalid_id', { ...line, text: token.text });
      return;
    }
    const where = `id ${token.id}${token.line === undefined ? '' : ` (line ${token.line})`}`;
    const report = outcome.error.report();
    if (outcome.kind === 'missing') {
      this.missing += 1;
      if (this.missingIds.size < MAX_LISTED) this.missingIds.add(token.id!);
    } else this.failed += 1;
    io.warn(`${where}: ${outcome.error.message}`, report.code, { id: token.id, ...line, error: report });
  }

  /** "3 pets printed of 10 ids read": what a stopped run says. */
  get progress(): string {
    return `${petCount(this.printed)} printed of ${this.read} ${this.read === 1 ? 'id' : 'ids'} read`;
  }

  /** The error the run ends with when some ids were not printed: exit 3 when each was missing, else 1; undefined when none failed. */
  error(): PetsNotPrintedError | undefined {
    return this.missing + this.invalid + this.failed === 0 ? undefined : new PetsNotPrintedError(this);
  }
}

/** `--json`'s error of a run of several ids: the interface's Error fields, the counts, and the missing ids (exact int64s). */
export interface LookupReport extends ErrorReport {
  read: number;
  printed: number;
  missing: bigint[];
  notFound: number;
  invalid: number;
  failed: number;
}

/** Some ids were not printed: exit 3 when every one was a missing pet, else 1. */
export class PetsNotPrintedError extends CliError {
  override name = 'PetsNotPrintedError';

  constructor(private readonly tally: Tally) {
    const { missing, invalid, failed, read } = tally;
    const named = [...tally.missingIds].slice(0, MAX_NAMED);
    const listed = `${named.join(', ')}${tally.missingIds.size > named.length ? ', ... (each named above)' : ''}`;
    const of = `${missing + invalid + failed} of ${read} ${read === 1 ? 'id' : 'ids'}`;
    const printed = `${petCount(tally.printed)} printed`;
    const onlyMissing = invalid + failed === 0;
    const parts = [
      missing ? `${missing} not found: ${listed}` : '',
      invalid ? `${invalid} not a pet id` : '',
      failed ? `${failed} failed` : '',
    ];
    super(
      onlyMissing
        ? `no ${tally.missingIds.size === 1 ? 'animal with id' : 'animals with ids'} ${listed} (${of}; ${printed})`
        : `${of} not printed (${parts.filter(Boolean).join('; ')}); ${printed}`,
      onlyMissing ? ExitCode.notFound : ExitCode.failure,
      onlyMissing ? 'not_found' : 'not_all_printed',
    );
  }

  override report(): LookupReport {
    const { read, printed, missing, invalid, failed, missingIds } = this.tally;
    return { ...super.report(), read, printed, missing: [...missingIds], notFound: missing, invalid, failed };
  }
}

/** A run of several ids stopped by `cause` (a 401, a service out of reach, a listing that failed): it exits as `cause` does. */
export class LookupStoppedError extends CliError {
  override name = 'LookupStoppedError';

  constructor(
    override readonly cause: CliError,
    private readonly counts: { printed: number; read: number },
    progress: string,
    hint = cause.hint,
  ) {
    super(`${cause.message} (stopped: ${progress})`, cause.exitCode, cause.code, hint);
    this.body = cause.body;
  }

  override report(): ErrorReport {
    const { code, message, status } = this.cause.report();
    return this.withDetails({ code, message, status, ...this.counts });
  }
}

/** Whether `error` stops a run of several ids at once: a 401 (exit 4), or a request provably never sent (no connection, no TLS). */
export function stopsEveryLookup(error: CliError): boolean {
  if (error instanceof ServiceError) return error.status === 401;
  return (error as { notSent?: boolean }).notSent === true;
}
