/**
 * Inputs that are not plain files: a FIFO read without blocking the event loop (`add --file`, bulk/open-input.ts; `api --input`,
 * commands/api/request.ts), and a standard input that is a directory told apart from an empty one (`get -`, `add --file -`).
 */
import fs from 'node:fs';
import { addAbortSignal, type Readable } from 'node:stream';

/** Opens a FIFO in libuv's thread pool (never blocking the loop); a `signal` abort opens it for writing to end that wait (Ctrl-C, SIGTERM). */
export function openFifo(file: string, signal: AbortSignal): Readable {
  const stream = fs.createReadStream(file);
  const unblock = () => {
    try {
      fs.closeSync(fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    } catch {
      // ENXIO: no reader waits any more.
    }
  };
  signal.addEventListener('abort', unblock, { once: true });
  stream.once('close', () => signal.removeEventListener('abort', unblock));
  return addAbortSignal(signal, stream);
}

/** Whether `stream` reads a directory (a shell's `< /tmp`), which Node's stdin would read as empty; false when it has no descriptor. */
export function readsDirectory(stream: { fd?: number }): boolean {
  if (typeof stream.fd !== 'number') return false;
  try {
    return fs.fstatSync(stream.fd).isDirectory();
  } catch {
    return false;
  }
}
