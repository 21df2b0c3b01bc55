/** What the settling of unknown items (settle-unknown.ts, run by the command once every answer is in) may do to a load (load-sending.ts). */
import { int64Of, type Pet } from '../api/schemas.js';
import type { Factory } from '../factory.js';
import { PET_VIEW } from '../output/views.js';
import type { BatchedOutput } from './batched-output.js';
import type { LoadRecorder } from './load-recorder.js';
import type { LoadStateMachine } from './load-state.js';
import { itemName, where } from './outcomes.js';
import type { RequestPool } from './request-pool.js';
import type { HeldItem, LoadSide } from './settle-unknown.js';
import type { UnknownHolding } from './unknown-holding.js';

/** The parts of one load the settling works with; `send` starts a held item's POST in a slot taken for it. */
export interface LoadParts {
  f: Factory;
  machine: LoadStateMachine;
  recorder: LoadRecorder;
  output: BatchedOutput;
  pool: RequestPool;
  holding: UnknownHolding;
  send: (held: HeldItem) => void;
  idle: () => Promise<void>;
}

/** The LoadSide of `parts`: the settled pets counted, printed and journaled; items sent again (journaled first); items left unknown. */
export function loadSideOf({ f, machine, recorder, output, pool, holding, send, idle }: LoadParts): LoadSide {
  return {
    f,
    stopped: machine.stopped,
    isStopped: () => machine.stop !== undefined,
    settled: (held: HeldItem, pet: Pet) => {
      recorder.journal?.created(held.index, int64Of(pet.id));
      recorder.tally.created += 1;
      output.push(f.exporter.streamText([pet], PET_VIEW));
      recorder.message(`settled: ${where(held.item)} ${itemName(held.item.value)} was created: pet ${pet.id}`, 'settled_created', {
        ...recorder.firstRead(held.item),
        id: pet.id,
      });
    },
    send: async (held: HeldItem) => {
      await pool.slot();
      if (output.isBlocked) await output.drained();
      if (machine.stop) return false;
      // Journaled, alone, before it is sent again.
      if (recorder.journal) {
        recorder.journalItemSeen(held.index, held.hash, true);
        if (!recorder.flushJournal()) return false;
      }
      holding.sent(held.index, held.hash);
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
  };
}
