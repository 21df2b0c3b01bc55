/**
 * The files of `add --file`: the input (a path or stdin) and the `--failed`
 * output, both opened before the first request, so that a bad path costs
 * nothing and no pet is created by a load that cannot report its failures.
 */
import fs from 'node:fs';
import { addAbortSignal, type Readable } from 'node:stream';
import { UsageError } from '../errors.js';

/** The input of a bulk load, open. */
export interface OpenedInput {
  stream: Readable;
  /** Device and inode of the input when it is a regular file (a path, or stdin redirected from a file). */
  identity?: { dev: number; ino: number };
}

/**
 * Opens `file` ("-" for `stdin`) before anything is sent; the stream ends with
 * an AbortError when `signal` aborts. Throws UsageError naming --file when the
 * path is missing, unreadable or a folder.
 */
export function openInput(file: string, stdin: Readable & { fd?: number }, signal: AbortSignal): OpenedInput {
  if (file === '-') {
    return { stream: addAbortSignal(signal, stdin), identity: fileIdentity(stdin.fd) };
  }
  let fd: number;
  let stat: fs.Stats;
  try {
    fd = fs.openSync(file, 'r');
    stat = fs.fstatSync(fd);
  } catch (error) {
    throw new UsageError(`cannot read --file ${file}: ${errnoCode(error)}`);
  }
  if (stat.isDirectory()) {
    fs.closeSync(fd);
    throw new UsageError(`cannot read --file ${file}: EISDIR`);
  }
  return { stream: addAbortSignal(signal, fs.createReadStream(file, { fd })), identity: identityOf(stat) };
}

function fileIdentity(fd: number | undefined): OpenedInput['identity'] {
  if (fd === undefined) return undefined;
  try {
    return identityOf(fs.fstatSync(fd));
  } catch {
    return undefined;
  }
}

function identityOf(stat: fs.Stats): OpenedInput['identity'] {
  return stat.isFile() ? { dev: stat.dev, ino: stat.ino } : undefined;
}

function errnoCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'error';
}

/**
 * Creates (or empties) the `--failed` file, mode 0600. Refuses, as a UsageError,
 * the file being read: emptying it first would lose the items a retry is for.
 */
export function openFailed(path: string, input: OpenedInput): fs.WriteStream {
  const existing = fs.statSync(path, { throwIfNoEntry: false });
  if (existing && input.identity && existing.dev === input.identity.dev && existing.ino === input.identity.ino) {
    throw new UsageError(`--failed ${path} is the file being read by --file; write the failures to another file`);
  }
  try {
    fs.writeFileSync(path, '', { mode: 0o600 });
  } catch (error) {
    throw new UsageError(`cannot write --failed ${path}: ${errnoCode(error)}`);
  }
  return fs.createWriteStream(path, { flags: 'a' });
}
