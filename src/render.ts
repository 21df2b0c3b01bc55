/**
 * Human and machine output of pets. Human output (tables, key/value views) is
 * sanitised for the terminal; `--json` output is the service's JSON, exact.
 */
import type { ChalkInstance } from 'chalk';
import { stringifyJson } from './api/json.js';
import type { Pet } from './api/schemas.js';
import { sanitizeText } from './text.js';

/** Where and how output goes; built once in main (see context.ts). */
export interface OutputTarget {
  write(text: string): void;
  /** True when the stream is a terminal: tables instead of tab-separated rows. */
  isTTY: boolean;
  /** chalk colour level: 0 for none. */
  colorLevel: 0 | 1 | 2 | 3;
}

const STATUS_COLOURS: Record<string, (c: ChalkInstance, s: string) => string> = {
  available: (c, s) => c.green(s),
  pending: (c, s) => c.yellow(s),
  sold: (c, s) => c.red(s),
};

/** Writes a value as compact JSON (ids exact, controls escaped) and one newline. */
export function renderJson(out: OutputTarget, value: unknown): void {
  out.write(`${stringifyJson(value)}\n`);
}

/** Writes each value as one line of compact JSON (NDJSON). */
export function renderNdjson(out: OutputTarget, values: unknown[]): void {
  if (values.length) out.write(values.map((value) => `${stringifyJson(value)}\n`).join(''));
}

function cell(value: unknown): string {
  if (value === undefined || value === null) return '-';
  if (typeof value === 'string') return sanitizeText(value);
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return sanitizeText(stringifyJson(value));
}

/** Loads chalk only for output that may be coloured (it loads node:tty). */
async function chalkFor(out: OutputTarget): Promise<ChalkInstance> {
  const { Chalk } = await import('chalk');
  return new Chalk({ level: out.colorLevel });
}

/** The cells of one row: id, name, categoryId, status. */
function petCells(pet: Pet): string[] {
  return [cell(pet.id), cell(pet.name), cell(pet.categoryId), cell(pet.status)];
}

/** Pets as tab-separated rows (id, name, categoryId, status): no header, colour or borders. */
export function renderPetRows(out: OutputTarget, pets: Pet[]): void {
  if (pets.length === 0) return;
  out.write(pets.map((pet) => `${petCells(pet).join('\t')}\n`).join(''));
}

/**
 * Lists pets: on a TTY a table with columns ID, NAME, CATEGORY, STATUS (status
 * coloured); otherwise the same rows as tab-separated text, no header, colour or borders.
 */
export async function renderPetTable(out: OutputTarget, pets: Pet[]): Promise<void> {
  if (!out.isTTY) {
    renderPetRows(out, pets);
    return;
  }
  const rows = pets.map(petCells);
  if (rows.length === 0) {
    out.write('No pets found.\n');
    return;
  }
  const [chalk, { default: Table }] = await Promise.all([chalkFor(out), import('cli-table3')]);
  const table = new Table({
    head: ['ID', 'NAME', 'CATEGORY', 'STATUS'].map((h) => chalk.bold(h)),
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const row of rows) {
    const status = row[3]!;
    const colour = STATUS_COLOURS[status];
    table.push([row[0]!, row[1]!, row[2]!, colour ? colour(chalk, status) : status]);
  }
  out.write(`${table.toString()}\n`);
}

/**
 * One pet as a key/value view: id, name, categoryId, status, then any other
 * field the service sent. On a TTY labels are aligned and coloured; otherwise
 * `key<TAB>value` lines.
 */
export async function renderPet(out: OutputTarget, pet: Pet): Promise<void> {
  const known = ['id', 'name', 'categoryId', 'status'];
  const entries: Array<[string, string]> = [
    ...known.map((key): [string, string] => [key, cell(pet[key])]),
    ...Object.keys(pet)
      .filter((key) => !known.includes(key))
      .map((key): [string, string] => [sanitizeText(key), cell(pet[key])]),
  ];
  if (!out.isTTY) {
    for (const [key, value] of entries) out.write(`${key}\t${value}\n`);
    return;
  }
  const chalk = await chalkFor(out);
  const width = Math.max(...entries.map(([key]) => key.length)) + 1;
  for (const [key, value] of entries) {
    const colour = key === 'status' ? STATUS_COLOURS[value] : undefined;
    out.write(`${chalk.dim(`${key}:`.padEnd(width))} ${colour ? colour(chalk, value) : value}\n`);
  }
}
