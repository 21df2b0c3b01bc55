/**
 * The one place the end-to-end tests start the sandbox (the fake service of
 * sandbox/pet-service.mjs), so that a replacement changes this file only.
 */
import { startPetService, type Recorded } from '../../sandbox/pet-service.mjs';

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
