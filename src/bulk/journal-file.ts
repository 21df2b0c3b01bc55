/** Opening a bulk load's journal file (journal.ts): never through a link or onto a FIFO, an existing one read, errors said plainly. */
import fs from 'node:fs';
import { CliError, UsageError } from '../errors.js';
import { kindOf } from './failed-file.js';
import { errnoCode } from './load-lock.js';
import { JournalUnreadableError, type ReadJournal, readJournal } from './journal-read.js';

/** Writing the journal failed (a full disk, say): the item it was about is not sent, and the load stops. */
export class JournalWriteError extends Error {
  override name = 'JournalWriteError';

  constructor(
    readonly file: string,
    readonly code: string,
  ) {
    super(`cannot write the journal ${file}: ${code}`);
  }
}

// O_APPEND: every run's records go at the end, after whatever an earlier run left there.
const OPEN_EXISTING = fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/** Refuses a link, folder or FIFO at the journal's path with a clean message (never followed, never waited on). */
export function refuseOdd(path: string, restart: boolean): void {
  const found = fs.lstatSync(path, { throwIfNoEntry: false });
  if (!found || found.isFile() || (restart && found.isSymbolicLink())) return;
  throw new UsageError(
    `the journal ${path} is ${kindOf(found)}; refusing to ${found.isSymbolicLink() ? 'write through it' : 'use it'}`,
    found.isSymbolicLink()
      ? 'Remove it, or add --restart to replace the link with a new journal.'
      : 'Move it away, or give another --failed.',
    'journal_unusable',
  );
}

/** The journal at `path`, opened to append to and read; throws UsageError (exit 2, nothing sent) when it cannot be read. */
export function openExisting(path: string): { fd: number; read: ReadJournal | undefined } {
  let fd: number | undefined;
  try {
    fd = fs.openSync(path, OPEN_EXISTING);
    return { fd, read: readJournal(fs.readFileSync(fd)) };
  } catch (error) {
    if (fd !== undefined) fs.closeSync(fd);
    if (!(error instanceof JournalUnreadableError)) throw new UsageError(`cannot read the journal ${path}: ${errnoCode(error)}`);
    throw new UsageError(
      `the journal ${path} is damaged: ${error.message}; nothing was sent by this run`,
      'Add --restart to discard the journal and load the input from the start (pets it created would be created again), or give another --failed.',
      'journal_unreadable',
    );
  }
}

/** The error (exit 2) of a journal that cannot be written as it is opened; a lease lost (a CliError of its own) as it is. */
export function cannotWrite(path: string, error: unknown): CliError {
  if (error instanceof CliError) return error;
  const code = error instanceof JournalWriteError ? error.code : errnoCode(error);
  return new UsageError(
    `cannot write the journal ${path}: ${code}; nothing was sent`,
    code === 'ENOSPC' ? 'Free space on its disk (or give a --failed on another), then run the same command again.' : undefined,
  );
}
