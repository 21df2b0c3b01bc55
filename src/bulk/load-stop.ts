/**
 * Whether a bulk load stopped, and why: with each item's journal state (item-fate.ts), what the load branches on. Once it stopped,
 * nothing more is sent and the rest is recorded not_sent; once the stop is unrecordable, nothing more is recorded either.
 */
import type { Stop } from './load-summary.js';

const UNRECORDABLE: readonly Stop['reason'][] = ['failed_file', 'journal', 'lock', 'lease'];

/** A stop after which nothing more can be recorded: --failed or the journal unwritable, or the lock taken over or its lease run out. */
export function isUnrecordable(stop: Stop | undefined): boolean {
  return stop !== undefined && UNRECORDABLE.includes(stop.reason);
}

/** The stop of one load: the first that came, unless an unrecordable one came after a stop of another kind (its reason is the truer). */
export class LoadStop {
  private stop?: Stop;
  private readonly aborting = new AbortController();

  /** The stop that stands; undefined while the load goes on. */
  get why(): Stop | undefined {
    return this.stop;
  }

  /** Aborted at the first stop: ends a wait for a resend, or the settling's. */
  get signal(): AbortSignal {
    return this.aborting.signal;
  }

  /** Records `stop` (the first stands; an unrecordable one overrides any other). */
  record(stop: Stop): void {
    if (!this.stop || (isUnrecordable(stop) && !isUnrecordable(this.stop))) this.stop = stop;
    this.aborting.abort();
  }
}
