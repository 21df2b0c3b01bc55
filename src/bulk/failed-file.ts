/**
 * The `--failed` file of a bulk load: one NDJSON line per item not created,
 * `{"line", "source", "outcome", "item", "text"?, "text_base64"?, "error"}`, to be read again by
 * `add --file`. Its old content is never destroyed while it may still be
 * needed: the new lines go to a temporary file beside it that replaces it
 * only when the load has ended, so that it can also be the load's input
 * (through a path, a redirect or a pipe). A lock keeps two loads from writing
 * one file. A file that is not a regular file (a FIFO, /dev/stdout, /dev/full)
 * is written directly. Each record is written at once and synchronously, so
 * that a full disk is a thrown error at a known item, never a crash later.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { stringifyJson } from '../json.js';
import { UsageError, type ErrorReport } from '../errors.js';

/**
 * The outcome of an item that was not created: `failed` (the service answered
 * with an error status, or the item was invalid), `not_sent` (never sent), or
 * `unknown` (sent, and no usable answer: it may have been created).
 */
export type Outcome = 'failed' | 'not_sent' | 'unknown';

/** One line of a `--failed` file. */
export interface FailedRecord {
  /** The line the item starts on in the input it was first read from, kept through reruns. */
  line: number;
  /** That input: its absolute path, or "-" for standard input; kept through reruns (absent in lines of older versions). */
  source?: string;
  outcome: Outcome;
  /** The item as read, or null when the input was not JSON. */
  item: unknown;
  /** The whole source of input that was not JSON. */
  text?: string;
  /** That source's bytes in base64, when they were not UTF-8 (`text` then holds replacement characters). */
  text_base64?: string;
  error: ErrorReport;
}

/** Writing the `--failed` file failed (a full disk, say): the outcomes from here on cannot be recorded. */
export class FailedWriteError extends Error {
  override name = 'FailedWriteError';

  constructor(
    readonly file: string,
    readonly code: string,
  ) {
    super(`cannot write --failed ${file}: ${code}`);
  }
}

/** Source texts longer than this (in UTF-16 units) are written in slices of this size. */
const SLICE = 1 << 20;
const errnoCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

/** Writes all of `text` to `fd`, synchronously. */
function writeAll(fd: number, text: string): void {
  const data = Buffer.from(text);
  for (let offset = 0; offset < data.length; ) offset += fs.writeSync(fd, data, offset);
}

/** Where `given` leads when it is a link (or a chain of links) to a path that does not exist yet; else `given`. */
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

/** The file in the lock folder that names the process holding the lock. */
const OWNER = 'pid';

/**
 * Is `pid` a process that no longer exists on this machine? A zombie (killed,
 * not yet reaped by its parent) counts as dead; EPERM means it exists, under another user.
 */
function isDead(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return errnoCode(error) === 'ESRCH';
  }
  try {
    // Linux: the state follows the command name in parentheses.
    return /\)\s+Z\s/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The pid named in a lock folder, or NaN when it names none (yet). */
function ownerOf(folder: string): number {
  try {
    return Number(fs.readFileSync(path.join(folder, OWNER), 'utf8').trim() || Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/** A lock held: its release, and the error that says another process took it over (proper-lockfile's ECOMPROMISED), if one did. */
interface HeldLock {
  release: () => Promise<void>;
  compromised: () => Error | undefined;
}

/**
 * Takes the lock of `file` (proper-lockfile's `<file>.lock` folder) and writes
 * this process's pid in it. A lock whose process no longer exists (killed,
 * crashed) is taken over at once; a live one is refused with ELOCKED.
 */
async function lockFor(file: string): Promise<HeldLock> {
  const folder = `${file}.lock`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      let compromised: Error | undefined;
      // Not thrown from a timer (the library's default), which would end the load without its summary or --failed.
      const onCompromised = (error: Error) => {
        compromised = error;
      };
      const release = await lockfile.lock(file, { realpath: false, retries: 0, stale: 30_000, onCompromised });
      // The library keeps the lock alive by the folder's mtime, and reads any other mtime as the lock
      // taken over: naming the owner inside it changes that mtime, so it is put back.
      const { mtime } = fs.statSync(folder);
      fs.writeFileSync(path.join(folder, OWNER), String(process.pid));
      fs.utimesSync(folder, mtime, mtime);
      const releaseAll = async () => {
        fs.rmSync(path.join(folder, OWNER), { force: true });
        await release();
      };
      return { release: releaseAll, compromised: () => compromised };
    } catch (error) {
      const code = errnoCode(error);
      if (attempt > 0 || (code !== 'ELOCKED' && code !== 'ENOTEMPTY')) throw error;
      const owner = ownerOf(folder);
      // No pid yet: the owner is between taking the lock and naming itself, so alive.
      if (!Number.isSafeInteger(owner) || owner <= 0 || !isDead(owner)) throw Object.assign(error as Error, { code: 'ELOCKED' });
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }
}

/** Removes the temporary files (see FailedFile.open) that dead processes left beside `file`. */
function removeDeadTemporaries(file: string): void {
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
    const pid = Number(name.slice(base.length + 2, -'.tmp'.length).split('.')[0]);
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && isDead(pid)) fs.rmSync(path.join(folder, name), { force: true });
  }
}

export class FailedFile {
  private closed = false;

  private constructor(
    /** The path the user gave. */
    readonly path: string,
    /** The file written: `path`, or its target when `path` is a link. */
    private readonly target: string,
    private readonly fd: number,
    /** The temporary file that replaces `path` on commit, or undefined when writing `path` directly. */
    private readonly temporary: string | undefined,
    private readonly lock: HeldLock,
  ) {}

  /** The journal of a load that writes this file (see journal.ts): `<file>.journal`; none for a file written directly (a FIFO, /dev/stdout). */
  get journalPath(): string | undefined {
    return this.temporary ? `${this.target}.journal` : undefined;
  }

  /**
   * Locks `file` and opens where its lines go. Throws UsageError (exit 2,
   * nothing sent) when another load holds the lock or it cannot be written.
   */
  static async open(given: string): Promise<FailedFile> {
    const link = fs.lstatSync(given, { throwIfNoEntry: false });
    // Another user's link (planted in a shared folder such as /tmp) would make the load write wherever it points.
    if (link?.isSymbolicLink() && link.uid !== process.getuid?.())
      throw new UsageError(`--failed ${given} is a link owned by another user (uid ${link.uid}); refusing to write through it`);
    const existing = fs.statSync(given, { throwIfNoEntry: false });
    const direct = existing !== undefined && !existing.isFile();
    // A link to a regular file, or to one not made yet: its target is the file
    // written (and locked), so that the link stays a link.
    const file = existing?.isFile() ? fs.realpathSync(given) : existing ? given : danglingTarget(given);
    let lock: HeldLock = { release: async () => undefined, compromised: () => undefined };
    if (!direct) {
      try {
        lock = await lockFor(file);
      } catch (error) {
        if (errnoCode(error) === 'ELOCKED') {
          throw new UsageError(
            `--failed ${file} is being written by another petstore add --file; give each load its own file`,
            undefined,
            'failed_file_locked',
          );
        }
        throw new UsageError(`cannot write --failed ${file}: ${errnoCode(error)}`);
      }
    }
    if (!direct) removeDeadTemporaries(file);
    // Created anew (O_EXCL), under a name nobody can guess; the pid lets a later load remove it should this one die.
    const temporary = direct
      ? undefined
      : path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const fd = fs.openSync(temporary ?? file, temporary ? 'wx' : 'w', 0o600);
      return new FailedFile(given, file, fd, temporary, lock);
    } catch (error) {
      await lock.release().catch(() => undefined);
      throw new UsageError(`cannot write --failed ${file}: ${errnoCode(error)}`);
    }
  }

  /**
   * Adds one record, or a line of an earlier `--failed` file exactly as it was
   * read (an `unknown` item carried over unchanged); throws FailedWriteError
   * when the file cannot take it.
   */
  write(record: FailedRecord | Record<string, unknown>): void {
    try {
      const { text, error, ...before } = record as { text?: unknown; error?: unknown };
      if (typeof text !== 'string' || text.length < SLICE) {
        writeAll(this.fd, `${stringifyJson(record)}\n`);
        return;
      }
      // The source text of a large item is written a slice at a time, so that
      // it is never held as JSON in whole: `{..., "text": "<slices>", "error": ...}`.
      const opening = stringifyJson(before).slice(0, -1);
      writeAll(this.fd, `${opening}${opening.length > 1 ? ',' : ''}"text":"`);
      for (let start = 0; start < text.length; start += SLICE) {
        writeAll(this.fd, stringifyJson(text.slice(start, start + SLICE)).slice(1, -1));
      }
      writeAll(this.fd, `"${error === undefined ? '' : `,"error":${stringifyJson(error)}`}}\n`);
    } catch (error) {
      throw new FailedWriteError(this.path, errnoCode(error));
    }
  }

  /** Puts the new file in place of the old one; throws FailedWriteError. */
  async commit(): Promise<void> {
    try {
      if (this.temporary) {
        // Another load took the lock over (this one was stopped longer than the lock's stale time): its file is not replaced.
        const compromised = this.lock.compromised();
        if (compromised) throw new FailedWriteError(this.path, `${errnoCode(compromised)}: another process took over its lock`);
        fs.fsyncSync(this.fd);
        fs.closeSync(this.fd);
        this.closed = true;
        fs.renameSync(this.temporary, this.target);
      }
    } catch (error) {
      throw error instanceof FailedWriteError ? error : new FailedWriteError(this.path, errnoCode(error));
    } finally {
      await this.dispose();
    }
  }

  /** Gives up: the old file stays as it was; the temporary file is removed. */
  async dispose(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      try {
        fs.closeSync(this.fd);
      } catch {
        // Already closed or never usable: nothing to keep.
      }
    }
    if (this.temporary) fs.rmSync(this.temporary, { force: true });
    await this.lock.release().catch(() => undefined);
  }
}
