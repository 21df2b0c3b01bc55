/** Renders items in any format of ./format.ts: human formats sanitised for the terminal, JSON exact, columns from a View (./views.ts). */
import type { ChalkInstance } from 'chalk';
import { JsonNumber, stringifyJson } from '../json.js';
import type { OutputTarget } from '../iostreams.js';
import { sanitizeText } from '../text.js';
import type { OutputFormat, OutputSpec } from './format.js';

/** One record as a command prints it: its fields by name. */
export type Item = Record<string, unknown>;

/** Runs the run's `--jq` on JSON text and writes the results (the Exporter's printJq). */
export type JqPrinter = (json: string) => Promise<void>;

/** One column of a view. */
export interface Column {
  key: string;
  header: string;
  /** Cut with "…" when a table is wider than the terminal (./table-fit.ts). */
  shrinks?: boolean;
  /** Wrapped, never cut, when a table is wider than the terminal (./table-fit.ts). */
  wraps?: boolean;
  /** The label of key/value lines (default: the key). */
  label?: string;
  /** Colours a cell's text on a terminal. */
  colour?: (chalk: ChalkInstance, text: string) => string;
}

/** How items of one kind are shown. */
export interface View {
  columns: readonly Column[];
  /** Key/value views also list fields that are not columns (a pet's unknown fields). */
  showOtherFields: boolean;
  /** What a table says when there is nothing to show. */
  empty: string;
}

/** The text of one value in a table, a row or a key/value line (numbers exactly as sent); `-` for none. */
function cellText(value: unknown): string {
  if (value === undefined || value === null) return '-';
  if (typeof value === 'string') return sanitizeText(value);
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean' || value instanceof JsonNumber)
    return String(value);
  return sanitizeText(stringifyJson(value));
}

/** chalk is loaded only for output that may be coloured (it loads node:tty). */
async function chalkFor(out: OutputTarget): Promise<ChalkInstance> {
  const { Chalk } = await import('chalk');
  return new Chalk({ level: out.colorLevel });
}

/** An item's key/value lines: label, value and column; with `showOtherFields`, then its fields that are not columns. */
function fields(item: Item, view: View): Array<readonly [string, unknown, Column | undefined]> {
  const known = new Set(view.columns.map((c) => c.key));
  const others = view.showOtherFields ? Object.keys(item).filter((key) => !known.has(key)) : [];
  return [
    ...view.columns.map((c) => [c.label ?? c.key, item[c.key], c] as const),
    ...others.map((key) => [key, item[key], undefined] as const),
  ];
}

/** Items as tab-separated rows of the view's columns: no header, colour or borders. */
function tsvRows(items: readonly Item[], view: View): string {
  const { columns } = view;
  let text = '';
  // Written cell by cell: a bulk load prints a row per created pet.
  for (const item of items) {
    for (let i = 0; i < columns.length; i += 1) text += `${i === 0 ? '' : '\t'}${cellText(item[columns[i]!.key])}`;
    text += '\n';
  }
  return text;
}

/** Items as NDJSON, one compact JSON value per line. */
function ndjsonLines(items: readonly unknown[]): string {
  let text = '';
  for (const item of items) text += `${stringifyJson(item)}\n`;
  return text;
}

async function keyValue(out: OutputTarget, items: readonly Item[], view: View): Promise<string> {
  const entries = (item: Item) => fields(item, view).map(([key, value, column]) => [cellText(key), cellText(value), column] as const);
  if (!out.isTTY)
    return items
      .map((item) =>
        entries(item)
          .map(([key, value]) => `${key}\t${value}\n`)
          .join(''),
      )
      .join('\n');
  const [chalk, { default: displayWidth }, { wrapCell }] = await Promise.all([
    chalkFor(out),
    import('string-width'),
    import('./table-fit.js'),
  ]);
  return items
    .map((item) => {
      const lines = entries(item);
      const width = Math.max(...lines.map(([key]) => displayWidth(key))) + 1;
      // A value wider than the terminal wraps under itself, never cut.
      const room = out.columns === undefined ? Number.POSITIVE_INFINITY : Math.max(out.columns - width - 1, 8);
      return lines
        .map(([key, value, column]) => {
          const wrapped = wrapCell(value, room).map((line) => (column?.colour ? column.colour(chalk, line) : line));
          return `${chalk.dim(`${key}:`.padEnd(width))} ${wrapped.join(`\n${' '.repeat(width + 1)}`)}\n`;
        })
        .join('');
    })
    .join('\n');
}

async function table(out: OutputTarget, items: readonly Item[], view: View): Promise<string> {
  if (items.length === 0) return `${view.empty}\n`;
  const rows = items.map((item) => view.columns.map((c) => cellText(item[c.key])));
  const headers = view.columns.map((c) => c.header);
  const [{ fitColumns, wrapColumns }, { drawTable }, chalk] = await Promise.all([
    import('./table-fit.js'),
    import('./table.js'),
    chalkFor(out),
  ]);
  const shrinks = view.columns.map((c) => Boolean(c.shrinks));
  // Records never lose a value: wrapped in their cells, or key/value lines when even that cannot fit.
  const fitted = view.columns.some((c) => c.wraps)
    ? wrapColumns(headers, rows, out.columns)
    : { headers, rows: fitColumns(headers, rows, shrinks, out.columns) };
  if (!fitted) return keyValue(out, items, view);
  const paints = view.columns.map((c) => (c.colour ? (text: string) => c.colour!(chalk, text) : undefined));
  return drawTable(fitted.headers, fitted.rows, (text) => chalk.bold(text), paints);
}

/** Writes `items` as a list in `spec.format` to `out`, or their JSON through `jq` with `spec.jq` (throws its runtime error). */
export async function printList(out: OutputTarget, items: readonly Item[], view: View, spec: OutputSpec, jq: JqPrinter): Promise<void> {
  if (spec.jq !== undefined) {
    const json = spec.format === 'ndjson' ? ndjsonLines(items) : stringifyJson(items);
    return json ? jq(json) : undefined;
  }
  if (spec.format === 'json') return out.write(`${stringifyJson(items)}\n`);
  if (spec.format === 'table') return out.write(await table(out, items, view));
  if (items.length === 0) return;
  if (spec.format === 'kv') return out.write(await keyValue(out, items, view));
  out.write(spec.format === 'ndjson' ? ndjsonLines(items) : tsvRows(items, view));
}

/** Renders one item in `spec.format` (JSON: the object itself, through `jq` with `spec.jq`; table: one row) and writes it to `out`. */
export async function printOne(out: OutputTarget, item: Item, view: View, spec: OutputSpec, jq: JqPrinter): Promise<void> {
  if (spec.jq !== undefined) return jq(stringifyJson(item));
  if (spec.format === 'json') return out.write(`${stringifyJson(item)}\n`);
  return printList(out, [item], view, spec, jq);
}

/**
 * Prints a list that arrives in parts (the pages of `list --all`), the same bytes as the whole list at once: each part as it comes,
 * but a table and a JSON document for jq at {@link end}. What was written stays when a part fails to arrive.
 */
export class ListPrinter {
  private readonly gathered: Item[] = [];
  private printed = false;
  /** Items written to the output so far. */
  count = 0;

  constructor(
    private readonly out: OutputTarget,
    private readonly view: View,
    private readonly spec: OutputSpec,
    private readonly jq: JqPrinter,
  ) {}

  private get streams(): boolean {
    if (this.spec.jq !== undefined) return this.spec.format === 'ndjson';
    return this.spec.format !== 'table';
  }

  /** It keeps every part until the list ends (a table, whose columns fit every row; `--jq` on the whole array): nothing prints before. */
  get gathers(): boolean {
    return !this.streams;
  }

  /** Items kept so far, to print at the end. */
  get gatheredCount(): number {
    return this.gathered.length;
  }

  /** Prints or keeps one part of the list. */
  async add(items: readonly Item[]): Promise<void> {
    if (!this.streams) {
      for (const item of items) this.gathered.push(item);
      return;
    }
    if (this.spec.format === 'json') {
      // stringifyJson of the part, its brackets swapped for the array's opening or a comma.
      if (items.length) this.out.write(`${this.printed ? ',' : '['}${stringifyJson(items).slice(1, -1)}`);
    } else {
      // Key/value blocks of successive parts are kept apart like those of one part.
      if (this.spec.format === 'kv' && this.printed && items.length) this.out.write('\n');
      await printList(this.out, items, this.view, this.spec, this.jq);
    }
    this.printed ||= items.length > 0;
    this.count += items.length;
    // The page after next is not asked for until stdout has taken this one: a slow reader holds the listing back, not memory.
    await this.out.drained();
  }

  /** The list failed to arrive whole: prints a table's rows kept so far (never jq's part), returns how many items were printed. */
  async cut(): Promise<number> {
    if (!this.streams && this.spec.jq === undefined && this.gathered.length > 0) {
      await printList(this.out, this.gathered, this.view, this.spec, this.jq);
      this.count = this.gathered.length;
    }
    return this.count;
  }

  /** Prints what was kept, or ends the JSON array. */
  async end(): Promise<void> {
    if (!this.streams) await printList(this.out, this.gathered, this.view, this.spec, this.jq);
    else if (this.spec.format === 'json') this.out.write(this.printed ? ']\n' : '[]\n');
  }
}

/** The text of items printed as they come (`add --file`) in a `stream` format: synchronous, so a bulk load never waits on it. */
export function streamText(items: readonly Item[], view: View, format: OutputFormat): string {
  if (format === 'ndjson') return ndjsonLines(items);
  if (format === 'tsv') return tsvRows(items, view);
  throw new Error(`--format ${format} cannot print items one by one`);
}
