/**
 * The code of the worker thread in which jq runs (started by ./jq-thread.ts
 * when a command is given `--jq`). jq-wasm runs synchronously: on the main
 * thread a run that never ends (`repeat(1)`, `def f: f; f`) would keep signal
 * handlers and timers from ever running; here the main thread stays free and
 * ends the thread.
 *
 * Messages in: `{ json, expression, flags }` (one run: jq's `raw`). Messages
 * out: `{ stdout, stderr, exitCode }` (jq's result), or `{ thrown }` (what
 * jq-wasm threw: `Aborted()` when jq's own 256 MiB heap ran out). The thread's
 * `workerData` is `{ env }`: the environment of the run, which jq's `$ENV` and
 * `env` show (see withEnvironment).
 *
 * Built by scripts/build.mjs into a script of its own, carried as text in the
 * bundle and started with `eval: true` (so that the single executable, which
 * has no file beside it, starts it too), with jq.wasm embedded in it. Run from
 * src/ (tests), Node strips its types: it imports nothing of petstore's.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { brotliDecompressSync } from 'node:zlib';
import { loadJq } from 'jq-wasm';

/** jq.wasm, brotli-compressed, in base64: set by the build; undefined where src/ runs unbundled (tests). */
declare const PETSTORE_JQ_WASM: string | undefined;

/** The imports of a WebAssembly module: module name → name → value. */
type WasmImports = Record<string, Record<string, unknown>>;
/** A WebAssembly memory: its bytes (a new buffer each time it grows). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
/** What this file uses of the WebAssembly JS API (ES2023 and Node's types, the project's lib, declare none of it). */
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: WasmImports): Promise<{ instance: { exports: Record<string, unknown> }; module: object }>;
  Memory: abstract new (...args: never[]) => WasmMemory;
};

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

/**
 * The WASI functions through which C's `environ` is filled when jq starts
 * (environ_sizes_get and environ_get of wasi_snapshot_preview1; Emscripten's
 * own fill it with a stand-in: HOME=/home/web_user, USER=web_user), answering
 * from `env` instead. `memory` is the instance's, known once it exists (they
 * are called after, by the C library's start-up). Each returns 0, success.
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
 * jq.wasm instantiated (through jq-wasm's instantiateWasm) with its imports of
 * environ_sizes_get and environ_get answered from `env` (see environment).
 * jq-wasm's glue names them `_environ_sizes_get` and `_environ_get` (the build
 * keeps function names); rejects when it no longer has them, rather than let
 * jq show the stand-in environment.
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

/** jq.wasm: from the bundle, or where src/ runs unbundled (tests) from jq-wasm's package. */
const wasm =
  typeof PETSTORE_JQ_WASM === 'string'
    ? brotliDecompressSync(Buffer.from(PETSTORE_JQ_WASM, 'base64'))
    : readFileSync(createRequire(import.meta.url).resolve('jq-wasm/jq.wasm'));

// Loaded once the thread starts, while the main thread waits for its first answer.
const jq = loadJq({ instantiateWasm: withEnvironment(wasm, (workerData as { env: Record<string, string> }).env) });

port.on('message', (request: RunRequest) => {
  void jq
    .then((instance) => instance.raw(request.json, request.expression, request.flags))
    .then(
      (result) => port.postMessage(result),
      (error: unknown) => port.postMessage({ thrown: error instanceof Error ? error.message : String(error) }),
    );
});
