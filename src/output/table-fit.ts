/**
 * Fitting a table to the terminal: when the rows would be wider than the
 * terminal, the columns that may shrink (a pet's NAME) are cut with "…" by
 * display width, so that no row wraps; tables of records (config list, auth
 * status) never cut a value: their cells wrap instead ({@link wrapColumns}).
 * Output that is not a terminal is never cut.
 */
import cliTruncate from 'cli-truncate';
import displayWidth from 'string-width';

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
  return rows.map((row) => row.map((text, i) => (shrinks[i] ? cliTruncate(text, limits[i]!) : text)));
}

/** The narrowest a wrapping column gets (in columns), unless its header and values are narrower. */
const NARROWEST_CELL = 8;

const segmenter = new Intl.Segmenter();

/**
 * `text` as lines of at most `width` columns: broken at spaces, and a word
 * wider than that after a "/" or "." (a URL) or, failing that, between
 * graphemes. Nothing is dropped but the spaces where a line breaks.
 */
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

/** A word wider than `width` in pieces of at most `width` columns, each ending after a {@link BREAK_AFTER} character where one falls inside it. */
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

/**
 * The table of `headers` and `rows` fitted to `terminalColumns` by wrapping
 * cells (values and headers) rather than cutting them: returns the headers
 * and rows with each cell's lines joined by "\n" (./table.ts draws them), the
 * same when the table fits already or `terminalColumns` is undefined, and
 * undefined when even wrapped it cannot fit (the caller shows key/value lines then).
 */
export function wrapColumns(
  headers: readonly string[],
  rows: readonly string[][],
  terminalColumns: number | undefined,
): { headers: string[]; rows: string[][] } | undefined {
  if (terminalColumns === undefined) return { headers: [...headers], rows: rows.map((row) => [...row]) };
  const natural = headers.map((h) => displayWidth(h));
  for (const row of rows) for (let i = 0; i < row.length; i += 1) natural[i] = Math.max(natural[i]!, displayWidth(row[i]!));
  const room = terminalColumns - borderWidth(headers.length);
  if (natural.reduce((a, b) => a + b, 0) <= room) return { headers: [...headers], rows: rows.map((row) => [...row]) };
  // Each column at least its header's longest word, and NARROWEST_CELL unless everything in it is narrower.
  const widths = headers.map((h, i) => Math.max(...h.split(' ').map((w) => displayWidth(w)), Math.min(natural[i]!, NARROWEST_CELL)));
  let left = room - widths.reduce((a, b) => a + b, 0);
  if (left < 0) return undefined;
  // The rest goes, a column at a time, to the column that lacks the most.
  while (left > 0) {
    let neediest = -1;
    for (let i = 0; i < widths.length; i += 1) {
      if (natural[i]! > widths[i]! && (neediest < 0 || natural[i]! - widths[i]! > natural[neediest]! - widths[neediest]!)) neediest = i;
    }
    if (neediest < 0) break;
    widths[neediest] = widths[neediest]! + 1;
    left -= 1;
  }
  const wrap = (text: string, i: number) => wrapCell(text, widths[i]!).join('\n');
  return { headers: headers.map(wrap), rows: rows.map((row) => row.map(wrap)) };
}
