/** The input of `add --file`: a path or stdin, opened before the first request, so that a bad path costs nothing. */
import fs from 'node:fs';
import { addAbortSignal, type Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { openFifo } from '../fifo.js';

export interface OpenedInput {
  stream: Readable;
  /** Its size in bytes when a regular file, for progress. */
  size?: number;
  /** What names it whatever path leads there: `file:<dev>:<ino>` for a regular file, else `stream` (told apart by content). */
  identity: string;
}

const identityOf = (stat: fs.Stats | undefined) => (stat?.isFile() ? `file:${stat.dev}:${stat.ino}` : 'stream');

/** Opens `file` ("-": `stdin`), ending with an AbortError on `signal` (a writerless FIFO also on `stop`). Throws UsageError naming --file. */
export function openInput(file: string, stdin: Readable & { fd?: number }, signal: AbortSignal, stop?: AbortSignal): OpenedInput {
  if (file === '-') {
    const stat = statOf(stdin.fd);
    if (stat?.isDirectory()) throw new UsageError('cannot read --file -: standard input is a directory (EISDIR)');
    return { stream: addAbortSignal(signal, stdin), size: stat?.isFile() ? stat.size : undefined, identity: identityOf(stat) };
  }
  if (fs.statSync(file, { throwIfNoEntry: false })?.isFIFO())
    return { stream: openFifo(file, stop ? AbortSignal.any([signal, stop]) : signal), identity: 'stream' };
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
  return {
    stream: addAbortSignal(signal, fs.createReadStream(file, { fd })),
    size: stat.isFile() ? stat.size : undefined,
    identity: identityOf(stat),
  };
}

function statOf(fd: number | undefined): fs.Stats | undefined {
  if (fd === undefined) return undefined;
  try {
    return fs.fstatSync(fd);
  } catch {
    return undefined;
  }
}
