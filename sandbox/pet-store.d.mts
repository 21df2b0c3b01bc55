// Types of sandbox/pet-store.mjs: the pet store itself, with no sockets (sandbox/pet-service.mjs serves it over http; the
// tests' fake client answers from it through undici's MockAgent, test/support/fake-store.ts).
import type { NewPet, Pet, Recorded } from './pet-service.mjs';

/** Pets kept in memory: by id, and in creation order. */
export interface PetStore {
  pets: Map<bigint, Pet>;
  list: Pet[];
  firstId: bigint;
  idStep: bigint;
  /** Stores `pet` under the next id and returns it. */
  add(pet: NewPet): Pet;
}

/** What a store starts with: ids from `firstId` (1n), `idStep` (1n) apart; `seed` as in PetServiceOptions (the four seed pets by default). */
export interface PetStoreOptions {
  firstId?: bigint;
  idStep?: bigint;
  seed?: boolean | NewPet[] | number;
}

export function createPetStore(options?: PetStoreOptions): PetStore;

/** An answer of the interface: its status, headers (content-type, a Link rel="next") and JSON body text. */
export interface StoreAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The interface's answer to one request (`url`: path and query, under /v1): 401 unless `Bearer <key>`, listPets' pages of at most
 * min(limit, pageSize) pets linked by rel="next" (with `links`), createPet, getPet (404 with an Error body for a missing pet), 404
 * for any other route.
 */
export function answer(
  store: PetStore,
  request: Pick<Recorded, 'method' | 'url' | 'headers' | 'body'>,
  options: { key: string; pageSize?: number; links?: boolean | 'endless' },
): StoreAnswer;

/** The `index`-th (0-based) pet of a generated store: `pet-<index + 1>`, categoryId 1 to 7, the three statuses in turn. */
export function generatedPet(index: number): NewPet;

/** JSON.parse keeping integer literals exact as bigint. */
export function parseJson(text: string): unknown;

/** JSON.stringify writing bigints as exact integer literals. */
export function toJson(value: unknown): string;

/** The pets a store starts with when `seed` is true. */
export const SEED_PETS: readonly NewPet[];
