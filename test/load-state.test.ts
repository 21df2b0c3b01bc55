// The bulk load's states (issue 31 item 4): the table in docs/internals.md is the one the code follows.
import fs from 'node:fs';
import { expect, test } from 'vitest';
import { type LoadEvent, type LoadState, TRANSITIONS } from '../src/bulk/load-state.js';

/** The rows of the table under "### The bulk load's states", as TRANSITIONS holds them. */
function documentedTable(): Record<string, Record<string, string>> {
  const text = fs.readFileSync(new URL('../docs/internals.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf("### The bulk load's states"));
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/`/g, '')),
    );
  const [header, , ...body] = rows;
  const events = header!.slice(1);
  return Object.fromEntries(
    body.map(([state, ...cells]) => [state!, Object.fromEntries(events.flatMap((event, i) => (cells[i] ? [[event, cells[i]]] : [])))]),
  );
}

test("docs/internals.md's table of the bulk load's states is TRANSITIONS", () => {
  const table = documentedTable();
  expect(Object.keys(table)).toEqual(Object.keys(TRANSITIONS));
  expect(table).toEqual(TRANSITIONS as Record<LoadState, Partial<Record<LoadEvent, LoadState>>>);
});
