/**
 * Where in-process bulk loads that reach only a loopback sandbox run without nock's guard (test/setup.ts, docs/testing.md "nock").
 * Under nock, a keep-alive connection's second and later requests leave as two writes on a socket without TCP_NODELAY (nock's
 * own socket, not undici's): each POST then waits for the server's delayed ACK of the first write.
 */
import nock from 'nock';
import { afterAll, beforeAll } from 'vitest';

/** Turns nock's guard off before the tests of the file or describe that calls it, and on again after them. */
export function withoutNockGuard(): void {
  beforeAll(() => nock.restore());
  afterAll(() => nock.activate());
}
