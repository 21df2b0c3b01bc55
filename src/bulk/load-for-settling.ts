/** What the settling of unknown items (settle-unknown.ts, run by the command once every answer is in) may do to a load (load-sending.ts). */
import { int64Of, type Pet } from '../api/schemas.js';
import type { BatchedOutput } from './batched-output.js';
import type { LoadContext } from './load-context.js';
import type { LoadRecorder } from './load-recorder.js';
import type { LoadStop } from './load-stop.js';
import { itemName, where } from './outcomes.js';
import type { RequestPool } from './request-pool.js';
import type { SettlerFeed } from './settler-feed.js';
import type { HeldItem, LoadForSettling } from './settle-unknown.js';

/** The parts of one load the settling works with; `send` starts a held item's POST in a slot taken for it. */
export interface LoadParts {
  context: LoadContext;
  stop: LoadStop;
  recorder: LoadRecorder;
  output: BatchedOutput;
  pool: RequestPool;
  feed: SettlerFeed;
  send: (held: HeldItem) => void;
  idle: () => Promise<void>;
}

/** The load as the settling sees it: the settled pets counted, printed and journaled; items sent again (journaled first); items left unknown. */
export function loadForSettling({ context, stop, recorder, output, pool, feed, send, idle }: LoadParts): LoadForSettling {
  return {
    stopped: stop.signal,
    isStopped: () => stop.why !== undefined,
    settled: (held: HeldItem, pet: Pet) => {
      recorder.journal?.created(held.index, int64Of(pet.id));
      recorder.tally.created += 1;
      output.push(context.printPet(pet));
      recorder.message(`settled: ${where(held.item)} ${itemName(held.item.value)} was created: pet ${pet.id}`, 'settled_created', {
        ...recorder.firstRead(held.item),
        id: pet.id,
      });
    },
    send: async (held: HeldItem) => {
      await pool.slot();
      if (output.isBlocked) await output.drained();
      if (stop.why) return false;
      // Journaled, alone, before it is sent again.
      if (recorder.journal) {
        recorder.journalItemSeen(held.index, held.hash, true);
        if (!recorder.flushJournal()) return false;
      }
      feed.sent(held.index, held.hash);
      pool.take();
      send(held);
      return true;
    },
    idle,
    stays: (held: HeldItem, record: Record<string, unknown>, message: string) => {
      recorder.tally.unknown += 1;
      recorder.message(`unknown: ${where(held.item)} ${itemName(held.item.value)}: ${message}`, 'unknown', recorder.firstRead(held.item));
      recorder.writeFailed(held.item.line, record);
    },
    message: (line: string, code: string, fields?: Record<string, unknown>) => recorder.message(line, code, fields),
    warn: (line: string, code: string, fields?: Record<string, unknown>) => context.messages.warn(line, code, fields),
  };
}
