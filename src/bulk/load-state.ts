/**
 * The states of one bulk load and the events between them: {@link TRANSITIONS}, the table of docs/internals.md ("The bulk load's
 * states"), which says what each is; why the load stopped is kept beside the state.
 */
import type { Stop } from './load-summary.js';

/** A bulk load's state (docs/internals.md, "The bulk load's states"). */
export type LoadState = 'checking' | 'sending' | 'stopped' | 'unrecordable' | 'finishing' | 'ending' | 'done';

/** An event of a bulk load: `stop` a stop of the `stopped` kind, `lost` one of the `unrecordable` kind ({@link isUnrecordable}). */
export type LoadEvent = 'checked' | 'stop' | 'lost' | 'read' | 'answered' | 'ended';

/** Each state's next state by event; an event missing from a state's row is a bug ({@link LoadStateMachine.fire} throws). */
export const TRANSITIONS: Readonly<Record<LoadState, Partial<Record<LoadEvent, LoadState>>>> = {
  checking: { checked: 'sending', stop: 'stopped', lost: 'unrecordable', read: 'finishing' },
  sending: { stop: 'stopped', lost: 'unrecordable', read: 'finishing' },
  stopped: { checked: 'stopped', stop: 'stopped', lost: 'unrecordable', read: 'finishing' },
  unrecordable: { checked: 'unrecordable', stop: 'unrecordable', lost: 'unrecordable', read: 'finishing' },
  finishing: { stop: 'finishing', lost: 'finishing', answered: 'ending' },
  ending: { stop: 'ending', lost: 'ending', ended: 'done' },
  done: { stop: 'done', lost: 'done' },
};

const UNRECORDABLE: readonly Stop['reason'][] = ['failed_file', 'journal', 'lock', 'lease'];

/** A stop after which nothing more can be recorded: --failed or the journal unwritable, or the lock taken over or its lease run out. */
export function isUnrecordable(stop: Stop | undefined): boolean {
  return stop !== undefined && UNRECORDABLE.includes(stop.reason);
}

/** The state of one load, and why it stopped. */
export class LoadStateMachine {
  private current: LoadState;
  private why?: Stop;
  private readonly stopping = new AbortController();

  /** `checking` when the journal knows items of an earlier run, else `sending`. */
  constructor(checking: boolean) {
    this.current = checking ? 'checking' : 'sending';
  }

  get state(): LoadState {
    return this.current;
  }

  /** The stop that stands: the first, unless an unrecordable one came after a stop of another kind. */
  get stop(): Stop | undefined {
    return this.why;
  }

  /** Aborted at the first stop: ends a wait for a Retry-After resend, or the settling's. */
  get stopped(): AbortSignal {
    return this.stopping.signal;
  }

  /** Moves along `event`'s edge of {@link TRANSITIONS}; throws an Error (a bug) when the current state has none. */
  fire(event: LoadEvent): void {
    const next = TRANSITIONS[this.current][event];
    if (next === undefined) throw new Error(`bulk load: no transition from ${this.current} on ${event}`);
    this.current = next;
  }

  /** Records `stop` (the first reason stands; an unrecordable one overrides any other) and fires `stop` or `lost`. */
  recordStop(stop: Stop): void {
    if (!this.why || (isUnrecordable(stop) && !isUnrecordable(this.why))) this.why = stop;
    this.fire(isUnrecordable(stop) ? 'lost' : 'stop');
    this.stopping.abort();
  }
}
