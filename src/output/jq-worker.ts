/**
 * The code of the worker thread in which jq runs (started by ./jq-thread.ts
 * when a command is given `--jq`). jq-wasm runs synchronously: on the main
 * thread a run that never ends (`repeat(1)`, `def f: f; f`) would keep signal
 * handlers and timers from ever running; here the main thread stays free and
 * ends the thread.
 *
 * Messages in: `{ json, expression, flags }` (one run: jq's `raw`). Messages
 * out: `{ stdout, stderr, exitCode }` (jq's result), or `{ thrown }` (what
 * jq-wasm threw: `Aborted()` when jq's own 256 MiB heap ran out).
 *
 * Built by scripts/build.mjs into a script of its own, carried as text in the
 * bundle and started with `eval: true` (so that the single executable, which
 * has no file beside it, starts it too), with jq.wasm embedded in it. Run from
 * src/ (tests), Node strips its types: it imports nothing of petstore's.
 */
import { parentPort } from 'node:worker_threads';
import { brotliDecompressSync } from 'node:zlib';
import { loadJq } from 'jq-wasm';

/** jq.wasm, brotli-compressed, in base64: set by the build; undefined where src/ runs unbundled (tests). */
declare const PETSTORE_JQ_WASM: string | undefined;

/** One run, as ./jq-thread.ts posts it. */
interface RunRequest {
  json: string;
  expression: string;
  flags: string[];
}

const port = parentPort;
if (!port) throw new Error('jq-worker runs as a worker thread');

// What jq-wasm writes to the console itself ("Aborted()" as it throws) would
// reach the terminal past petstore's stderr (and its --json lines); the error
// it throws says the same. (The thread's own stdio streams, read by the main
// thread, would keep the process alive while the thread idles.)
console.log = console.error = console.warn = () => undefined;

// Loaded once the thread starts, while the main thread waits for its first answer.
const jq =
  typeof PETSTORE_JQ_WASM === 'string' ? loadJq({ wasmBinary: brotliDecompressSync(Buffer.from(PETSTORE_JQ_WASM, 'base64')) }) : loadJq();

port.on('message', (request: RunRequest) => {
  void jq
    .then((instance) => instance.raw(request.json, request.expression, request.flags))
    .then(
      (result) => port.postMessage(result),
      (error: unknown) => port.postMessage({ thrown: error instanceof Error ? error.message : String(error) }),
    );
});
