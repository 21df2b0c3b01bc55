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
import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { stringifyJson } from '../api/json.js';
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
    private readonly release: () => Promise<void>,
  ) {}

  /**
   * Locks `file` and opens where its lines go. Throws UsageError (exit 2,
   * nothing sent) when another load holds the lock or it cannot be written.
   */
  static async open(given: string): Promise<FailedFile> {
    const existing = fs.statSync(given, { throwIfNoEntry: false });
    const direct = existing !== undefined && !existing.isFile();
    // A link to a regular file, or to one not made yet: its target is the file
    // written (and locked), so that the link stays a link.
    const file = existing?.isFile() ? fs.realpathSync(given) : existing ? given : danglingTarget(given);
    let release: () => Promise<void> = async () => undefined;
    if (!direct) {
      try {
        release = await lockfile.lock(file, { realpath: false, retries: 0, stale: 30_000 });
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
    const temporary = direct ? undefined : path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
    try {
      const fd = fs.openSync(temporary ?? file, 'w', 0o600);
      return new FailedFile(given, file, fd, temporary, release);
    } catch (error) {
      await release().catch(() => undefined);
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
    await this.release().catch(() => undefined);
  }
}
