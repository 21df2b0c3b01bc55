/**
 * Text wrapped at spaces to a terminal's width: help's added sections and
 * messages on stderr. Not wrap-ansi: it loads string-width, whose
 * Intl.Segmenter loads ICU data, on the path of --help and of every error.
 */

/** Code points a terminal draws two columns wide: CJK, Hangul, fullwidth forms, emoji. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

/** Columns `text` (plain, no escape sequences) takes on a terminal; approximate for the rarest characters. */
export function columnsOf(text: string): number {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const c of text) width += WIDE.test(c) ? 2 : /\p{Mn}|\p{Me}|\u200d|[\ufe00-\ufe0f]/u.test(c) ? 0 : 1;
  return width;
}

/**
 * `text` (one line) as lines of at most `width` columns, broken at spaces,
 * the first starting with `first`, the next with `rest`. A word wider than a
 * line stays whole on a line of its own.
 */
export function wrapLine(text: string, width: number, first = '', rest = first): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(' ').filter((w, i) => w !== '' || i === 0)) {
    if (empty) line += word;
    else if (columnsOf(`${line} ${word}`) <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = rest + word;
    }
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** An indented two-column line of help: "  0    success", "  base-url   base URL of...". */
const ITEM = /^( +)(\S(?:\S| (?! ))*)( {2,})(\S.*)$/;

/**
 * Help text as `addHelpText` adds it, wrapped at `width`: paragraphs and
 * indented examples at spaces (an example's next lines four columns further
 * in), a two-column table's description within its column, or below its term
 * when the column would be too narrow.
 */
export function wrapHelpText(text: string, width: number): string {
  const out: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (columnsOf(line) <= width && !ITEM.test(line)) {
      out.push(line);
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const [, indent, term, gap, first] = item as unknown as [string, string, string, string, string];
      const column = indent.length + term.length + gap.length;
      let description = first;
      const original = [line];
      // Lines indented to the description's column continue it.
      while (i + 1 < lines.length && /^ +\S/.test(lines[i + 1]!) && lines[i + 1]!.search(/\S/) === column) {
        i += 1;
        original.push(lines[i]!);
        description += ` ${lines[i]!.trim()}`;
      }
      // An example's shell comment stays one on every line it wraps to, so that pasted lines do not run.
      const hash = description.startsWith('# ') ? '# ' : '';
      const words = description.slice(hash.length);
      if (original.every((l) => columnsOf(l) <= width)) out.push(...original);
      else if (width - column >= 24) {
        out.push(...wrapLine(words, width, `${indent}${term}${gap}${hash}`, `${' '.repeat(column)}${hash}`));
      } else {
        const inner = `${indent}    `;
        out.push(...wrapLine(term, width, indent, inner), ...wrapLine(words, width, inner + hash, inner + hash));
      }
      continue;
    }
    const indent = /^ */.exec(line)![0];
    if (indent) {
      out.push(...wrapLine(line.slice(indent.length), width, indent, `${indent}    `));
      continue;
    }
    // A paragraph: its lines (broken for 80 columns) joined, then wrapped.
    let paragraph = line;
    while (i + 1 < lines.length && /^\S.*[^:]$/.test(lines[i + 1]!)) {
      i += 1;
      paragraph += ` ${lines[i]!}`;
    }
    out.push(...wrapLine(paragraph, width));
  }
  return out.join('\n');
}

/** A message on stderr wrapped at `width`: each line too long is broken at spaces, its next lines indented by two. */
export function wrapMessage(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => (columnsOf(line) <= width ? line : wrapLine(line, width, '', '  ').join('\n')))
    .join('\n');
}
