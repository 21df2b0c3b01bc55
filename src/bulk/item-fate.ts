/**
 * What becomes of one item a bulk load reads, decided by what is known of it: what the journal records of it, the flags, whether the
 * load stopped, and the item itself. The first row of {@link FATES} that applies decides; load-sending.ts carries each fate out.
 * docs/internals.md ("What the load branches on") holds the same table (test/item-fate.test.ts).
 */
import { describeIssue, NewPet, plainNewPet } from '../api/schemas.js';
import type { ErrorReport } from '../errors.js';
import type { JournalState } from './journal.js';
import type { ResolvedItem } from './outcomes.js';

/** The fates, in the order they are asked: the first that applies is the item's. */
export const FATES = [
  'created_before',
  'decided_before',
  'unanswered_before',
  'waits_for_check',
  'carried_over',
  'not_sent',
  'invalid',
  'send',
] as const;

/** One item's fate, with what carrying it out needs. */
export type ItemFate =
  /** The journal records it created: counted, not sent. */
  | { fate: 'created_before' }
  /** The journal records it failed or unknown: that record again (an unknown one to the settling, with --resolve-unknown). */
  | { fate: 'decided_before'; record: Record<string, unknown> }
  /** The journal records it sent with no answer, and no --retry-unknown: unknown (or to the settling). */
  | { fate: 'unanswered_before' }
  /** The journal knows it and the input is still compared with the journal: held back, sent once the input proved the same. */
  | { fate: 'waits_for_check' }
  /** An `unknown` line of an earlier --failed file, and no --retry-unknown: its line again (or to the settling). */
  | { fate: 'carried_over' }
  /** The load stopped: not_sent (unknown when an earlier run sent it and recorded no answer). */
  | { fate: 'not_sent' }
  /** Not JSON, or not a NewPet: failed, never sent. */
  | { fate: 'invalid'; report: ErrorReport }
  /** Journaled as being sent, then POSTed (once a slot is free, unless the load stops meanwhile). */
  | { fate: 'send'; pet: NewPet };

/** What is known of an item besides the item itself. */
export interface ItemFacts {
  /** What the journal records of it; undefined without a journal (no --failed file). */
  journal: JournalState | undefined;
  /** The journal knows it, and the items it knows are still being compared with the input. */
  checking: boolean;
  retryUnknown: boolean;
  /** The load stopped. */
  stopped: boolean;
}

/** `item`'s fate: the first row of {@link FATES} that applies. */
export function fateOf(item: ResolvedItem, { journal, checking, retryUnknown, stopped }: ItemFacts): ItemFate {
  if (journal?.kind === 'created') return { fate: 'created_before' };
  // not_sent (the connection never opened) proves nothing was sent: the resumed load sends it.
  if (journal?.kind === 'decided' && journal.record.outcome !== 'not_sent') return { fate: 'decided_before', record: journal.record };
  if (journal?.kind === 'no_answer' && !retryUnknown) return { fate: 'unanswered_before' };
  if (checking) return { fate: 'waits_for_check' };
  if (item.previous === 'unknown' && !retryUnknown) return { fate: 'carried_over' };
  if (stopped) return { fate: 'not_sent' };
  if (item.error !== undefined) return { fate: 'invalid', report: { code: 'invalid_input', message: item.error, status: null } };
  // A Pet of the usual shape is taken without zod's run (which accepts every value it takes: test/answer-check.test.ts).
  const plain = plainNewPet(item.value);
  if (plain) return { fate: 'send', pet: plain };
  const checked = NewPet.safeParse(item.value);
  if (checked.success) return { fate: 'send', pet: checked.data };
  return { fate: 'invalid', report: { code: 'invalid_item', message: describeIssue(checked.error, 'item'), status: null } };
}
