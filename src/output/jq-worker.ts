/**
 * The worker thread in which jq runs (./jq-thread.ts starts it): jq-wasm runs synchronously, and on the main thread a
 * run that never ends would keep signal handlers and timers from running. In: `{ json, expression, flags }` (jq's
 * `raw`). Out: `{ stdout, stderr, exitCode }`, or `{ thrown }` (`Aborted()`: jq's 256 MiB heap is full). `workerData`
 * is `{ env }`, jq's `$ENV`. scripts/build.mjs makes it a script, jq.wasm inside, that the bundle carries as text and
 * starts with `eval: true`. Run from src/ (tests), Node strips its types: it imports nothing of petstore's.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { brotliDecompressSync } from 'node:zlib';
import { loadJq } from 'jq-wasm';

/** jq.wasm, brotli-compressed, in base64: set by the build; undefined in src/ (tests). */
declare const PETSTORE_JQ_WASM: string | undefined;

/** The imports of a WebAssembly module: module name → name → value. */
type WasmImports = Record<string, Record<string, unknown>>;
/** A WebAssembly memory: its bytes (a new buffer each time it grows). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
/** What this file uses of the WebAssembly JS API, which the project's lib (ES2023, Node's types) does not declare. */
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: WasmImports): Promise<{ instance: { exports: Record<string, unknown> }; module: object }>;
  Memory: abstract new (...args: never[]) => WasmMemory;
};

interface RunRequest {
  json: string;
  expression: string;
  flags: string[];
}

const port = parentPort;
if (!port) throw new Error('jq-worker runs as a worker thread');

// jq-wasm's own console output ("Aborted()" as it throws) would bypass petstore's
// stderr and its --json lines. The thread's stdio, read by the main thread, would hold the process.
console.log = console.error = console.warn = () => undefined;

/**
 * WASI's environ_sizes_get and environ_get, which fill C's `environ` when jq starts, answered from `env` (Emscripten's
 * own give a stand-in: HOME=/home/web_user). `memory` is the instance's. Each returns 0, success.
 */
function environment(env: Record<string, string>, memory: () => WasmMemory) {
  const entries = Object.entries(env).map(([name, value]) => Buffer.from(`${name}=${value}\0`));
  return {
    /** Writes the number of variables at `countAt` and the bytes they take at `sizeAt` (u32, little-endian). */
    sizes(countAt: number, sizeAt: number): number {
      const view = new DataView(memory().buffer);
      view.setUint32(countAt, entries.length, true);
      view.setUint32(
        sizeAt,
        entries.reduce((size, entry) => size + entry.length, 0),
        true,
      );
      return 0;
    },
    /** Writes each `NAME=value\0` from `bufferAt` on, and its address at `listAt` + 4 × its index. */
    get(listAt: number, bufferAt: number): number {
      const view = new DataView(memory().buffer);
      const bytes = new Uint8Array(memory().buffer);
      let at = bufferAt;
      entries.forEach((entry, index) => {
        view.setUint32(listAt + 4 * index, at, true);
        bytes.set(entry, at);
        at += entry.length;
      });
      return 0;
    },
  };
}

/**
 * jq-wasm's instantiateWasm, with the environ imports answered from `env`. They are found by their names in jq-wasm's
 * glue (`_environ_sizes_get`, `_environ_get`; the build keeps names); rejects when they are not there.
 */
function withEnvironment(wasm: Uint8Array, env: Record<string, string>) {
  return (imports: WasmImports, onSuccess: (instance: object, module: object) => void): Promise<void> => {
    let memory: WasmMemory | undefined;
    const environ = environment(env, () => {
      if (!memory) throw new Error('jq read its environment before its instance existed');
      return memory;
    });
    const replaced = new Set<string>();
    for (const functions of Object.values(imports)) {
      for (const [name, value] of Object.entries(functions)) {
        if (typeof value !== 'function') continue;
        if (value.name === '_environ_sizes_get') functions[name] = environ.sizes;
        else if (value.name === '_environ_get') functions[name] = environ.get;
        else continue;
        replaced.add(value.name);
      }
    }
    if (replaced.size !== 2) return Promise.reject(new Error("jq-wasm's environ_get and environ_sizes_get imports were not found"));
    return WebAssembly.instantiate(wasm, imports).then(({ instance, module }) => {
      memory = Object.values(instance.exports).find((value): value is WasmMemory => value instanceof WebAssembly.Memory);
      onSuccess(instance, module);
    });
  };
}

/** jq.wasm: from the bundle, or in src/ (tests) from jq-wasm's package. */
const wasm =
  typeof PETSTORE_JQ_WASM === 'string'
    ? brotliDecompressSync(Buffer.from(PETSTORE_JQ_WASM, 'base64'))
    : readFileSync(createRequire(import.meta.url).resolve('jq-wasm/jq.wasm'));

const jq = loadJq({ instantiateWasm: withEnvironment(wasm, (workerData as { env: Record<string, string> }).env) });

port.on('message', (request: RunRequest) => {
  void jq
    .then((instance) => instance.raw(request.json, request.expression, request.flags))
    .then(
      (result) => port.postMessage(result),
      (error: unknown) => port.postMessage({ thrown: error instanceof Error ? error.message : String(error) }),
    );
});
