/** What the lookup window (lookup-window.ts) holds: the ids in input order, the lookups of recent ids for their repeats, its wait. */
import type { IdToken } from './id-source.js';
import type { Outcome } from './outcomes.js';

export interface WindowLimits {
  /** Requests in flight at once (getPet). */
  concurrency: number;
  /** Ids held at once while getPet answers: in flight, or done and waiting for those before them. */
  window: number;
  /** Ids held at once waiting for a listPets pass; a pass takes all those held, so this is the most ids one pass looks for. */
  passWindow: number;
  /** Distinct ids remembered for their repeats (window-state.ts's RecentLookups): a repeat among them is not fetched again. */
  recent: number;
  /** Look ids up through listPets from the start (PETSTORE_GET_VIA_LIST=1). */
  viaList: boolean;
}

/** One distinct id's lookup, shared by its repeats: its outcome once known. */
export interface Lookup {
  id: bigint;
  outcome?: Outcome;
}

/** One id as read: its token and its lookup (none for a word that is not an int64). */
interface Entry {
  token: IdToken;
  lookup?: Lookup;
}

/** An id handed back in input order: a word that is not an int64 has no outcome. */
export interface Done {
  token: IdToken;
  outcome?: Outcome;
}

/** Ids in input order, taken from the front: an array and the index of its first (Array.shift is O(n)). */
export class EntryQueue {
  private items: Array<Entry | undefined> = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(token: IdToken, lookup?: Lookup): void {
    this.items.push(lookup ? { token, lookup } : { token });
  }

  /** The entries from the front whose outcome is known, taken out (a word that is not an int64 is known at once). */
  takeDone(): Done[] {
    const done: Done[] = [];
    for (let entry = this.items[this.head]; entry !== undefined; entry = this.items[this.head]) {
      if (entry.lookup && !entry.lookup.outcome) break;
      done.push({ token: entry.token, outcome: entry.lookup?.outcome });
      this.items[this.head] = undefined;
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return done;
  }

  /**
   * What a stopped run had read, in input order, and empties the queue: every entry whose outcome is known, and each still waiting
   * that stands before one of them (`outcome` then `unanswered`, so that the gap is named). Those waiting after the last are dropped.
   */
  takeSettled(unanswered: Outcome): Done[] {
    const settled: Done[] = [];
    let waiting: Done[] = [];
    for (let at = this.head; at < this.items.length; at += 1) {
      const entry = this.items[at];
      if (!entry) continue;
      if (entry.lookup && !entry.lookup.outcome) {
        waiting.push({ token: entry.token, outcome: unanswered });
        continue;
      }
      settled.push(...waiting, { token: entry.token, outcome: entry.lookup?.outcome });
      waiting = [];
    }
    this.items = [];
    this.head = 0;
    return settled;
  }
}

/**
 * The lookups of the ids read last, in two generations: when the newer holds half of `limit` ids it becomes the older and a new one
 * starts, so at least the last `limit / 2` distinct ids are remembered and never more than `limit`. (Deleting a Map's oldest key one
 * by one would scan its deleted slots on every call.)
 */
export class RecentLookups {
  private newer = new Map<bigint, Lookup>();
  private older = new Map<bigint, Lookup>();

  constructor(private readonly limit: number) {}

  /** The lookup of `id` if it is recent (then remembered as recent again), else undefined. */
  recall(id: bigint): Lookup | undefined {
    const newer = this.newer.get(id);
    if (newer) return newer;
    const older = this.older.get(id);
    if (older) this.remember(older);
    return older;
  }

  remember(lookup: Lookup): void {
    if (this.newer.size >= this.limit / 2) {
      this.older = this.newer;
      this.newer = new Map();
    }
    this.newer.set(lookup.id, lookup);
  }
}

/** One wait at a time for a condition, looked at again on each {@link notify}: no promise per change waited through. */
export class Waiter {
  private waiting?: { until: () => boolean; resolve: () => void };

  /** Resolves once `condition` holds when notified (at once if it holds now), or when `abort` aborts. */
  until(condition: () => boolean, abort?: AbortSignal): Promise<void> {
    if (condition() || abort?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiting = { until: condition, resolve };
      abort?.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  /** Ends the wait if its condition now holds. */
  notify(): void {
    const waiting = this.waiting;
    if (waiting?.until()) {
      this.waiting = undefined;
      waiting.resolve();
    }
  }
}
