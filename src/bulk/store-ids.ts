/**
 * Pet ids for `add --file --resolve-unknown`: the ids the store held before a load's first POST (`F.store-ids` beside `--failed F`,
 * written before that POST) and the ids the load created (its journal's `{"c":i,"id":"…"}` records). In memory each id takes 8 bytes
 * (a BigInt64Array), so a 1,000,000-pet store costs 8 MB, the ids the load created as much again.
 *
 *   {"petstore_store_ids":1,"journal":"<the journal's started>","listed":"<ISO 8601>"}
 *   1                          one id per line, as the service wrote it (int64)
 *   …
 *   {"count":2}
 *
 * The file is written whole to `F.store-ids.tmp` and renamed into place: a file there is complete.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { int64Of, type Pet } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import { parseJson, stringifyJson } from '../json.js';
import { decodeRecord, isAnswerPrefix } from './journal-codec.js';

/**
 * A whole listing of the store, page by page (`listPets` with its next links, from the command layer): each page's pets not shown
 * before, and `repeats`, how many it showed again (the store changed while it was read) and were left out.
 */
export type ListStore = () => AsyncIterable<{ pets: readonly Pet[]; repeats: number }>;

/** A set of int64 ids at 8 bytes each: sorted on the first look-up after ids were added. */
export class IdSet {
  private ids = new BigInt64Array(1024);
  private length = 0;
  private sorted = true;

  get size(): number {
    return this.length;
  }

  add(id: bigint): void {
    if (this.length === this.ids.length) {
      const grown = new BigInt64Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.length++] = id;
    this.sorted = false;
  }

  private sort(): void {
    if (!this.sorted) {
      this.ids.subarray(0, this.length).sort();
      this.sorted = true;
    }
  }

  has(id: bigint): boolean {
    this.sort();
    let low = 0;
    let high = this.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = this.ids[middle]!;
      if (value === id) return true;
      if (value < id) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }
}

/** `F.store-ids` for the journal `F.journal`. */
export function storeIdsPath(journalPath: string): string {
  return `${journalPath.replace(/\.journal$/, '')}.store-ids`;
}

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/**
 * Lists the store's ids to `file` (tied to the journal `journalStarted`), resolving with them; `guard` runs before the file is put in
 * place. Throws what `list` or `guard` throws, or UsageError.
 */
export async function recordStoreIds(file: string, journalStarted: string, list: ListStore, guard?: () => void): Promise<IdSet> {
  const ids = new IdSet();
  const temporary = `${file}.tmp`;
  let fd: number;
  try {
    fs.rmSync(temporary, { force: true });
    fd = fs.openSync(temporary, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | O_NOFOLLOW, 0o600);
  } catch (error) {
    throw new UsageError(`cannot write ${temporary}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  try {
    const header = { petstore_store_ids: 1, journal: journalStarted, listed: new Date().toISOString() };
    fs.writeSync(fd, `${stringifyJson(header)}\n`);
    for await (const { pets } of list()) {
      let text = '';
      for (const pet of pets) {
        const id = int64Of(pet.id);
        ids.add(id);
        text += `${id}\n`;
      }
      fs.writeSync(fd, text);
    }
    fs.writeSync(fd, `{"count":${ids.size}}\n`);
    fs.fsyncSync(fd);
    // F.store-ids is the load's: replaced only while this load holds the lock of --failed.
    guard?.();
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('E'))
      throw new UsageError(`cannot write ${temporary}: ${error.code}`);
    throw error;
  } finally {
    fs.closeSync(fd);
  }
  return ids;
}

/** The ids of `file` when it is complete and belongs to the journal started at `journalStarted`; undefined otherwise. */
export async function readStoreIds(file: string, journalStarted: string): Promise<IdSet | undefined> {
  let stream: fs.ReadStream;
  try {
    stream = fs.createReadStream('', { fd: fs.openSync(file, fs.constants.O_RDONLY | O_NOFOLLOW) });
  } catch {
    return undefined;
  }
  const ids = new IdSet();
  let header = false;
  let count: number | undefined;
  for await (const line of readline.createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (!header) {
      const value = safeParse(line);
      if (value?.petstore_store_ids === undefined || value.journal !== journalStarted) break;
      header = true;
    } else if (/^-?\d+$/.test(line)) ids.add(BigInt(line));
    else if (line.startsWith('{')) count = Number(safeParse(line)?.count);
  }
  stream.destroy();
  return header && count === ids.size ? ids : undefined;
}

/** Adds to `ids` the ids the journal at `journalPath` records as created (`{"c":i,"id":"…"}`); a missing journal adds none. */
export async function addCreatedIds(journalPath: string, ids: IdSet): Promise<void> {
  let stream: fs.ReadStream;
  try {
    stream = fs.createReadStream('', { fd: fs.openSync(journalPath, fs.constants.O_RDONLY | O_NOFOLLOW) });
  } catch {
    return;
  }
  for await (const line of readline.createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
    // Only created records carry an id: the others are not parsed.
    if (!isAnswerPrefix(line) || !line.includes('"id"')) continue;
    const record = decodeRecord(line, false);
    if (record?.kind === 'created' && record.id !== undefined) ids.add(record.id);
  }
}

function safeParse(line: string): Record<string, unknown> | undefined {
  try {
    const value = parseJson(line);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
