/**
 * With `--resolve-unknown`, what the load feeds its settler (settle-unknown.ts): each unknown item, held for the settling instead of written
 * to `--failed`, and when each item in flight was last sent (the settling waits past it). Inert without a settler.
 */
import { NewPet } from '../api/schemas.js';
import type { ResolvedItem } from './outcomes.js';
import type { UnknownSettler } from './settle-unknown.js';

/** An item in flight: Date.now() of its last POST (milliseconds) and its journal hash. */
export interface Sending {
  at: number;
  hash: string;
}

/** The unknown items a load hands to its settler, and when its items in flight were sent; inert without a settler. */
export class SettlerFeed {
  private readonly inFlight = new Map<number, Sending>();

  constructor(readonly settler: UnknownSettler | undefined) {}

  /** Notes item `index` (journal hash `hash`) sent now (only with a settler). */
  sent(index: number, hash: string | undefined): void {
    if (this.settler && hash !== undefined) this.inFlight.set(index, { at: Date.now(), hash });
  }

  /** Notes item `index` sent again now (a Retry-After resend). */
  resent(index: number): void {
    if (!this.settler) return;
    const sending = this.inFlight.get(index);
    if (sending) sending.at = Date.now();
  }

  /** Item `index` was answered: what was noted of its sending, if anything, is handed back and forgotten. */
  answered(index: number | undefined): Sending | undefined {
    if (index === undefined || !this.settler) return undefined;
    const sending = this.inFlight.get(index);
    this.inFlight.delete(index);
    return sending;
  }

  /**
   * Keeps an unknown item for the settling (true; false without a settler or for no NewPet). `sentAt`: Date.now() of its last POST, 0
   * for an earlier run of this load, -Infinity for an earlier load; `ours`: sent by this load.
   */
  hold(item: ResolvedItem, index: number, hash: string, record: Record<string, unknown>, sentAt: number, ours = true): boolean {
    const pet = this.settler && NewPet.safeParse(item.value);
    if (!pet?.success) return false;
    this.settler!.hold({ item, pet: pet.data, index, hash, record, afterListing: ours && this.settler!.hasListing, sentAt });
    return true;
  }
}
