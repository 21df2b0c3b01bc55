/**
 * The input of `add --file`: a path or standard input, opened before the
 * first request, so that a bad path costs nothing.
 */
import fs from 'node:fs';
import { addAbortSignal, type Readable } from 'node:stream';
import { UsageError } from '../errors.js';

/** The input of a bulk load, open. */
export interface OpenedInput {
  stream: Readable;
  /** Its size in bytes when it is a regular file (a path, or stdin redirected from a file), for progress. */
  size?: number;
}

/**
 * Opens `file` ("-" for `stdin`); the stream ends with an AbortError when
 * `signal` aborts. Throws UsageError naming --file when the path is missing,
 * unreadable or a folder.
 */
export function openInput(file: string, stdin: Readable & { fd?: number }, signal: AbortSignal): OpenedInput {
  if (file === '-') return { stream: addAbortSignal(signal, stdin), size: regularFileSize(stdin.fd) };
  let fd: number;
  let stat: fs.Stats;
  try {
    fd = fs.openSync(file, 'r');
    stat = fs.fstatSync(fd);
  } catch (error) {
    throw new UsageError(`cannot read --file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  if (stat.isDirectory()) {
    fs.closeSync(fd);
    throw new UsageError(`cannot read --file ${file}: EISDIR`);
  }
  return { stream: addAbortSignal(signal, fs.createReadStream(file, { fd })), size: stat.isFile() ? stat.size : undefined };
}

function regularFileSize(fd: number | undefined): number | undefined {
  if (fd === undefined) return undefined;
  try {
    const stat = fs.fstatSync(fd);
    return stat.isFile() ? stat.size : undefined;
  } catch {
    return undefined;
  }
}
