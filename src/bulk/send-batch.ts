/** The items a bulk load is about to send, journaled in one write on the next turn of the event loop, then sent (docs/internals.md). */

import type { PetstoreClient } from '../api/client.js';
import type { NewPet } from '../api/schemas.js';
import type { LoadRecorder } from './load-recorder.js';
import type { LoadStop } from './load-stop.js';
import type { ResolvedItem } from './outcomes.js';
import type { RequestPool } from './request-pool.js';

/** An item queued to be sent, its slot taken and its record kept by the journal (when `hash`: the load has one). */
export interface Outgoing {
  client: PetstoreClient;
  item: ResolvedItem;
  pet: NewPet;
  index: number;
  hash?: string;
  /** An earlier run sent it and recorded no answer (sent again with --retry-unknown). */
  noAnswer: boolean;
}

/** What a batch does with its items: `send` starts one's request in its slot; `notSent` records one the load did not send after all. */
export interface BatchSide {
  recorder: LoadRecorder;
  stop: LoadStop;
  pool: RequestPool;
  send: (outgoing: Outgoing) => void;
  notSent: (outgoing: Outgoing) => void;
}

export class SendBatch {
  private items: Outgoing[] = [];
  private scheduled = false;

  constructor(private readonly side: BatchSide) {}

  /** Items queued, not yet sent. */
  get size(): number {
    return this.items.length;
  }

  /** Queues `outgoing` (its slot taken, its record kept) to be journaled and sent on a later turn; sent at once by a load without a journal. */
  add(outgoing: Outgoing): void {
    // Nothing to write before it leaves: waiting for the next turn would only delay it.
    if (!this.side.recorder.journal) {
      this.side.send(outgoing);
      return;
    }
    this.items.push(outgoing);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const items = this.items;
    this.items = [];
    const { recorder, stop, pool } = this.side;
    // A stop came since they were queued: nothing more is sent, and an item stopped before its POST left is not journaled as sent.
    if (stop.why) for (const { index, hash } of items) if (hash !== undefined) recorder.journal?.withdraw(index, hash);
    // Journaled before the POSTs leave: a death from here on leaves them unknown, never sent twice. Not journaled: not sent.
    const journaled = recorder.flushJournal();
    for (const outgoing of items) {
      if (journaled && !stop.why) this.side.send(outgoing);
      else {
        pool.release();
        this.side.notSent(outgoing);
      }
    }
  };
}
