/**
 * `add --file --resolve-unknown`: a bulk load's `unknown` items settled against listings of the store, in rounds: claimed by a new pet
 * with their fields, or sent again (docs/bulk-loads.md, "Settling unknown outcomes").
 */
import { int64Of, type NewPet, type Pet } from '../api/schemas.js';
import type { Factory } from '../factory.js';
import type { ResolvedItem } from './outcomes.js';
import type { IdSet, ListStore } from './store-ids.js';

export interface HeldItem {
  item: ResolvedItem;
  pet: NewPet;
  /** The item's number in the journal (input order from 0). */
  index: number;
  /** The journal's hash of its input text (input-item.ts itemHash). */
  hash: string;
  /** Its unknown `--failed` record, written should it stay unknown. */
  record: Record<string, unknown>;
  /** Sent by this load after the store's ids were recorded. */
  afterListing: boolean;
  /** Date.now() when it was last sent; 0 when an earlier run of this load sent it; -Infinity when an earlier load did. */
  sentAt: number;
}

/** What the load lends the settling (bulk-load.ts, LoadSending.loadSide); the command's settleActions runs through it. */
export interface LoadSide {
  f: Factory;
  stopped: AbortSignal;
  isStopped(): boolean;
  settled(held: HeldItem, pet: Pet): void;
  /** Sends the item again (journaled first); false when the load has stopped. */
  send(held: HeldItem): Promise<boolean>;
  idle(): Promise<void>;
  stays(held: HeldItem, record: Record<string, unknown>, message: string): void;
  message(line: string, code: string, fields?: Record<string, unknown>): void;
}

/** What a settling did, for the summary: items settled as created, sent again, left unknown; new pets no item claimed. */
export interface SettleCounts {
  settled: number;
  resent: number;
  unknown: number;
  others: number;
}

/** What the load does with each result: its journal, tally and output. */
export interface SettleActions {
  /** Resolves false when the load was stopped before `untilMs` (Date.now() time). */
  waitUntil(untilMs: number): Promise<boolean>;
  settled(held: HeldItem, pet: Pet): void;
  /** Sends the items again; resolves with how many it sent once every answer came (unknown ones come back through UnknownSettler.hold). */
  resend(items: readonly HeldItem[]): Promise<number>;
  /** An item left unknown, with the ids of the pets that carry its fields (none when the settling was cut short). */
  stays(held: HeldItem, ids: readonly bigint[]): void;
  /** A listing failed (its error): the items not settled stay unknown. */
  listingFailed(error: unknown): void;
  /** New pets that no unknown item claimed (another writer's), reported once at the end. */
  others(ids: readonly bigint[]): void;
  /** A listing showed `count` pets more than once (the store changed while it was read): each settled one item at most. */
  repeats(count: number): void;
}

/** The key an item and a pet match on: name, categoryId and status (absent when absent). */
export function petKey(name: unknown, categoryId: unknown, status: unknown): string {
  return `${String(categoryId)}\u0000${status === undefined ? '' : String(status)}\u0000${String(name)}`;
}

export interface SettlerOptions {
  list: ListStore;
  /** The store's ids before the load's first POST; undefined when the flag came only on a later run. */
  before?: IdSet;
  /** The ids this load created; those settled are added. */
  created: IdSet;
  timeoutMs: number;
  /** Date.now() of the journal's last write before this run (its earlier sends were before). */
  earlierSentAt: number;
}

export class UnknownSettler {
  private held: HeldItem[] = [];

  constructor(private readonly options: SettlerOptions) {}

  get hasListing(): boolean {
    return this.options.before !== undefined;
  }

  get pending(): number {
    return this.held.length;
  }

  hold(held: HeldItem): void {
    this.held.push(held);
  }

  /** Records a pet this load created. */
  created(id: bigint): void {
    this.options.created.add(id);
  }

  /**
   * Settles the items held in rounds (after the last send's deadline and one `--timeout` more: list, settle, send again) until two
   * rounds in a row get no answer and settle nothing; a listing that fails leaves the items left unknown.
   */
  async settle(actions: SettleActions): Promise<SettleCounts> {
    const counts: SettleCounts = { settled: 0, resent: 0, unknown: 0, others: 0 };
    let idle = 0;
    let others: bigint[] = [];
    while (this.held.length > 0) {
      const round = this.held;
      let last = Number.NEGATIVE_INFINITY;
      for (const h of round) last = Math.max(last, h.sentAt === 0 ? this.options.earlierSentAt : h.sentAt);
      if (!(await actions.waitUntil(last + 2 * this.options.timeoutMs))) break;
      let result: Matches;
      try {
        result = await this.match(round);
      } catch (error) {
        actions.listingFailed(error);
        break;
      }
      this.held = [];
      others = result.others;
      if (result.repeats > 0) actions.repeats(result.repeats);
      for (const { held, pet } of result.settled) {
        this.options.created.add(int64Of(pet.id));
        actions.settled(held, pet);
      }
      counts.settled += result.settled.length;
      for (const { held, ids } of result.stay) actions.stays(held, ids);
      counts.unknown += result.stay.length;
      if (result.resend.length === 0) break;
      const sent = await actions.resend(result.resend);
      counts.resent += sent;
      counts.unknown += result.resend.length - sent;
      const answered = sent - this.held.length;
      idle = answered > 0 || result.settled.length > 0 ? 0 : idle + 1;
      if (idle >= 2) break;
    }
    for (const held of this.held) actions.stays(held, []);
    counts.unknown += this.held.length;
    this.held = [];
    counts.others = others.length;
    if (others.length) actions.others(others);
    return counts;
  }

  /**
   * One listing of the store against `round`. A pet settles one item at most, however often the listing shows it (by id), and the
   * items of one name, categoryId and status are matched one to one with such pets: with a listing from before the load, each new pet
   * claims the next of them; without one, as many of them as pets carry their fields stay unknown, and the rest (which no pet can be)
   * are sent again.
   */
  private async match(round: readonly HeldItem[]): Promise<Matches> {
    const { before, created } = this.options;
    const claimable = new Map<string, HeldItem[]>();
    const exact = new Map<string, { items: HeldItem[]; ids: Set<bigint> }>();
    for (const held of round) {
      const key = petKey(held.pet.name, held.pet.categoryId, held.pet.status);
      if (held.afterListing && before) {
        const queue = claimable.get(key);
        if (queue) queue.push(held);
        else claimable.set(key, [held]);
      } else {
        const entry = exact.get(key);
        if (entry) entry.items.push(held);
        else exact.set(key, { items: [held], ids: new Set() });
      }
    }
    const settled: Matches['settled'] = [];
    // The listing leaves out a pet it showed before; should one come again all the same, it settles nothing more.
    const claimed = new Set<bigint>();
    const others = new Set<bigint>();
    let repeats = 0;
    for await (const page of this.options.list()) {
      repeats += page.repeats;
      for (const pet of page.pets) {
        const id = int64Of(pet.id);
        const key = petKey(pet.name, int64Of(pet.categoryId), pet.status);
        exact.get(key)?.ids.add(id);
        if (!before || before.has(id) || created.has(id) || claimed.has(id)) continue;
        const queue = claimable.get(key);
        const held = queue?.shift();
        if (held) {
          settled.push({ held, pet });
          claimed.add(id);
          others.delete(id);
          if (queue!.length === 0) claimable.delete(key);
        } else others.add(id);
      }
    }
    const resend = [...claimable.values()].flat();
    const stay: Matches['stay'] = [];
    for (const { items, ids } of exact.values()) {
      const carriers = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      items.sort((a, b) => a.index - b.index);
      for (const [n, held] of items.entries()) {
        if (n < carriers.length) stay.push({ held, ids: carriers });
        else resend.push(held);
      }
    }
    resend.sort((a, b) => a.index - b.index);
    return { settled, resend, stay, others: [...others], repeats };
  }
}

interface Matches {
  settled: { held: HeldItem; pet: Pet }[];
  resend: HeldItem[];
  stay: { held: HeldItem; ids: bigint[] }[];
  others: bigint[];
  /** Pets the listing showed more than once. */
  repeats: number;
}
