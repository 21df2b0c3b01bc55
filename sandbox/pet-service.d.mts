// Types of sandbox/pet-service.mjs, the fake pet store service
// (openapi/petstore.yaml) shared by the sandbox CLI, tests and benchmarks.
import type { IncomingHttpHeaders, Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';

export type PetStatus = 'available' | 'pending' | 'sold';

/** NewPet (interface, "Resources"); categoryId may be given as a number for seeds. */
export interface NewPet {
  name: string;
  categoryId: bigint | number;
  status?: PetStatus;
}

/** A stored Pet: ids are int64, kept exact as bigint. */
export interface Pet {
  id: bigint;
  name: string;
  categoryId: bigint;
  status?: PetStatus;
}

/** One request as the service saw it, body decoded as UTF-8. */
export interface Recorded {
  method: string;
  /** Path and query as sent, e.g. "/v1/pets?limit=20". */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Waits this many milliseconds, and for `until` to settle (a test's gate:
 * a slow service whose slowness the test controls), before carrying out the
 * step (any step may carry them).
 */
interface Delay {
  delayMs?: number;
  until?: Promise<unknown>;
}

/** A whole answer: `json` is written as JSON (bigints exact) with content-type application/json, else `body` as is. */
export interface FixedStep extends Delay {
  status: number;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  json?: unknown;
}

/**
 * What the service does with one request:
 * - `{ serve: true }`: answer from the store, as the interface says;
 * - a {@link FixedStep}: any status, headers and body;
 * - `{ hang: true }`: never answer (until the client gives up or the service closes);
 * - `{ destroy: true }`: destroy the connection without answering;
 * - `{ raw }`: write these bytes on the connection instead of an HTTP answer, then close it;
 * - `{ serveThenDestroy: true }`: let the store act (a POST creates its pet), then destroy the connection without answering;
 * - `{ serveThen }`: let the store act, then write this fixed answer instead of the store's (a 303 or a 500 after storing);
 * - `{ serveUnreadable }`: the store acts, then its answer comes with a body that cannot be read: `'malformed-json'`
 *   (the first half of the body as the whole body) or `'short-body'` (the full Content-Length declared, half sent, the rest never);
 * - `{ drip }`: status and headers at once, then the body one byte every `intervalMs` (default 10 ms);
 * - `{ stream }`: `chunk` written `times` times with back-pressure (a large body).
 */
export type Step =
  | (Delay & { serve: true })
  | FixedStep
  | (Delay & { hang: true })
  | (Delay & { destroy: true })
  | (Delay & { raw: string | Buffer })
  | (Delay & { serveThenDestroy: true })
  | (Delay & { serveThen: Omit<FixedStep, keyof Delay> })
  | (Delay & { serveUnreadable: 'malformed-json' | 'short-body' })
  | (Delay & {
      drip: { status?: number; headers?: Record<string, string>; body?: string | Buffer; json?: unknown; intervalMs?: number };
    })
  | (Delay & { stream: { chunk: Buffer; times: number; status?: number; headers?: Record<string, string> } });

/**
 * Faults: a list (the n-th request takes the n-th step, the last step repeats)
 * or a function of the request and its 0-based index (undefined: serve it).
 */
export type Faults = Step[] | ((request: Recorded, index: number) => Step | undefined);

export interface PetServiceOptions {
  /** The bearer key; any other Authorization gets 401 with an Error body. */
  key: string;
  /** Id of the first pet created (seeds included), default 1n; ids go up by one. */
  firstId?: bigint;
  /** What each id adds to the one before (default 1n): ids far apart, as some stores give (bench/list-all.mjs). */
  idStep?: bigint;
  /** true: four seed pets (default); false: empty; the NewPets to start with; or how many to generate ({@link generatedPet}), without a POST each. */
  seed?: boolean | NewPet[] | number;
  /** Most pets in one page of GET /pets, whatever `limit` asks (1..100, default 100). */
  pageSize?: number;
  /**
   * RFC 8288 `Link: <...>; rel="next"` on a GET /pets page that has more after it (default true); `'endless'`: also after the last pet,
   * to an empty page that links another, forever (a service that never ends a listing).
   */
  links?: boolean | 'endless';
  /** Keep every request in `requests` (default true; the long-running CLI turns it off). */
  record?: boolean;
  faults?: Faults;
  /** PEM key and certificate: serve https instead of http. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: a free port). */
  port?: number;
}

export interface PetService {
  server: HttpServer | HttpsServer;
  /** e.g. "http://127.0.0.1:41234/v1" (https with `tls`). */
  baseUrl: string;
  /** "127.0.0.1:41234", as petstore names the host in messages. */
  host: string;
  port: number;
  /** Requests seen, in order of arrival (empty with `record: false`). */
  requests: Recorded[];
  /** The store: pets by id, in creation order. */
  pets: Map<bigint, Pet>;
  /** Requests read and not yet answered (or dropped); counted only with `record`. */
  readonly inFlight: number;
  /** Most requests in flight at once so far. */
  readonly maxInFlight: number;
  /** Drops every open connection (hanging ones too) and stops listening. */
  close(): Promise<void>;
}

/** Starts the service; resolves once it listens; rejects with the listen error (e.g. EADDRINUSE). */
export function startPetService(options: PetServiceOptions): Promise<PetService>;

/** Faults that serve every request but drop the answer of every `n`-th POST /pets after creating the pet. */
export function dropEvery(n: number): (request: Recorded) => Step | undefined;

/** The page number (1: the first) of a GET /pets request of an unfiltered listing, from its cursor and limit; undefined for other requests. */
export function listPageOf(request: Recorded, store?: { firstId?: bigint; pageSize?: number }): number | undefined;

/** Faults: every request for page `page` of GET /pets (see {@link listPageOf}) takes `step`, its retries too; other requests are served. */
export function pageFault(
  page: number,
  step: Step,
  store?: { firstId?: bigint; pageSize?: number },
): (request: Recorded) => Step | undefined;

/** The `index`-th (0-based) pet of a generated store: `pet-<index + 1>`, categoryId 1 to 7, the three statuses in turn. */
export function generatedPet(index: number): NewPet;

/** JSON.parse keeping integer literals exact as bigint. */
export function parseJson(text: string): unknown;

/** JSON.stringify writing bigints as exact integer literals. */
export function toJson(value: unknown): string;

/** The pets a store starts with when `seed` is true. */
export const SEED_PETS: readonly NewPet[];
