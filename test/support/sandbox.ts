/**
 * The one place the end-to-end tests start the sandbox (sandbox/server.mjs),
 * so that a replacement of the sandbox changes this file only.
 */
import type { AddressInfo } from 'node:net';
// @ts-expect-error: the sandbox is plain JavaScript without type declarations
import { createSandbox } from '../../sandbox/server.mjs';

/** A request as the sandbox received it. */
export interface SandboxRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A sandbox listening on a random loopback port. */
export interface RunningSandbox {
  /** Its base URL, ending in `/v1`. */
  baseUrl: string;
  /** Every request it received, in order. */
  requests: SandboxRequest[];
  close(): Promise<void>;
}

/**
 * Starts an empty sandbox (no seed pets) on 127.0.0.1 that accepts the API key
 * `key` and assigns ids from `firstId` on.
 */
export async function startSandbox({ key, firstId }: { key: string; firstId: bigint }): Promise<RunningSandbox> {
  const { server, requests } = createSandbox({ key, firstId, seed: false }) as {
    server: import('node:http').Server;
    requests: SandboxRequest[];
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
