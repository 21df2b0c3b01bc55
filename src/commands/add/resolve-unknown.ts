/** `add --file --resolve-unknown` wired to the load: the store's ids (bulk/store-ids.ts) and the settling (bulk/settle-unknown.ts). */
import { setTimeout } from 'node:timers/promises';
import type { PetstoreClient } from '../../api/client.js';
import type { FailedFile } from '../../bulk/failed-file.js';
import type { LoadJournal } from '../../bulk/journal.js';
import type { HeldItem, LoadSide, SettleCounts } from '../../bulk/settle-unknown.js';
import { UnknownSettler } from '../../bulk/settle-unknown.js';
import { itemName, where } from '../../bulk/outcomes.js';
import { addCreatedIds, IdSet, type ListStore, readStoreIds, recordStoreIds, storeIdsPath } from '../../bulk/store-ids.js';
import { CliError, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { petCount } from '../../text.js';
import { listPetPages } from '../list/http.js';

/** The whole store in pages of 100 (issue 29 item 2), each page with its own --timeout. */
function wholeStore(client: PetstoreClient): ListStore {
  return async function* () {
    for await (const { pets, repeats } of listPetPages(client, { limit: 100 }, { all: true, ahead: true })) yield { pets, repeats };
  };
}

/**
 * The settler of this load: before its first POST the store's ids are listed to `F.store-ids` (put in place only while this load holds
 * the lock of `failed`), later runs read them back. Throws UsageError without a journal, and what the listing throws (exit 1, nothing
 * sent).
 */
export async function openSettler(
  f: Factory,
  client: PetstoreClient,
  journal: LoadJournal | undefined,
  journalWritten: number,
  failed?: FailedFile,
): Promise<UnknownSettler> {
  if (!journal)
    throw new UsageError(`--resolve-unknown needs --failed to be a regular file: the journal and the store's ids are kept beside it`);
  // V8's heap already grows slowly: runAddFile set it for the whole load.
  const list = wholeStore(client);
  const file = storeIdsPath(journal.path);
  let before: IdSet | undefined;
  if (!journal.earlier || journal.earlier.known === 0) {
    f.io.info('listing the store before the first pet is sent (--resolve-unknown)', 'listing_store');
    before = await recordStoreIds(file, journal.started, list, () => failed?.confirmLease());
    f.io.info(`the store holds ${petCount(before.size)} before this load; their ids are in ${file}`, 'store_listed', {
      pets: before.size,
      file,
    });
  } else before = await readStoreIds(file, journal.started);
  const created = new IdSet();
  if (journal.earlier) await addCreatedIds(journal.path, created);
  return new UnknownSettler({ list, before, created, timeoutMs: f.globals.timeout, earlierSentAt: journalWritten });
}

/** Settles the items `settler` holds through `load`; undefined when none was held. */
export async function settleActions(settler: UnknownSettler, load: LoadSide): Promise<SettleCounts | undefined> {
  if (settler.pending === 0) return undefined;
  if (!load.isStopped()) {
    const n = settler.pending;
    load.message(`settling ${n === 1 ? '1 unknown item' : `${n} unknown items`} against the store (--resolve-unknown)`, 'settling', {
      unknown: n,
    });
  }
  return settler.settle({
    waitUntil: async (at) => {
      if (load.isStopped()) return false;
      const ms = Math.ceil(at - Date.now());
      if (ms > 0) {
        if (ms > 2000)
          load.message(
            `waiting ${Math.ceil(ms / 1000)}s: the last answers' deadline (--timeout), and as long again for a service still storing`,
            'settle_wait',
            { ms },
          );
        await setTimeout(ms, undefined, { signal: load.stopped }).catch(() => undefined);
      }
      return !load.isStopped();
    },
    settled: (held, pet) => load.settled(held, pet),
    resend: async (items) => {
      let sent = 0;
      for (const held of items) {
        if (await load.send(held)) {
          sent += 1;
          load.message(`sending again: ${where(held.item)} ${itemName(held.item.value)}: no pet in the store is it`, 'resending', {
            line: held.item.origin?.line ?? held.item.line,
          });
        } else load.stays(held, held.record, `${reason(held)}; not sent again: the load stopped`);
      }
      await load.idle();
      return sent;
    },
    stays: (held, ids) => {
      if (ids.length === 0) return load.stays(held, held.record, `${reason(held)}; not settled`);
      const record = { ...held.record, outcome: 'unknown', store_ids: ids.map(String) };
      load.stays(
        held,
        record,
        `not settled: sent before the store was first listed, and ${ids.length === 1 ? 'pet' : 'pets'} ${ids.join(', ')} in the store ` +
          `${ids.length === 1 ? 'carries' : 'carry'} its name, categoryId and status; see whether ${ids.length === 1 ? 'it' : 'one of them'} is it`,
      );
    },
    listingFailed: (error) => {
      const why = error instanceof CliError || error instanceof Error ? error.message : String(error);
      load.f.io.warn(`cannot list the store to settle the unknown items: ${why}; they stay unknown`, 'settle_failed');
    },
    repeats: (count) =>
      load.f.io.warn(
        `the store's listing showed ${count === 1 ? '1 pet' : `${count} pets`} more than once (the store changed while it was read); ` +
          'each pet settled one unknown item at most',
        'listing_repeats',
        { repeats: count },
      ),
    others: (ids) => {
      const shown = ids.slice(0, 20).join(', ');
      const more = ids.length > 20 ? ` and ${ids.length - 20} more` : '';
      load.f.io.warn(
        `${ids.length === 1 ? '1 pet' : `${ids.length} pets`} that this load did not create and no unknown item matches appeared in the ` +
          `store during the load (another writer's), not claimed: ${shown}${more}`,
        'other_writers',
        { ids: ids.map(String) },
      );
    },
  });
}

function reason(held: HeldItem): string {
  const error = held.record.error as { message?: unknown } | undefined;
  return typeof error?.message === 'string' ? error.message : 'sent, and no answer came';
}
