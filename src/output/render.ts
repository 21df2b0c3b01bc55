/**
 * The one output layer: renders a list of items or one item in any of the
 * formats of ./format.ts. Human formats (table, key/value, TSV) are sanitised
 * for the terminal; JSON and NDJSON are the service's JSON, exact. What the
 * columns are comes from a View (./views.ts), so that a pet prints the same
 * way whichever command produced it.
 */
import type { ChalkInstance } from 'chalk';
import { stringifyJson } from '../json.js';
import type { OutputTarget } from '../iostreams.js';
import { cellText } from './cells.js';
import type { OutputFormat, OutputSpec } from './format.js';

type Item = Record<string, unknown>;

/** One column of a view. */
export interface Column {
  key: string;
  header: string;
  /** The column that gives way (truncated with "…") when a table is wider than the terminal. */
  shrinks?: boolean;
  /** The column's cells wrap (never cut) when a table is wider than the terminal; see table-fit.ts's wrapColumns. */
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

/** Loads chalk only for output that may be coloured (it loads node:tty). */
async function chalkFor(out: OutputTarget): Promise<ChalkInstance> {
  const { Chalk } = await import('chalk');
  return new Chalk({ level: out.colorLevel });
}

function fields(item: Item, view: View): Array<[string, unknown, Column | undefined]> {
  const listed = view.columns.map((c): [string, unknown, Column] => [c.label ?? c.key, item[c.key], c]);
  if (!view.showOtherFields) return listed;
  const known = new Set(view.columns.map((c) => c.key));
  return [
    ...listed,
    ...Object.keys(item)
      .filter((key) => !known.has(key))
      .map((key): [string, unknown, undefined] => [key, item[key], undefined]),
  ];
}

/** Items as tab-separated rows of the view's columns: no header, colour or borders. */
export function tsvRows(items: readonly Item[], view: View): string {
  let text = '';
  for (const item of items) text += `${view.columns.map((c) => cellText(item[c.key])).join('\t')}\n`;
  return text;
}

/** Items as NDJSON, one compact JSON value per line. */
export function ndjsonLines(items: readonly unknown[]): string {
  let text = '';
  for (const item of items) text += `${stringifyJson(item)}\n`;
  return text;
}

async function keyValue(out: OutputTarget, items: readonly Item[], view: View): Promise<string> {
  const blocks: string[] = [];
  const chalk = out.isTTY ? await chalkFor(out) : undefined;
  for (const item of items) {
    const entries = fields(item, view).map(([key, value, column]) => [cellText(key), cellText(value), column] as const);
    if (!chalk) {
      blocks.push(entries.map(([key, value]) => `${key}\t${value}\n`).join(''));
      continue;
    }
    const [{ default: displayWidth }, { wrapCell }] = await Promise.all([import('string-width'), import('./table-fit.js')]);
    const width = Math.max(...entries.map(([key]) => displayWidth(key))) + 1;
    // A value wider than the terminal wraps under itself (at spaces, a URL after "/" or "."), never cut.
    const room = out.columns === undefined ? Number.POSITIVE_INFINITY : Math.max(out.columns - width - 1, 8);
    const indent = ' '.repeat(width + 1);
    blocks.push(
      entries
        .map(([key, value, column]) => {
          const lines = wrapCell(value, room).map((line) => (column?.colour ? column.colour(chalk, line) : line));
          return `${chalk.dim(`${key}:`.padEnd(width))} ${lines.join(`\n${indent}`)}\n`;
        })
        .join(''),
    );
  }
  return blocks.join('\n');
}

async function table(out: OutputTarget, items: readonly Item[], view: View): Promise<string> {
  if (items.length === 0) return `${view.empty}\n`;
  const rows = items.map((item) => view.columns.map((c) => cellText(item[c.key])));
  let headers = view.columns.map((c) => c.header);
  const [{ fitColumns, wrapColumns }, { drawTable }] = await Promise.all([import('./table-fit.js'), import('./table.js')]);
  let fitted: string[][];
  if (view.columns.some((c) => c.wraps)) {
    // Records never lose a value: wrapped in their cells, or key/value lines when even that cannot fit.
    const wrapped = wrapColumns(headers, rows, out.columns);
    if (!wrapped) return keyValue(out, items, view);
    ({ headers, rows: fitted } = wrapped);
  } else {
    fitted = fitColumns(
      headers,
      rows,
      view.columns.map((c) => Boolean(c.shrinks)),
      out.columns,
    );
  }
  const chalk = await chalkFor(out);
  const paints = view.columns.map((c) => (c.colour ? (text: string) => c.colour!(chalk, text) : undefined));
  return drawTable(headers, fitted, (text) => chalk.bold(text), paints);
}

/**
 * Renders `items` as a list in `spec.format` and writes it to `out`. With
 * `spec.jq`, the JSON (the array, or with ndjson each item) goes through jq
 * instead (./jq.ts; throws its runtime error after writing what came before).
 */
export async function printList(out: OutputTarget, items: readonly Item[], view: View, spec: OutputSpec): Promise<void> {
  if (spec.jq !== undefined) {
    const json = spec.format === 'ndjson' ? ndjsonLines(items) : stringifyJson(items);
    return json ? (await import('./jq.js')).printJq(out, spec.jq, json) : undefined;
  }
  switch (spec.format) {
    case 'json':
      return out.write(`${stringifyJson(items)}\n`);
    case 'ndjson':
      return items.length ? out.write(ndjsonLines(items)) : undefined;
    case 'tsv':
      return items.length ? out.write(tsvRows(items, view)) : undefined;
    case 'kv':
      return items.length ? out.write(await keyValue(out, items, view)) : undefined;
    case 'table':
      return out.write(await table(out, items, view));
  }
}

/** Renders one item in `spec.format` (JSON: the object itself, through jq with `spec.jq`; table: one row) and writes it to `out`. */
export async function printOne(out: OutputTarget, item: Item, view: View, spec: OutputSpec): Promise<void> {
  if (spec.jq !== undefined) return (await import('./jq.js')).printJq(out, spec.jq, stringifyJson(item));
  if (spec.format === 'json') return out.write(`${stringifyJson(item)}\n`);
  return printList(out, [item], view, spec);
}

/**
 * Prints a list that arrives in parts (the pages of `list --all`): formats
 * that can stream (json, tsv, ndjson, kv; with jq, ndjson) print each part as
 * it comes; a table and a JSON document for jq need the whole list, printed by
 * {@link end}. JSON is the array written part by part, the same bytes as the
 * whole list at once: when a part fails to arrive, what was written stays as
 * it is, an array cut there (no closing bracket).
 */
export class ListPrinter {
  private readonly gathered: Item[] = [];
  private printed = false;

  constructor(
    private readonly out: OutputTarget,
    private readonly view: View,
    private readonly spec: OutputSpec,
  ) {}

  private get streams(): boolean {
    if (this.spec.jq !== undefined) return this.spec.format === 'ndjson';
    return this.spec.format !== 'table';
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
      await printList(this.out, items, this.view, this.spec);
    }
    this.printed ||= items.length > 0;
  }

  /** Prints what was kept, or ends the JSON array. */
  async end(): Promise<void> {
    if (!this.streams) await printList(this.out, this.gathered, this.view, this.spec);
    else if (this.spec.format === 'json') this.out.write(this.printed ? ']\n' : '[]\n');
  }
}

/**
 * The text of items printed one by one as they come (the pets `add --file`
 * creates), in a format of the `stream` shape (see formatsFor): synchronous,
 * so that a bulk load never waits on it.
 */
export function streamText(items: readonly Item[], view: View, format: OutputFormat): string {
  switch (format) {
    case 'ndjson':
      return ndjsonLines(items);
    case 'tsv':
      return tsvRows(items, view);
    default:
      throw new Error(`--format ${format} cannot print items one by one`);
  }
}
