/**
 * The `--failed` file of a bulk load: one NDJSON line per item not created,
 * `{"line", "outcome", "item", "text"?, "error"}`, to be read again by
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
  /** The input line the item starts on. */
  line: number;
  outcome: Outcome;
  /** The item as read, or null when the input was not JSON. */
  item: unknown;
  /** The whole source of input that was not JSON. */
  text?: string;
  error: ErrorReport;
}

/** Writing the `--failed` file failed (a full disk, say): the outcomes from here on cannot be recorded. */
export class FailedWriteError extends Error {
  constructor(
    readonly file: string,
    readonly code: string,
  ) {
    super(`cannot write --failed ${file}: ${code}`);
  }
}

const errnoCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

export class FailedFile {
  private closed = false;

  private constructor(
    /** The path the user gave. */
    readonly path: string,
    private readonly fd: number,
    /** The temporary file that replaces `path` on commit, or undefined when writing `path` directly. */
    private readonly temporary: string | undefined,
    private readonly release: () => Promise<void>,
  ) {}

  /**
   * Locks `file` and opens where its lines go. Throws UsageError (exit 2,
   * nothing sent) when another load holds the lock or it cannot be written.
   */
  static async open(file: string): Promise<FailedFile> {
    const existing = fs.statSync(file, { throwIfNoEntry: false });
    const direct = existing !== undefined && !existing.isFile();
    let release: () => Promise<void> = async () => undefined;
    if (!direct) {
      try {
        release = await lockfile.lock(file, { realpath: false, retries: 0, stale: 30_000 });
      } catch (error) {
        if (errnoCode(error) === 'ELOCKED') {
          throw new UsageError(`--failed ${file} is being written by another petstore add --file; give each load its own file`, undefined, 'failed_file_locked');
        }
        throw new UsageError(`cannot write --failed ${file}: ${errnoCode(error)}`);
      }
    }
    const temporary = direct ? undefined : path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
    try {
      const fd = fs.openSync(temporary ?? file, 'w', 0o600);
      return new FailedFile(file, fd, temporary, release);
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
    const data = Buffer.from(`${stringifyJson(record)}\n`);
    try {
      for (let offset = 0; offset < data.length; ) offset += fs.writeSync(this.fd, data, offset);
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
        fs.renameSync(this.temporary, this.path);
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
