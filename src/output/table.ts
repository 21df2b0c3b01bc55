/**
 * A bordered table for the terminal, drawn in one pass: widths by display
 * width (CJK and emoji count two columns), cells padded after colouring.
 * Written here rather than with cli-table3, whose Table.toString spreads every
 * row into one call (`push.apply`) and fails on a listing of about 120,000
 * pets, and which lays out each cell as an object: a page of 130,000 pets
 * must print in a few seconds.
 */
import { displayWidth } from './width.js';

/** How a cell's text looks on the terminal once padded (colour, bold); identity when plain. */
export type Paint = (text: string) => string;

/**
 * The table of `headers` and `rows` (plain text, already cut to fit), with
 * `paintHeader` applied to headers and `paintCell[i]` to the cells of column i.
 * Ends with a newline.
 */
export function drawTable(
  headers: readonly string[],
  rows: readonly string[][],
  paintHeader: Paint,
  paintCell: ReadonlyArray<Paint | undefined>,
): string {
  const widths = headers.map((h) => displayWidth(h));
  for (const row of rows) {
    for (let i = 0; i < row.length; i += 1) {
      const w = displayWidth(row[i]!);
      if (w > widths[i]!) widths[i] = w;
    }
  }
  const rule = (left: string, middle: string, right: string) => `${left}${widths.map((w) => '─'.repeat(w + 2)).join(middle)}${right}\n`;
  const line = (cells: readonly string[], paint: (i: number) => Paint | undefined) =>
    `│ ${cells.map((text, i) => `${paint(i)?.(text) ?? text}${' '.repeat(widths[i]! - displayWidth(text))}`).join(' │ ')} │\n`;
  const parts = [rule('┌', '┬', '┐'), line(headers, () => paintHeader), rule('├', '┼', '┤')];
  for (const row of rows) parts.push(line(row, (i) => paintCell[i]));
  parts.push(rule('└', '┴', '┘'));
  return parts.join('');
}
