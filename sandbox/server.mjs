#!/usr/bin/env node
// A faithful in-memory pet store (../shared/petstore-interface.md) for the
// quick start, the end-to-end tests and the benchmarks. It listens on
// 127.0.0.1 only. Not part of the CLI.
//
//   npm run sandbox -- --port 4010 --key demo [--first-id 1] [--no-seed]
import http from 'node:http';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const STATUSES = ['available', 'pending', 'sold'];
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const SEED = [
  { name: 'Rex', categoryId: 1n, status: 'available' },
  { name: 'Tom', categoryId: 2n, status: 'pending' },
  { name: 'Bella', categoryId: 1n, status: 'available' },
  { name: 'Goldie', categoryId: 3n, status: 'sold' },
];

/** JSON.parse keeping integer literals exact as bigint (ids are int64). */
function parseJson(text) {
  return JSON.parse(text, (_key, value, context) =>
    typeof value === 'number' && /^-?\d+$/.test(context?.source ?? '') ? BigInt(context.source) : value,
  );
}

function toJson(value) {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? JSON.rawJSON(v.toString()) : v));
}

/**
 * Creates the sandbox: an http.Server (not yet listening) and the list of
 * requests it has seen ({method, url, headers, body}), for tests; with
 * `record: false` (the command line) that list stays empty, so a long-running
 * sandbox does not grow.
 * @param {{key: string, firstId?: bigint, seed?: boolean, record?: boolean}} options
 */
export function createSandbox({ key, firstId = 1n, seed = true, record = true }) {
  const pets = new Map();
  const requests = [];
  let nextId = firstId;
  const add = (pet) => {
    const stored = { id: nextId, name: pet.name, categoryId: pet.categoryId };
    if (pet.status !== undefined) stored.status = pet.status;
    pets.set(nextId, stored);
    nextId += 1n;
    return stored;
  };
  if (seed) SEED.forEach(add);

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (record) requests.push({ method: req.method, url: req.url, headers: req.headers, body });
      const send = (status, value) => {
        const text = toJson(value);
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      };
      const fail = (status, code, message) => send(status, { code, message, status });

      const url = new URL(req.url, 'http://sandbox');
      if (!url.pathname.startsWith('/v1/')) return fail(404, 'not_found', `no route ${url.pathname}`);
      if (req.headers.authorization !== `Bearer ${key}`) {
        return fail(401, 'unauthorized', 'missing or invalid API key');
      }
      const path = url.pathname.slice('/v1'.length);
      if (path === '/pets' && req.method === 'GET') {
        const limitText = url.searchParams.get('limit') ?? '20';
        const status = url.searchParams.get('status');
        if (!/^\d+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 100) {
          return fail(400, 'invalid_limit', 'limit must be an integer from 1 to 100');
        }
        if (status !== null && !STATUSES.includes(status)) {
          return fail(400, 'invalid_status', `status must be one of ${STATUSES.join(', ')}`);
        }
        const found = [...pets.values()].filter((p) => status === null || p.status === status);
        return send(200, found.slice(0, Number(limitText)));
      }
      if (path === '/pets' && req.method === 'POST') {
        let pet;
        try {
          pet = parseJson(body);
        } catch {
          return fail(400, 'invalid_body', 'body is not valid JSON');
        }
        const problem = checkNewPet(pet);
        if (problem) return fail(400, 'invalid_body', problem);
        return send(201, add(pet));
      }
      const match = /^\/pets\/([^/]+)$/.exec(path);
      if (match && req.method === 'GET') {
        const id = /^-?\d+$/.test(match[1]) ? BigInt(match[1]) : undefined;
        const pet = id === undefined ? undefined : pets.get(id);
        if (!pet) return fail(404, 'not_found', `no animal with id ${match[1]}`);
        return send(200, pet);
      }
      return fail(404, 'not_found', `no route ${req.method} ${url.pathname}`);
    });
  });
  return { server, requests, pets };
}

function checkNewPet(pet) {
  if (typeof pet !== 'object' || pet === null || Array.isArray(pet)) return 'body must be a NewPet object';
  if (typeof pet.name !== 'string' || pet.name === '') return 'name is required and must be a non-empty string';
  if (typeof pet.categoryId !== 'bigint' || pet.categoryId < INT64_MIN || pet.categoryId > INT64_MAX) {
    return 'categoryId is required and must be an int64 integer';
  }
  if (pet.status !== undefined && !STATUSES.includes(pet.status)) return `status must be one of ${STATUSES.join(', ')}`;
  const unknown = Object.keys(pet).filter((k) => !['name', 'categoryId', 'status'].includes(k));
  if (unknown.length) return `unknown field ${unknown[0]}`;
  return undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      key: { type: 'string', default: 'demo' },
      'first-id': { type: 'string', default: '1' },
      'no-seed': { type: 'boolean', default: false },
    },
  });
  const { server } = createSandbox({ key: values.key, firstId: BigInt(values['first-id']), seed: !values['no-seed'], record: false });
  server.on('error', (error) => {
    process.stderr.write(`petstore sandbox: cannot listen on 127.0.0.1:${values.port}: ${error.code ?? error.message}\n`);
    process.exit(1);
  });
  server.listen(Number(values.port), '127.0.0.1', () => {
    const { port } = server.address();
    process.stdout.write(`petstore sandbox listening on http://127.0.0.1:${port}/v1\n`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
