// The one fake pet store service, used by the sandbox CLI (sandbox/server.mjs),
// the tests and the benchmarks: a faithful in-memory implementation of
// openapi/petstore.yaml over http or https on loopback, which can
// record the requests it sees and answer any of them with a scripted fault.
// Types and the fault steps: pet-service.d.mts.
import http from 'node:http';
import https from 'node:https';
import { perform } from './faults.mjs';
import { answer, createPetStore } from './pet-store.mjs';

export { generatedPet, parseJson, toJson, SEED_PETS } from './pet-store.mjs';

/**
 * Starts the service and resolves once it listens (rejects with the listen
 * error, e.g. EADDRINUSE). Options (all optional but `key`): firstId (bigint), idStep (bigint),
 * seed, pageSize (1..100), links, record, faults (steps or a function of the
 * request), tls ({key, cert} PEM: serve https), host (default 127.0.0.1), port
 * (default 0: a free one). `links: 'endless'` links empty pages after the
 * last pet, forever; `seed` a number generates that many pets at once.
 */
export async function startPetService(options) {
  const { key, pageSize = 100, links = true, record = true, faults, tls, host = '127.0.0.1', port = 0 } = options;
  const store = createPetStore(options);
  const requests = [];
  const timers = new Set();
  const stepFor = stepPicker(faults);
  let count = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  // Counted only while recording: the benchmarks' sandbox spends nothing on it.
  const countInFlight = (res) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let answered = false;
    const done = () => {
      if (!answered) inFlight -= 1;
      answered = true;
    };
    res.once('finish', done);
    res.once('close', done);
  };
  const onRequest = (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      if (record) requests.push(request);
      if (record) countInFlight(res);
      const serve = () => answer(store, request, { key, pageSize, links });
      perform(stepFor(request, count++) ?? { serve: true }, { req, res, serve, timers });
    });
  };
  const server = tls ? https.createServer({ key: tls.key, cert: tls.cert }, onRequest) : http.createServer(onRequest);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address().port;
  const authority = `${host.includes(':') ? `[${host}]` : host}:${bound}`;
  return {
    server,
    baseUrl: `${tls ? 'https' : 'http'}://${authority}/v1`,
    host: authority,
    port: bound,
    requests,
    pets: store.pets,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The step of the `index`-th request: from a list (the last step repeats) or a function; undefined means serve. */
function stepPicker(faults) {
  if (faults === undefined) return () => undefined;
  if (typeof faults === 'function') return faults;
  if (!Array.isArray(faults) || faults.length === 0) throw new TypeError('faults must be a non-empty list of steps or a function');
  return (_request, index) => faults[Math.min(index, faults.length - 1)];
}

/**
 * The page number (1: the first) of a `GET /pets` request of an unfiltered
 * listing, from its cursor and limit, in a store whose ids start at `firstId`
 * and whose pages hold at most `pageSize`; undefined for any other request.
 */
export function listPageOf(request, { firstId = 1n, pageSize = 100 } = {}) {
  if (request.method !== 'GET') return undefined;
  const url = new URL(request.url, 'http://sandbox');
  if (url.pathname !== '/v1/pets') return undefined;
  const size = Math.min(Number(url.searchParams.get('limit') ?? 20), pageSize);
  const cursor = url.searchParams.get('cursor');
  if (cursor === null) return 1;
  const after = BigInt(Buffer.from(cursor, 'base64url').toString('utf8'));
  return Math.floor(Number(after - BigInt(firstId) + 1n) / size) + 1;
}

/** A `faults` function: every request for page `page` of GET /pets ({@link listPageOf}) takes `step`, its retries too; others are served. */
export function pageFault(page, step, store = {}) {
  return (request) => (listPageOf(request, store) === page ? step : undefined);
}

/**
 * A `faults` function that serves every request but drops the answer of every
 * `n`-th POST /pets after the pet was created (the connection is destroyed).
 */
export function dropEvery(n) {
  let posts = 0;
  return (request) => {
    if (request.method !== 'POST' || !/^\/v1\/pets(\?|$)/.test(request.url)) return undefined;
    posts += 1;
    return posts % n === 0 ? { serveThenDestroy: true } : undefined;
  };
}
