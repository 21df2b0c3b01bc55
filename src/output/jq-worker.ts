/**
 * The worker thread in which jq runs (./jq-thread.ts starts it). In: `{ json, expression, flags }` (jq's `raw`). Out: `{ stdout,
 * stderr, exitCode }`, or `{ thrown }`. It imports nothing of petstore's: run from src/ (tests), Node strips its types.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { brotliDecompressSync } from 'node:zlib';
import { loadJq } from 'jq-wasm';

/** jq.wasm, brotli-compressed, in base64: set by the build; undefined in src/ (tests). */
declare const PETSTORE_JQ_WASM: string | undefined;

interface RunRequest {
  json: string;
  expression: string;
  flags: string[];
}

const port = parentPort;
if (!port) throw new Error('jq-worker runs as a worker thread');

// jq-wasm's own console output ("Aborted()") would bypass petstore's stderr and --json lines, and its stdio would hold the process.
console.log = console.error = console.warn = () => undefined;

/** jq.wasm: from the bundle, or in src/ (tests) from jq-wasm's package. */
const wasmBinary =
  typeof PETSTORE_JQ_WASM === 'string'
    ? brotliDecompressSync(Buffer.from(PETSTORE_JQ_WASM, 'base64'))
    : readFileSync(createRequire(import.meta.url).resolve('jq-wasm/jq.wasm'));

const jq = loadJq({ wasmBinary });

port.on('message', (request: RunRequest) => {
  void jq
    .then((instance) => instance.raw(request.json, request.expression, request.flags))
    .then(
      (result) => port.postMessage(result),
      (error: unknown) => port.postMessage({ thrown: error instanceof Error ? error.message : String(error) }),
    );
});
