// Every test runs with real network connections refused: only loopback servers started by the tests themselves (and the nock mocks
// test/get.test.ts and test/get-via-list.test.ts still set) answer. Command tests answer through the fake client (MockAgent), which
// opens no socket; nock's hold on every socket of the process is the guard (docs/testing.md, "nock").
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import nock from 'nock';
import { afterEach, beforeAll, expect } from 'vitest';

// In-process, each run's jq thread (src/output/jq-thread.ts) loads src/output/jq-worker.ts, whose types Node strips
// anew in every thread; Node's compile cache, which threads started from here share, keeps the stripped code.
process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), 'petstore-test-compile-cache');

// Each jq thread also compiles jq.wasm. V8 shares a compiled module among the threads of a process while one of them
// holds it (its module cache, keyed by the module's bytes): this worker holds one for as long as it lives, once for all
// its test files, so that a thread's jq starts from code compiled already. What jq does is the same.
const held = globalThis as unknown as {
  WebAssembly: { compile(bytes: Uint8Array): Promise<object> };
  petstoreTestJqWasm?: Promise<object>;
};
held.petstoreTestJqWasm ??= held.WebAssembly.compile(fs.readFileSync(createRequire(import.meta.url).resolve('jq-wasm/jq.wasm')));

/** Loopback hosts: 127.0.0.1, and localhost and *.localhost (RFC 6761), which petstore itself sends to loopback. */
const LOOPBACK = /^(127\.0\.0\.1|localhost|[^:]+\.localhost)(:\d+)?$/i;

beforeAll(() => {
  nock.disableNetConnect();
  // A TLS session inside a proxy's tunnel opens no connection of its own (nock sees no host, "null:443"): the socket
  // it runs over, to the test proxy, was let through already.
  nock.enableNetConnect((host) => LOOPBACK.test(host) || host.startsWith('null:'));
});

afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending, 'every nock mock must be used').toEqual([]);
});
