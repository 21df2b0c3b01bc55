/**
 * Fitting a table to the terminal: when the rows would be wider than the
 * terminal, the columns that may shrink (a pet's NAME) are cut with "…" by
 * display width, so that no row wraps. Output that is not a terminal is never cut.
 */
import { displayWidth, truncateToWidth } from './width.js';

/** Columns a table (./table.ts) adds around its cells: "│ " before each, " │" after the last. */
const borderWidth = (columns: number) => 3 * columns + 1;

/**
 * Returns `rows` with the cells of shrinkable columns cut so that the table
 * (headers, rows, borders) fits in `terminalColumns`; unchanged when it fits
 * already, when `terminalColumns` is undefined, or when nothing may shrink.
 * Other columns are never cut; a shrinkable column keeps at least its header's width.
 */
export function fitColumns(
  headers: readonly string[],
  rows: string[][],
  shrinks: readonly boolean[],
  terminalColumns: number | undefined,
): string[][] {
  if (terminalColumns === undefined || !shrinks.some(Boolean)) return rows;
  const widths = headers.map((h) => displayWidth(h));
  for (const row of rows) {
    for (let i = 0; i < row.length; i += 1) {
      const w = displayWidth(row[i]!);
      if (w > widths[i]!) widths[i] = w;
    }
  }
  let excess = widths.reduce((a, b) => a + b, 0) + borderWidth(headers.length) - terminalColumns;
  if (excess <= 0) return rows;
  // Shrink the widest shrinkable columns first, down to their header's width.
  const limits = [...widths];
  const shrinkable = headers
    .map((_, i) => i)
    .filter((i) => shrinks[i])
    .sort((a, b) => widths[b]! - widths[a]!);
  for (const i of shrinkable) {
    const floor = Math.max(displayWidth(headers[i]!), 1);
    const cut = Math.min(excess, limits[i]! - floor);
    if (cut <= 0) continue;
    limits[i] = limits[i]! - cut;
    excess -= cut;
    if (excess <= 0) break;
  }
  return rows.map((row) =>
    row.map((text, i) => (shrinks[i] && displayWidth(text) > limits[i]! ? truncateToWidth(text, limits[i]!) : text)),
  );
}
