/**
 * A bordered table for the terminal, drawn in one pass, widths by display width. Not cli-table3 (0.6.5): its Table.toString overflows the
 * call stack on a listing of 130,000 pets.
 */
import displayWidth from 'string-width';

/** How a cell's text looks on the terminal once padded (colour, bold). */
export type Paint = (text: string) => string;

/** The table of `headers` and `rows` (fitted by ./table-fit.ts), painted by `paintHeader` and `paintCell[i]`; ends with a newline. */
export function drawTable(
  headers: readonly string[],
  rows: readonly string[][],
  paintHeader: Paint,
  paintCell: ReadonlyArray<Paint | undefined>,
): string {
  const multiline = [headers, ...rows].some((row) => row.some((text) => text.includes('\n')));
  const widthOf = (text: string) => (multiline ? Math.max(...text.split('\n').map((l) => displayWidth(l))) : displayWidth(text));
  const widths = headers.map(widthOf);
  for (const row of rows) for (let i = 0; i < row.length; i += 1) widths[i] = Math.max(widths[i]!, widthOf(row[i]!));
  const rule = (left: string, middle: string, right: string) => `${left}${widths.map((w) => '─'.repeat(w + 2)).join(middle)}${right}\n`;
  const line = (cells: readonly string[], paint: (i: number) => Paint | undefined) =>
    `│ ${cells.map((text, i) => `${text && (paint(i)?.(text) ?? text)}${' '.repeat(widths[i]! - displayWidth(text))}`).join(' │ ')} │\n`;
  const lines = (cells: readonly string[], paint: (i: number) => Paint | undefined) => {
    if (!multiline) return line(cells, paint);
    const split = cells.map((text) => text.split('\n'));
    let text = '';
    for (let n = 0; n < Math.max(...split.map((l) => l.length)); n += 1)
      text += line(
        split.map((l) => l[n] ?? ''),
        paint,
      );
    return text;
  };
  const parts = [rule('┌', '┬', '┐'), lines(headers, () => paintHeader), rule('├', '┼', '┤')];
  rows.forEach((row, n) => {
    if (multiline && n > 0) parts.push(rule('├', '┼', '┤'));
    parts.push(lines(row, (i) => paintCell[i]));
  });
  parts.push(rule('└', '┴', '┘'));
  return parts.join('');
}
