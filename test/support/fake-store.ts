/**
 * The sandbox's pet store (sandbox/pet-store.mjs: getPet, listPets' pages linked by rel="next", createPet, 401 and 404 as the
 * interface says) answering every request of a fake client (test/support/fake-client.ts) through its MockAgent: no server, no socket.
 * A test's `faults` answer any request otherwise, as the sandbox's do (sandbox/pet-service.d.mts: `pageFault` and the Faults type).
 */
import type { Faults, Recorded, Step } from '../../sandbox/pet-service.mjs';
import { answer, createPetStore, type PetStore, type PetStoreOptions, toJson } from '../../sandbox/pet-store.mjs';
import { type fakeClientFactory, headersOf } from './fake-client.js';

/** What {@link serveStore} takes: the store's pets (PetStoreOptions; four seed pets by default), its page size and the faults. */
export interface FakeStoreOptions extends PetStoreOptions {
  /** The bearer key the store accepts (the fake client's, `test-key`, by default). */
  key?: string;
  /** Most pets on one page of listPets, whatever `limit` asks (1 to 100, default 100). */
  pageSize?: number;
  /**
   * A function of each request (`url`: its path and query) and its 0-based index among the requests the store received: the step
   * it takes, or undefined to be served. Steps: `{ serve: true }` and a fixed answer (`status`, `headers`, `json` or `body`), either
   * held until its `until` settles. What only a socket does (hang, destroy, raw bytes) is `fake.service.intercept(...)`'s
   * `replyWithError`, set before this.
   */
  faults?: Extract<Faults, (...args: never[]) => unknown>;
}

/**
 * Answers every request to the fake client's origin from a store made as `options` say (persisted: each request, each retry), each
 * answer a turn of the event loop after its request, as a socket's; returns the store (`pets` by id, for the expected output). The
 * requests are the fake's `requests` and `sent`.
 */
export function serveStore(fake: Pick<ReturnType<typeof fakeClientFactory>, 'service'>, options: FakeStoreOptions = {}): PetStore {
  const { key = 'test-key', pageSize = 100, faults, ...stored } = options;
  const store = createPetStore(stored);
  let index = 0;
  fake.service
    .intercept({ method: () => true, path: () => true })
    .reply(async ({ method, path, headers }) => {
      const request: Recorded = { method, url: path, headers: headersOf(headers), body: '' };
      const step = faults?.(request, index++) ?? { serve: true };
      if (step.delayMs !== undefined) throw new Error('the fake store holds an answer by `until`, not by a time');
      if (step.until) await step.until;
      // An answer read from a socket comes in a later turn of the event loop than its request, never in the same one.
      await new Promise((resolve) => setImmediate(resolve));
      const answered = 'serve' in step ? answer(store, request, { key, pageSize }) : fixedAnswer(step);
      return { statusCode: answered.status, data: answered.body, responseOptions: { headers: answered.headers } };
    })
    .persist();
  return store;
}

/** A fixed step's answer: `json` as JSON text (bigints exact) with content-type application/json, else `body` as it is. */
function fixedAnswer(step: Step): { status: number; headers: Record<string, string | string[]>; body: string } {
  if (!('status' in step)) throw new Error(`the fake store answers { serve } and fixed answers, not ${Object.keys(step).join(', ')}`);
  if (step.json === undefined) return { status: step.status, headers: { ...step.headers }, body: String(step.body ?? '') };
  return { status: step.status, headers: { 'content-type': 'application/json', ...step.headers }, body: toJson(step.json) };
}
