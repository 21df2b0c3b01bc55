/** An item of a bulk load as messages name it (its line, its name), and what an earlier `--failed` line stands for. */
import path from 'node:path';
import type { Outcome } from './failed-file.js';
import { itemFromBytes, itemFromText, type InputItem } from './input-item.js';

/** An input item; a `--failed` line stands for its item (see {@link resolveItem}). */
export interface ResolvedItem extends InputItem {
  /** The outcome an earlier load recorded (a `--failed` line only). */
  previous?: Outcome;
  /** That line as read, to carry it over unchanged. */
  record?: Record<string, unknown>;
  /** Where the item was first read from (a `--failed` line only). */
  origin?: Origin;
}

/** An item's first input: its line there, and the input's path ("-" for stdin) when known. */
export interface Origin {
  line: number;
  source?: string;
}

const OUTCOMES: readonly string[] = ['failed', 'not_sent', 'unknown'];

function isFailedLine(
  value: unknown,
): value is Record<string, unknown> & { item: unknown; text?: unknown; text_base64?: unknown; outcome?: unknown } {
  return typeof value === 'object' && value !== null && 'item' in value && 'error' in value && 'line' in value;
}

/** The item a `--file` line stands for: a `--failed` line's `item` (or kept text read again) with its recorded outcome; else the item as is. */
export function resolveItem(item: InputItem): ResolvedItem {
  const line = item.value;
  if (!isFailedLine(line)) return item;
  const previous = (OUTCOMES.includes(line.outcome as string) ? line.outcome : 'failed') as Outcome;
  const source =
    line.item !== null
      ? { ...item, value: line.item }
      : typeof line.text_base64 === 'string'
        ? (itemFromBytes(Buffer.from(line.text_base64, 'base64'), item.line, item.index) ?? { ...item, value: line.item })
        : typeof line.text === 'string'
          ? itemFromText(line.text, item.line, item.index)
          : { ...item, value: line.item };
  const first = typeof line.line === 'bigint' || typeof line.line === 'number' ? Number(line.line) : Number.NaN;
  const origin: Origin = { line: Number.isSafeInteger(first) && first > 0 ? first : item.line };
  if (typeof line.source === 'string') origin.source = line.source;
  return { ...source, previous, record: line, origin };
}

/** Lines as ranges: [3, 4, 5, 9] → "3-5, 9". */
export function describeLines(lines: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j + 1 < lines.length && lines[j + 1] === lines[j]! + 1) j += 1;
    parts.push(i === j ? `${lines[i]}` : `${lines[i]}-${lines[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/** Where an item is, for messages: "line 4", "line 4 (item 2)", or for a `--failed` item "line 7 of pets.ndjson" ("standard input" for "-"). */
export function where(item: ResolvedItem): string {
  if (item.origin) {
    const { line, source } = item.origin;
    if (source === undefined) return `line ${line} of the earlier input`;
    return `line ${line} of ${source === '-' ? 'standard input' : path.basename(source)}`;
  }
  return item.index === undefined ? `line ${item.line}` : `line ${item.line} (item ${item.index})`;
}

/** An item's name for messages, quoted and cut at 40 characters, or "(no name)". */
export function itemName(value: unknown): string {
  const name = typeof value === 'object' && value !== null ? (value as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name) : '(no name)';
}
