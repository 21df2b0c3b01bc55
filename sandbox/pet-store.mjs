// The pet store itself for sandbox/pet-service.mjs: pets kept in memory, and
// the answer the interface (openapi/petstore.yaml) gives to one
// request, as status, headers and body text. No sockets here: the service
// decides how (and whether) an answer is written.
const STATUSES = ['available', 'pending', 'sold'];
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const NEW_PET_FIELDS = ['name', 'categoryId', 'status'];
/** Pets a store starts with unless told otherwise. */
export const SEED_PETS = [
  { name: 'Rex', categoryId: 1n, status: 'available' },
  { name: 'Tom', categoryId: 2n, status: 'pending' },
  { name: 'Bella', categoryId: 1n, status: 'available' },
  { name: 'Goldie', categoryId: 3n, status: 'sold' },
];

/** JSON.parse keeping integer literals exact as bigint (ids are int64). */
export function parseJson(text) {
  return JSON.parse(text, (_key, value, context) =>
    typeof value === 'number' && /^-?\d+$/.test(context?.source ?? '') ? BigInt(context.source) : value,
  );
}

/** JSON.stringify writing bigints as exact integer literals. */
export function toJson(value) {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? JSON.rawJSON(v.toString()) : v));
}

/** The `index`-th (0-based) of a generated store's pets: `pet-<index + 1>`, categories 1 to 7, the three statuses in turn. */
export function generatedPet(index) {
  return { name: `pet-${index + 1}`, categoryId: BigInt((index % 7) + 1), status: STATUSES[index % 3] };
}

/**
 * A store: `pets` by id in creation order, `list` the same pets as an array
 * (ids are consecutive, so a page finds its first pet by index), and
 * `add(newPet)` which assigns the next id (from `firstId`, `idStep` up each time)
 * and returns the stored Pet. `seed` is true (SEED_PETS), false (empty), the
 * NewPets to start with, or a number of pets to generate ({@link generatedPet}).
 */
export function createPetStore({ firstId = 1n, seed = true, idStep = 1n } = {}) {
  const pets = new Map();
  const list = [];
  const first = BigInt(firstId);
  const step = BigInt(idStep);
  let nextId = first;
  const add = (pet) => {
    const stored = { id: nextId, name: pet.name, categoryId: BigInt(pet.categoryId) };
    if (pet.status !== undefined) stored.status = pet.status;
    pets.set(nextId, stored);
    list.push(stored);
    nextId += step;
    return stored;
  };
  if (typeof seed === 'number') for (let i = 0; i < seed; i += 1) add(generatedPet(i));
  else for (const pet of seed === true ? SEED_PETS : seed || []) add(pet);
  return { pets, list, firstId: first, idStep: step, add };
}

/**
 * The interface's answer to one request: {status, headers, body} with a JSON
 * body text. `key` is the bearer key; GET /pets pages hold at most
 * min(limit, pageSize) pets and, with `links`, carry an RFC 8288
 * `Link: <...>; rel="next"` whose `cursor` parameter is opaque to clients.
 */
export function answer(store, { method, url, headers, body }, { key, pageSize = 100, links = true }) {
  // links 'endless': a service that links a next page after the last pet, and after every empty page, forever.
  const send = (status, value, extra = {}) => ({ status, headers: { 'content-type': 'application/json', ...extra }, body: toJson(value) });
  const fail = (status, code, message) => send(status, { code, message, status });
  const target = new URL(url, 'http://sandbox');
  if (!target.pathname.startsWith('/v1/')) return fail(404, 'not_found', `no route ${target.pathname}`);
  if (headers.authorization !== `Bearer ${key}`) return fail(401, 'unauthorized', 'missing or invalid API key');
  const path = target.pathname.slice('/v1'.length);
  if (path === '/pets' && method === 'GET') {
    const query = target.searchParams;
    const limitText = query.get('limit') ?? '20';
    const status = query.get('status');
    const cursor = query.get('cursor');
    if (!/^\d+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 100) {
      return fail(400, 'invalid_limit', 'limit must be an integer from 1 to 100');
    }
    if (status !== null && !STATUSES.includes(status)) return fail(400, 'invalid_status', `status must be one of ${STATUSES.join(', ')}`);
    const after = cursor === null ? undefined : readCursor(cursor);
    if (after === null) return fail(400, 'invalid_cursor', 'cursor is not one this service gave');
    const size = Math.min(Number(limitText), pageSize);
    const { page, more } = pageOf(store, status, after, size);
    if (!links || (!more && links !== 'endless')) return send(200, page);
    // Endless: past the last pet, each empty page links the id after its cursor, so no link repeats.
    const last = page.length ? page.at(-1).id : (after ?? store.firstId - 1n) + 1n;
    query.set('cursor', Buffer.from(last.toString()).toString('base64url'));
    return send(200, page, { link: `</v1/pets?${query}>; rel="next"` });
  }
  if (path === '/pets' && method === 'POST') {
    let pet;
    try {
      pet = parseJson(body);
    } catch {
      return fail(400, 'invalid_body', 'body is not valid JSON');
    }
    const problem = checkNewPet(pet);
    if (problem) return fail(400, 'invalid_body', problem);
    return send(201, store.add(pet));
  }
  const match = /^\/pets\/([^/]+)$/.exec(path);
  if (match && method === 'GET') {
    const id = /^-?\d+$/.test(match[1]) ? BigInt(match[1]) : undefined;
    const pet = id === undefined ? undefined : store.pets.get(id);
    if (!pet) return fail(404, 'not_found', `no animal with id ${match[1]}`);
    return send(200, pet);
  }
  return fail(404, 'not_found', `no route ${method} ${target.pathname}`);
}

/** The id a cursor stands for (pets after it come next), or null for a cursor this service never gave. */
function readCursor(cursor) {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return /^-?\d{1,19}$/.test(text) && Buffer.from(text).toString('base64url') === cursor ? BigInt(text) : null;
}

/** Up to `size` pets of `status` (any when null) with ids above `after`, and whether more follow. */
function pageOf({ pets, list, firstId, idStep }, status, after, size) {
  // A test that set or deleted pets in `pets` itself: read them all, in id order, as a store whose ids are not consecutive.
  if (pets.size !== list.length) {
    const all = [...pets.values()].filter((pet) => after === undefined || pet.id > after).sort((a, b) => (a.id < b.id ? -1 : 1));
    return pageIn(all, 0, status, size);
  }
  // Ids go up by idStep from firstId: the first pet after `after` is found by index, so a page costs the same deep in a large store.
  const start = after === undefined || after < firstId ? 0 : Number((after - firstId) / idStep) + 1;
  return pageIn(list, start, status, size);
}

/** Up to `size` pets of `status` from `list[start]` on, and whether more follow. */
function pageIn(list, start, status, size) {
  const page = [];
  for (let i = start; i < list.length; i += 1) {
    const pet = list[i];
    if (status !== null && pet.status !== status) continue;
    if (page.length === size) return { page, more: true };
    page.push(pet);
  }
  return { page, more: false };
}

/** Why `pet` is not a NewPet (a message for the 400), or undefined when it is one. */
function checkNewPet(pet) {
  if (typeof pet !== 'object' || pet === null || Array.isArray(pet)) return 'body must be a NewPet object';
  if (typeof pet.name !== 'string' || pet.name === '') return 'name is required and must be a non-empty string';
  if (typeof pet.categoryId !== 'bigint' || pet.categoryId < INT64_MIN || pet.categoryId > INT64_MAX) {
    return 'categoryId is required and must be an int64 integer';
  }
  if (pet.status !== undefined && !STATUSES.includes(pet.status)) return `status must be one of ${STATUSES.join(', ')}`;
  const unknown = Object.keys(pet).filter((k) => !NEW_PET_FIELDS.includes(k));
  if (unknown.length) return `unknown field ${unknown[0]}`;
  return undefined;
}
