/** The views of what petstore prints: pets (the status coloured) and key/value records (config, auth status). */
import type { ChalkInstance } from 'chalk';
import type { Column, View } from './render.js';

const STATUS_COLOURS: Record<string, (c: ChalkInstance, s: string) => string> = {
  available: (c, s) => c.green(s),
  pending: (c, s) => c.yellow(s),
  sold: (c, s) => c.red(s),
};

/** Pets: the interface Pet's four fields; key/value views add any other field the service sent. */
export const PET_VIEW: View = {
  columns: [
    { key: 'id', header: 'ID' },
    { key: 'name', header: 'NAME', shrinks: true },
    { key: 'categoryId', header: 'CATEGORY ID' },
    { key: 'status', header: 'STATUS', colour: (chalk, text) => STATUS_COLOURS[text]?.(chalk, text) ?? text },
  ],
  showOtherFields: true,
  empty: 'No pets found.',
};

function words(key: string): string[] {
  return key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(' ')
    .map((w) => (/^(url|api|id)$/i.test(w) ? w.toUpperCase() : w.toLowerCase()));
}

/** A view of records whose columns are `keys`: headers in capitals ("BASE URL"), labels as words ("Base URL"), cells wrapped, never cut. */
export function viewOfKeys(keys: readonly string[], empty = 'Nothing to show.'): View {
  // No value is cut to fit the terminal: cells wrap (output/table-fit.ts).
  const columns: Column[] = keys.map((key) => {
    const parts = words(key);
    const label = parts.join(' ');
    return { key, header: label.toUpperCase(), label: label.charAt(0).toUpperCase() + label.slice(1), wraps: true };
  });
  return { columns, showOtherFields: false, empty };
}
