/** Fitting a table to the terminal's width (docs/terminal.md), by display width: CJK and emoji count two columns. */
import cliTruncate from 'cli-truncate';
import displayWidth from 'string-width';

/** Columns a table (./table.ts) adds around its cells: "│ " before each, " │" after the last. */
const borderWidth = (columns: number) => 3 * columns + 1;

/** The widest cell of each column, headers included. */
function naturalWidths(headers: readonly string[], rows: readonly string[][]): number[] {
  const widths = headers.map((h) => displayWidth(h));
  for (const row of rows) for (let i = 0; i < row.length; i += 1) widths[i] = Math.max(widths[i]!, displayWidth(row[i]!));
  return widths;
}

/** `rows` with shrinkable columns cut (widest first, down to the header's width) to fit `terminalColumns`; unchanged when they fit. */
export function fitColumns(
  headers: readonly string[],
  rows: string[][],
  shrinks: readonly boolean[],
  terminalColumns: number | undefined,
): string[][] {
  if (terminalColumns === undefined || !shrinks.some(Boolean)) return rows;
  const limits = naturalWidths(headers, rows);
  let excess = limits.reduce((a, b) => a + b, 0) + borderWidth(headers.length) - terminalColumns;
  if (excess <= 0) return rows;
  const shrinkable = headers.map((_, i) => i).filter((i) => shrinks[i]);
  for (const i of shrinkable.sort((a, b) => limits[b]! - limits[a]!)) {
    const cut = Math.min(excess, limits[i]! - Math.max(displayWidth(headers[i]!), 1));
    if (cut <= 0) continue;
    limits[i] = limits[i]! - cut;
    excess -= cut;
    if (excess <= 0) break;
  }
  return rows.map((row) => row.map((text, i) => (shrinks[i] ? cliTruncate(text, limits[i]!) : text)));
}

/** The narrowest a wrapping column gets (in columns), unless its header and values are narrower. */
const NARROWEST_CELL = 8;

const segmenter = new Intl.Segmenter();

/** `text` as lines of at most `width` columns, broken at spaces (a longer word after a {@link BREAK_AFTER} character). */
export function wrapCell(text: string, width: number): string[] {
  if (displayWidth(text) <= width) return [text];
  const lines: string[] = [];
  let line = '';
  // Each word with the spaces before it: they stay inside a line, and go where it breaks.
  for (const word of text.match(/ *[^ ]+| +$/g) ?? [text]) {
    const bare = line === '' ? word.trimStart() : word;
    if (displayWidth(line + bare) <= width) {
      line += bare;
      continue;
    }
    if (line !== '') lines.push(line);
    line = '';
    for (const piece of breakWord(word.trimStart(), width)) {
      if (line !== '') lines.push(line);
      line = piece;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Where a word wider than a cell (a URL) may break: after a slash, a dot, a hyphen, "?", "&" or "=". */
const BREAK_AFTER = /^[/.\-?&=]$/;

/** A word in pieces of at most `width` columns, each ending after a {@link BREAK_AFTER} character where one falls inside it. */
function breakWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let lastBreak = -1;
  for (const { segment } of segmenter.segment(word)) {
    if (piece !== '' && displayWidth(piece + segment) > width) {
      const cut = lastBreak > 0 ? lastBreak + 1 : piece.length;
      pieces.push(piece.slice(0, cut));
      piece = piece.slice(cut);
      lastBreak = piece.lastIndexOf('/');
    }
    piece += segment;
    if (BREAK_AFTER.test(segment)) lastBreak = piece.length - 1;
  }
  if (piece !== '') pieces.push(piece);
  return pieces;
}

/** The headers and rows with cells wrapped (lines joined by "\n") to fit `terminalColumns`; undefined when even that cannot fit. */
export function wrapColumns(
  headers: readonly string[],
  rows: readonly string[][],
  terminalColumns: number | undefined,
): { headers: string[]; rows: string[][] } | undefined {
  const natural = naturalWidths(headers, rows);
  const room = terminalColumns === undefined ? Number.POSITIVE_INFINITY : terminalColumns - borderWidth(headers.length);
  if (natural.reduce((a, b) => a + b, 0) <= room) return { headers: [...headers], rows: rows.map((row) => [...row]) };
  // Each column at least its header's longest word, and NARROWEST_CELL unless everything in it is narrower.
  const widths = headers.map((h, i) => Math.max(...h.split(' ').map((w) => displayWidth(w)), Math.min(natural[i]!, NARROWEST_CELL)));
  let left = room - widths.reduce((a, b) => a + b, 0);
  if (left < 0) return undefined;
  // The rest goes, a column at a time, to the column that lacks the most.
  for (; left > 0; left -= 1) {
    let neediest = -1;
    for (let i = 0; i < widths.length; i += 1) {
      if (natural[i]! > widths[i]! && (neediest < 0 || natural[i]! - widths[i]! > natural[neediest]! - widths[neediest]!)) neediest = i;
    }
    if (neediest < 0) break;
    widths[neediest] = widths[neediest]! + 1;
  }
  const wrap = (text: string, i: number) => wrapCell(text, widths[i]!).join('\n');
  return { headers: headers.map(wrap), rows: rows.map((row) => row.map(wrap)) };
}
