/** Reading a FIFO without blocking the event loop: `add --file` (bulk/open-input.ts) and `api --input` (commands/api/request.ts). */
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
