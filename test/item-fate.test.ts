// What becomes of an item a bulk load reads (issue 39 item 4): one table, item-fate.ts's FATES, asked in order; docs/internals.md holds
// the same rows. And the stop the load branches on (load-stop.ts): the first stands, unless an unrecordable one comes after.
import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { CliError, ExitCode, InterruptedError } from '../src/errors.js';
import { FATES, fateOf, type ItemFacts } from '../src/bulk/item-fate.js';
import { LoadStop } from '../src/bulk/load-stop.js';
import type { ResolvedItem } from '../src/bulk/outcomes.js';

/** The fates of the table under "### What the load branches on", in its order. */
function documentedFates(): string[] {
  const text = fs.readFileSync(new URL('../docs/internals.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf('### What the load branches on'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('|')));
  return table
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) => line.split('|')[1]!.trim().replace(/`/g, ''));
}

test("docs/internals.md's table of what becomes of an item is FATES, in its order", () => {
  expect(documentedFates()).toEqual([...FATES]);
});

const pet = { name: 'Rex', categoryId: 1n };
const item = (over: Partial<ResolvedItem> = {}): ResolvedItem => ({ line: 1, value: pet, text: '', ...over }) as ResolvedItem;
const facts = (over: Partial<ItemFacts> = {}): ItemFacts => ({
  journal: undefined,
  checking: false,
  retryUnknown: false,
  stopped: false,
  ...over,
});
const unknownRecord = { outcome: 'unknown', line: 1 };

describe('each row, and the row before it winning', () => {
  test('created_before: the journal records it created, whatever else holds', () => {
    expect(fateOf(item(), facts({ journal: { kind: 'created' }, checking: true, stopped: true })).fate).toBe('created_before');
  });

  test('decided_before: failed or unknown in the journal; a not_sent record is sent again', () => {
    const decided = fateOf(item(), facts({ journal: { kind: 'decided', record: unknownRecord }, stopped: true }));
    expect(decided).toEqual({ fate: 'decided_before', record: unknownRecord });
    expect(fateOf(item(), facts({ journal: { kind: 'decided', record: { outcome: 'not_sent' } } })).fate).toBe('send');
  });

  test('unanswered_before: sent with no answer, unless --retry-unknown', () => {
    expect(fateOf(item(), facts({ journal: { kind: 'no_answer' }, checking: true })).fate).toBe('unanswered_before');
    expect(fateOf(item(), facts({ journal: { kind: 'no_answer' }, retryUnknown: true })).fate).toBe('send');
  });

  test('waits_for_check: while the known items are compared, before any stop', () => {
    expect(fateOf(item({ previous: 'unknown' }), facts({ journal: { kind: 'new' }, checking: true, stopped: true })).fate).toBe(
      'waits_for_check',
    );
  });

  test('carried_over: an unknown --failed line without --retry-unknown, before any stop; with it, the item is sent', () => {
    expect(fateOf(item({ previous: 'unknown' }), facts({ stopped: true })).fate).toBe('carried_over');
    expect(fateOf(item({ previous: 'unknown' }), facts({ retryUnknown: true })).fate).toBe('send');
  });

  test('not_sent: the load stopped, before the item is even checked', () => {
    expect(fateOf(item({ value: undefined, error: 'not JSON' }), facts({ stopped: true })).fate).toBe('not_sent');
  });

  test('invalid: not JSON, or not a NewPet (named by its field)', () => {
    expect(fateOf(item({ value: undefined, error: 'not JSON' }), facts())).toEqual({
      fate: 'invalid',
      report: { code: 'invalid_input', message: 'not JSON', status: null },
    });
    const invalid = fateOf(item({ value: { name: 'Rex' } }), facts());
    expect(invalid.fate === 'invalid' && invalid.report.code).toBe('invalid_item');
    expect(invalid.fate === 'invalid' && invalid.report.message).toMatch(/categoryId/);
  });

  test('send: a NewPet, with the pet to POST', () => {
    expect(fateOf(item(), facts({ journal: { kind: 'not_sent_before' } }))).toEqual({ fate: 'send', pet });
  });
});

describe("the load's stop", () => {
  const signal = { reason: 'signal', error: new InterruptedError('SIGINT') } as const;
  const journal = { reason: 'journal', error: new CliError('cannot write the journal', ExitCode.failure, 'journal_write_error') } as const;
  const auth = { reason: 'auth', error: new CliError('401', ExitCode.auth, 'unauthorized') } as const;

  test('none until one is recorded; its signal aborts at the first', () => {
    const stop = new LoadStop();
    expect(stop.why).toBeUndefined();
    expect(stop.signal.aborted).toBe(false);
    stop.record(signal);
    expect(stop.why).toBe(signal);
    expect(stop.signal.aborted).toBe(true);
  });

  test('the first stands against a later one of its kind; an unrecordable one overrides, and is not overridden', () => {
    const stop = new LoadStop();
    stop.record(signal);
    stop.record(auth);
    expect(stop.why).toBe(signal);
    stop.record(journal);
    expect(stop.why).toBe(journal);
    stop.record({ reason: 'lease', error: journal.error });
    expect(stop.why).toBe(journal);
  });
});
