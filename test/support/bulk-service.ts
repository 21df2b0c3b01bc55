/**
 * The sandbox of the bulk-load tests (test/bulk-messages.test.ts, test/bulk-robustness.test.ts): empty, key `k`, started by
 * `start` (with `faults`, sandbox/pet-service.mjs) and closed after each test, and what those tests read of it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { type Faults, type PetService, startPetService } from '../../sandbox/pet-service.mjs';

/** Registers the afterEach that closes the test's sandbox; `tempPrefix` names the tests' temporary folders. */
export function bulkService(tempPrefix: string) {
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
