/**
 * Where tests start the sandbox (the fake service of sandbox/pet-service.mjs)
 * by a helper: `startSandbox` for the packaging tests, `sandboxPerTest` for the
 * bulk-load tests, which need its fault steps. No other fake service is kept.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { type Faults, type PetService, type Recorded, startPetService } from '../../sandbox/pet-service.mjs';

/** A request as the sandbox received it. */
export type SandboxRequest = Recorded;

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
  const service = await startPetService({ key, firstId, seed: false });
  return { baseUrl: service.baseUrl, requests: service.requests, close: () => service.close() };
}

/**
 * The sandbox of the bulk-load tests (test/bulk-messages.test.ts, test/bulk-robustness.test.ts, ...): empty, key `k`, started by
 * `start` (with `faults`, sandbox/pet-service.mjs's steps) and closed after each test, and what those tests read of it. Registers the
 * afterEach that closes it; `tempPrefix` names the tests' temporary folders.
 */
export function sandboxPerTest(tempPrefix: string) {
  let server: PetService | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const current = (): PetService => {
    if (!server) throw new Error('the test started no sandbox');
    return server;
  };
  return {
    current,
    start: async (faults?: Faults): Promise<PetService> => {
      server = await startPetService({ key: 'k', seed: false, ...(faults ? { faults } : {}) });
      return server;
    },
    /** PETSTORE_BASE_URL and PETSTORE_API_KEY of the sandbox. */
    env: () => ({ PETSTORE_BASE_URL: current().baseUrl, PETSTORE_API_KEY: 'k' }),
    posts: () => current().requests.filter((r) => r.method === 'POST').length,
    storedNames: () => [...current().pets.values()].map((pet) => pet.name).sort(),
    /** A new temporary folder, its real path. */
    tempDir: () => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), tempPrefix))),
  };
}
