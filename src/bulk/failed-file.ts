/**
 * The `--failed` file of a bulk load: one NDJSON line per item not created (FailedRecord), read again by `add --file`. New lines go to
 * a temporary file that replaces it when the load ends, so it can also be the input; a lock keeps two loads from one file. A non-regular
 * file (FIFO, /dev/stdout) is written directly. Records are written synchronously, so a full disk is an error at a known item.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { stringifyJson } from '../json.js';
import { UsageError, type ErrorReport } from '../errors.js';

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
const errnoCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

function writeAll(fd: number, text: string): void {
  const data = Buffer.from(text);
  for (let offset = 0; offset < data.length; ) offset += fs.writeSync(fd, data, offset);
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

const OWNER = 'pid';

/** Is `pid` gone from this machine? A zombie counts as dead; EPERM means it exists under another user. */
function isDead(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return errnoCode(error) === 'ESRCH';
  }
  try {
    return /\)\s+Z\s/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function ownerOf(folder: string): number {
  try {
    return Number(fs.readFileSync(path.join(folder, OWNER), 'utf8').trim() || Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/** A held lock: its release, and proper-lockfile's ECOMPROMISED error if another process took it over. */
interface HeldLock {
  release: () => Promise<void>;
  compromised: () => Error | undefined;
}

/** Takes `<file>.lock` (proper-lockfile) and writes this pid in it; a dead owner's lock is taken over, a live one refused (ELOCKED). */
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
      // The library reads another mtime as the lock taken over: naming the owner changes it, so it is put back.
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

/** Removes temporary files that dead processes left beside `file`. */
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
    readonly path: string,
    /** `path`, or its target when `path` is a link. */
    private readonly target: string,
    private readonly fd: number,
    /** Replaces `path` on commit; undefined when writing `path` directly. */
    private readonly temporary: string | undefined,
    private readonly lock: HeldLock,
  ) {}

  /** `<file>.journal` (journal.ts); none for a file written directly. */
  get journalPath(): string | undefined {
    return this.temporary ? `${this.target}.journal` : undefined;
  }

  /** Locks `file` and opens where its lines go. Throws UsageError (exit 2, nothing sent) when locked by another load or not writable. */
  static async open(given: string): Promise<FailedFile> {
    const link = fs.lstatSync(given, { throwIfNoEntry: false });
    // Another user's link (planted in a shared folder such as /tmp) would make the load write wherever it points.
    if (link?.isSymbolicLink() && link.uid !== process.getuid?.())
      throw new UsageError(`--failed ${given} is a link owned by another user (uid ${link.uid}); refusing to write through it`);
    const existing = fs.statSync(given, { throwIfNoEntry: false });
    const direct = existing !== undefined && !existing.isFile();
    // A link's target is written and locked, so that the link stays a link.
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
    // O_EXCL under an unguessable name; the pid lets a later load remove it should this one die.
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

  /** Adds a record, or an earlier `--failed` line as read; throws FailedWriteError. */
  write(record: FailedRecord | Record<string, unknown>): void {
    try {
      const { text, error, ...before } = record as { text?: unknown; error?: unknown };
      if (typeof text !== 'string' || text.length < SLICE) {
        writeAll(this.fd, `${stringifyJson(record)}\n`);
        return;
      }
      // A large source text goes a slice at a time, never held whole as JSON.
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
        // Another load took the lock over (this one stopped past the stale time): its file is not replaced.
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
    if (this.temporary) fs.rmSync(this.temporary, { force: true });
    await this.lock.release().catch(() => undefined);
  }
}
