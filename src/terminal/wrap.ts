/** Text wrapped at spaces to a terminal's width (help, stderr); not wrap-ansi, whose string-width loads ICU data on every --help. */

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

/** Joins words that a line must not break between ("default:" and its value); {@link plainSpaces} turns it back into a space. */
export const UNBROKEN = '\u00a0';

/** `text` with its unbreakable spaces ({@link UNBROKEN}) as plain ones, once it is wrapped. */
export const plainSpaces = (text: string): string => text.replaceAll(UNBROKEN, ' ');

/** `text` (one line) as lines of at most `width` columns, broken at spaces, prefixed by `first` then `rest`; a long word stays whole. */
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

/** A two-column line of help with the lines that continue its description. */
interface Item {
  indent: string;
  term: string;
  gap: string;
  description: string;
  /** The lines as written. */
  original: string[];
}

/** Below this many columns beside its term, a description goes below the term (as every other of its table). */
const NARROWEST_COLUMN = 24;

/**
 * Help text as `addHelpText` adds it, wrapped at `width`: paragraphs and indented lines at spaces (an example's lines ending in ` \`),
 * a two-column table within its column, or all its descriptions below their terms when a column would be too narrow.
 */
export function wrapHelpText(text: string, width: number): string {
  const out: string[] = [];
  const lines = text.split('\n');
  let examples = false;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (/^\S.*:$/.test(line)) examples = line === 'Examples:';
    if (ITEM.test(line)) {
      // A table: the items that follow one another, each with its continuation lines.
      const table: Item[] = [];
      while (i < lines.length && ITEM.test(lines[i]!)) {
        const [, indent, term, gap, first] = ITEM.exec(lines[i]!) as unknown as [string, string, string, string, string];
        const column = indent.length + term.length + gap.length;
        const item: Item = { indent, term, gap, description: first, original: [lines[i]!] };
        // Lines indented to the description's column continue it.
        while (i + 1 < lines.length && /^ +\S/.test(lines[i + 1]!) && lines[i + 1]!.search(/\S/) === column) {
          i += 1;
          item.original.push(lines[i]!);
          item.description += ` ${lines[i]!.trim()}`;
        }
        table.push(item);
        i += 1;
      }
      i -= 1;
      out.push(...wrapTable(table, width, examples));
      continue;
    }
    if (columnsOf(line) <= width) {
      out.push(line);
      continue;
    }
    const indent = /^ */.exec(line)![0];
    // An indented line that is not a table's is a command (an example, a line to add to a file): continued with ` \`.
    if (indent) {
      out.push(...wrapCommand(line.slice(indent.length), width, indent, `${indent}    `));
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

const fits = (item: Item, width: number) => item.original.every((l) => columnsOf(l) <= width);
const columnOf = (item: Item) => item.indent.length + item.term.length + item.gap.length;

/** A table's items at `width`: as written when they fit, else in their column, or all below their terms. */
function wrapTable(table: readonly Item[], width: number, examples: boolean): string[] {
  const below = table.some((item) => !fits(item, width) && width - columnOf(item) < NARROWEST_COLUMN);
  return table.flatMap((item) => {
    // An example's shell comment stays one on every line it wraps to, so that pasted lines do not run.
    const hash = item.description.startsWith('# ') ? '# ' : '';
    const words = item.description.slice(hash.length);
    if (!below) {
      if (fits(item, width)) return item.original;
      const column = ' '.repeat(columnOf(item));
      return wrapLine(words, width, `${item.indent}${item.term}${item.gap}${hash}`, `${column}${hash}`);
    }
    const inner = `${item.indent}    `;
    const term = (examples ? wrapCommand : wrapLine)(item.term, width, item.indent, inner);
    return [...term, ...wrapLine(words, width, inner + hash, inner + hash)];
  });
}

/**
 * A command line of an example wrapped as `wrapLine` does, each line but the last ending in ` \` (the shell's continuation), never
 * inside a quoted word, where a backslash and a line break would be taken as they are, nor between a flag and its value
 * (`--status available`) or a redirection and its file (`> created.ndjson`).
 */
export function wrapCommand(text: string, width: number, first: string, rest: string): string[] {
  // A pair too wide for a line of its own is left to break: a line that fits beats a pair kept whole.
  const room = width - 2 - columnsOf(rest);
  const quoted = text
    .replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, (word) => word.replaceAll(' ', UNBROKEN))
    .replace(/(^| )(-[^\s]+|>>?|<) ([^\s\-|<>&;]\S*)/g, (pair, before: string, flag: string, value: string) =>
      columnsOf(`${flag} ${value}`) <= room ? `${before}${flag}${UNBROKEN}${value}` : pair,
    );
  const lines = wrapLine(quoted, width - 2, first, rest).map(plainSpaces);
  return lines.map((line, i) => (i < lines.length - 1 ? `${line} \\` : line));
}

/**
 * A message on stderr wrapped at `width`. A line too long is broken at spaces, its next lines indented by two, but for the lead-in
 * of a command ("Log in:" above "  petstore auth login"), whose next lines stay flush so that only commands are indented. An indented
 * line is a command to run: one too long is continued as an example in help is ({@link wrapCommand}: ` \` at a space outside quotes,
 * the next lines indented by four more), so that what is copied runs as one command, never split inside a word.
 */
export function wrapMessage(text: string, width: number): string {
  const lines = text.split('\n');
  const isCommand = (line: string | undefined) => line !== undefined && /^ +\S/.test(line);
  return lines
    .map((line, i) => {
      if (columnsOf(line) <= width) return line;
      if (isCommand(line)) {
        const indent = /^ */.exec(line)![0];
        return wrapCommand(line.slice(indent.length), width, indent, `${indent}    `).join('\n');
      }
      return wrapLine(line, width, '', isCommand(lines[i + 1]) ? '' : '  ').join('\n');
    })
    .join('\n');
}
