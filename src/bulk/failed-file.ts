/** The `--failed` file: a line per item not created, in a temporary file that replaces it at the end, under a lock (load-lock.ts). */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { stringifyJson } from '../json.js';
import { UsageError, type ErrorReport } from '../errors.js';
import { errnoCode, type HeldLock, LockedError, LockPathError, lockFor, OwnerWriteError } from './load-lock.js';
import { LeaseLostError } from './lock-lease.js';

/** An item not created: `failed` (error status or invalid item), `not_sent`, or `unknown` (sent, no usable answer: maybe created). */
export type Outcome = 'failed' | 'not_sent' | 'unknown';

export interface FailedRecord {
  /** The line the item starts on in its first input, kept through reruns. */
  line: number;
  /** That input's absolute path, or "-" for stdin (absent in older lines). */
  source?: string;
  outcome: Outcome;
  /** The item as read; null when the input was not JSON. */
  item: unknown;
  /** The source of input that was not JSON. */
  text?: string;
  /** That source's bytes in base64 when they were not UTF-8. */
  text_base64?: string;
  error: ErrorReport;
}

/** Writing the `--failed` file failed (a full disk, say): later outcomes cannot be recorded. */
export class FailedWriteError extends Error {
  override name = 'FailedWriteError';

  constructor(
    readonly file: string,
    readonly code: string,
  ) {
    super(`cannot write --failed ${file}: ${code}`);
  }
}

/** Source texts longer than this (in UTF-16 units) are written in slices. */
const SLICE = 1 << 20;

/** `fs.writeSync(fd, data, offset)`: the bytes it took (a full disk may take fewer, then throw ENOSPC); tests inject faults through it. */
export type WriteSync = (fd: number, data: Buffer, offset: number) => number;

const writeSync: WriteSync = (fd, data, offset) => fs.writeSync(fd, data, offset);

/** Writes `text` whole to `fd` (writeSync until every byte is taken) through `write`; throws the file system's error. */
export function writeAll(fd: number, text: string, write: WriteSync = writeSync): void {
  const data = Buffer.from(text);
  for (let offset = 0; offset < data.length; ) offset += write(fd, data, offset);
}

/** Where `given` leads when it is a link (or chain) to a path that does not exist yet; else `given`. */
function danglingTarget(given: string): string {
  let file = given;
  for (let hops = 0; hops < 40; hops += 1) {
    const link = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!link?.isSymbolicLink()) break;
    file = path.resolve(path.dirname(file), fs.readlinkSync(file));
  }
  if (file === given) return given;
  const folder = fs.statSync(path.dirname(file), { throwIfNoEntry: false });
  return folder?.isDirectory() ? path.join(fs.realpathSync(path.dirname(file)), path.basename(file)) : file;
}

/** Flags for a file of the load written anew: never through a link, never waiting on a FIFO. */
export const CREATE_NEW =
  fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/** What a non-regular file is, for messages. */
export function kindOf(stat: fs.Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** Removes the temporary files beside `file`: the lock is held, so their writers are dead or have lost the lock (they stop). */
function removeTemporaries(file: string): void {
  const base = path.basename(file);
  const folder = path.dirname(file);
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(`.${base}.`) || !name.endsWith('.tmp')) continue;
    const found = fs.lstatSync(path.join(folder, name), { throwIfNoEntry: false });
    if (found?.isFile() || found?.isSymbolicLink()) fs.rmSync(path.join(folder, name), { force: true });
  }
}

export class FailedFile {
  private closed = false;

  private constructor(
    readonly path: string,
    /** `path`, or its target when `path` is a link. */
    private readonly target: string,
    private readonly fd: number,
    /** Replaces `path` on commit. */
    private readonly temporary: string,
    private readonly lock: HeldLock,
    private readonly writeBytes: WriteSync,
  ) {}

  /**
   * The error code of a write that failed (a full disk, say): the temporary file may hold part of a line, and lacks the rest, so nothing
   * more is written to it and it never replaces the file --failed names, which keeps the outcomes it held.
   */
  private brokenBy?: string;

  /** `<file>.journal` (journal.ts), beside the file --failed names (its target when a link). */
  get journalPath(): string {
    return `${this.target}.journal`;
  }

  /** The lock's take-over error, once another process has taken it (the load must stop sending). */
  get lockLost(): Error | undefined {
    return this.lock.compromised();
  }

  /** Throws LeaseLostError unless this load still holds the lock (lock-lease.ts): asked before each POST and journal write. */
  confirmLease(): void {
    this.lock.confirm(this.path);
  }

  /** Calls `listener` as soon as another process takes the lock over. */
  onLockLost(listener: (error: Error) => void): void {
    this.lock.onCompromised(listener);
  }

  /**
   * Locks `file` (`lockStaleMs`: the lock's stale time, for tests) and opens where its lines go. Throws UsageError (exit 2, nothing
   * sent) when locked by another load, not a regular file, a link owned by another user, or not writable.
   */
  static async open(given: string, lockStaleMs?: number, write: WriteSync = writeSync): Promise<FailedFile> {
    const link = fs.lstatSync(given, { throwIfNoEntry: false });
    // Another user's link (planted in a shared folder such as /tmp) would make the load write wherever it points.
    if (link?.isSymbolicLink() && link.uid !== process.getuid?.())
      throw new UsageError(`--failed ${given} is a link owned by another user (uid ${link.uid}); refusing to write through it`);
    const existing = fs.statSync(given, { throwIfNoEntry: false });
    if (existing && !existing.isFile()) {
      throw new UsageError(
        `--failed ${given} is ${kindOf(existing)}; it must be a regular file, for its journal (${given}.journal) lets a rerun skip the pets created`,
        'Name a file in a folder you can write, e.g. --failed failed.ndjson.',
        'failed_not_regular',
      );
    }
    // A link's target is written and locked, so that the link stays a link.
    const file = existing ? fs.realpathSync(given) : danglingTarget(given);
    let lock: HeldLock;
    try {
      lock = await lockFor(file, lockStaleMs);
    } catch (error) {
      if (error instanceof LockedError) {
        throw new UsageError(
          `--failed ${file} is being written by another petstore add --file; give each load its own file`,
          `A load that died leaves the lock ${file}.lock, taken over once it has not been renewed for 30 seconds.`,
          'failed_file_locked',
        );
      }
      if (error instanceof LockPathError) throw new UsageError(`cannot lock --failed ${file}: ${error.message}`);
      if (error instanceof OwnerWriteError)
        throw new UsageError(`cannot lock --failed ${file}: ${error.message}; the lock was removed again and nothing was sent`);
      throw new UsageError(`cannot write --failed ${file}: ${errnoCode(error)}`);
    }
    removeTemporaries(file);
    // O_EXCL under an unguessable name, never through a link.
    const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const fd = fs.openSync(temporary, CREATE_NEW, 0o600);
      return new FailedFile(given, file, fd, temporary, lock, write);
    } catch (error) {
      await lock.release().catch(() => undefined);
      throw new UsageError(`cannot write --failed ${file}: ${errnoCode(error)}`);
    }
  }

  /** Adds a record, or an earlier `--failed` line as read; throws FailedWriteError, on every call once one write failed. */
  write(record: FailedRecord | Record<string, unknown>): void {
    if (this.brokenBy) throw new FailedWriteError(this.path, this.brokenBy);
    try {
      const { text, error, ...before } = record as { text?: unknown; error?: unknown };
      if (typeof text !== 'string' || text.length < SLICE) {
        writeAll(this.fd, `${stringifyJson(record)}\n`, this.writeBytes);
        return;
      }
      // A large source text goes a slice at a time, never held whole as JSON.
      const opening = stringifyJson(before).slice(0, -1);
      writeAll(this.fd, `${opening}${opening.length > 1 ? ',' : ''}"text":"`, this.writeBytes);
      for (let start = 0; start < text.length; start += SLICE) {
        writeAll(this.fd, stringifyJson(text.slice(start, start + SLICE)).slice(1, -1), this.writeBytes);
      }
      writeAll(this.fd, `"${error === undefined ? '' : `,"error":${stringifyJson(error)}`}}\n`, this.writeBytes);
    } catch (error) {
      this.brokenBy = errnoCode(error);
      throw new FailedWriteError(this.path, this.brokenBy);
    }
  }

  /** Puts the new file in place of the old one; throws FailedWriteError, and leaves the old one, when a write to the new one failed. */
  async commit(): Promise<void> {
    try {
      if (this.brokenBy) throw new FailedWriteError(this.path, `${this.brokenBy}; it was left as it was before this load`);
      // Another load took the lock over (this one stopped past the stale time): its file is not replaced.
      const compromised = this.lock.compromised();
      if (compromised) throw new FailedWriteError(this.path, `${errnoCode(compromised)}: another process took over its lock`);
      // Nor when this load's lease ran out (a pause): the file may be another load's by now.
      this.confirmLease();
      fs.fsyncSync(this.fd);
      fs.closeSync(this.fd);
      this.closed = true;
      const now = fs.lstatSync(this.target, { throwIfNoEntry: false });
      // A folder or FIFO put there during the load: rename would fail or replace what is not ours to replace.
      if (now && !now.isFile() && !now.isSymbolicLink()) throw new FailedWriteError(this.path, `it is now ${kindOf(now)}`);
      fs.renameSync(this.temporary, this.target);
    } catch (error) {
      if (error instanceof LeaseLostError)
        throw new FailedWriteError(
          this.path,
          { expired: 'its lock went unrenewed too long', taken: 'another process took over its lock', gone: 'its lock was removed' }[
            error.kind
          ],
        );
      throw error instanceof FailedWriteError ? error : new FailedWriteError(this.path, errnoCode(error));
    } finally {
      await this.dispose();
    }
  }

  /** Gives up: the old file stays; the temporary one is removed. */
  async dispose(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      try {
        fs.closeSync(this.fd);
      } catch {
        // Already closed or never usable.
      }
    }
    fs.rmSync(this.temporary, { force: true });
    await this.lock.release().catch(() => undefined);
  }
}
