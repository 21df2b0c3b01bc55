// The build's stand-in for node:http2 inside undici must answer exactly what the real module would.
import http2 from 'node:http2';
import { createRequire } from 'node:module';
import { expect, test } from 'vitest';

const shim = createRequire(import.meta.url)('../scripts/lazy-http2.cjs');

test('the constants the shim answers are those of node:http2', () => {
  for (const [name, value] of Object.entries(shim.KNOWN)) {
    expect(value, name).toBe((http2.constants as Record<string, unknown>)[name]);
    expect(shim.constants[name], name).toBe(value);
  }
  expect(shim.constants.HTTP2_HEADER_ACCEPT).toBe(http2.constants.HTTP2_HEADER_ACCEPT);
  expect(shim.connect).toBe(http2.connect);
});
