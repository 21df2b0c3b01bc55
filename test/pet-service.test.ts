// The fake pet service itself (sandbox/pet-service.mjs), over real loopback
// connections: paging with Link rel="next", the interface's validation
// answers, exact int64 ids, recording, and each fault mode.
import http from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { dropEvery, startPetService, type PetService, type PetServiceOptions } from '../sandbox/pet-service.mjs';
import { run, until } from './helpers.js';

const KEY = 'service-key';
let service: PetService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(options: Partial<PetServiceOptions> = {}): Promise<PetService> {
  service = await startPetService({ key: KEY, ...options });
  return service;
}

/** What a client saw of one exchange: the answer, or the error code that ended it, and the body chunks as they came. */
interface Outcome {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  chunks: Buffer[];
  body: string;
  error?: string;
}

/** One request on a fresh connection; resolves (never rejects) when the answer ends or the exchange fails. */
function call(
  target: PetService,
  method: string,
  path: string,
  { body, key = KEY }: { body?: string; key?: string | null } = {},
): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { chunks: [], body: '' };
    const done = (error?: Error & { code?: string }) => {
      outcome.body = Buffer.concat(outcome.chunks).toString('utf8');
      if (error) outcome.error = error.code ?? error.message;
      resolve(outcome);
    };
    const headers: http.OutgoingHttpHeaders = key === null ? {} : { authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = http.request({ host: '127.0.0.1', port: target.port, method, path, headers, agent: false }, (res) => {
      outcome.status = res.statusCode;
      outcome.headers = res.headers;
      res.on('data', (chunk: Buffer) => outcome.chunks.push(chunk));
      res.on('end', () => done());
      res.on('error', done);
    });
    req.on('error', done);
    req.end(body);
  });
}

/** The error that ended an exchange that got no answer at all. */
const failure = (outcome: Outcome) => (outcome.status === undefined ? outcome.error : `answered ${outcome.status}`);

const pet = (name: string) => ({ name, categoryId: 1, status: 'available' as const });

describe('paging GET /pets', () => {
  test('Link rel="next" with an opaque cursor leads through every pet, and the last page has none', async () => {
    const s = await start({ seed: ['p1', 'p2', 'p3', 'p4', 'p5'].map(pet) });
    const names: string[] = [];
    const urls: string[] = [];
    for (let path: string | undefined = '/v1/pets?limit=2'; path; ) {
      urls.push(path);
      const r = await call(s, 'GET', path);
      expect(r.status).toBe(200);
      names.push(...JSON.parse(r.body).map((p: { name: string }) => p.name));
      path = /^<([^>]+)>; rel="next"$/.exec(String(r.headers?.link ?? ''))?.[1];
    }
    expect(names).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(urls).toEqual([
      '/v1/pets?limit=2',
      expect.stringMatching(/^\/v1\/pets\?limit=2&cursor=[\w-]+$/),
      expect.stringMatching(/cursor=/),
    ]);
  });

  test('petstore list --all follows the links to the last pet', async () => {
    const s = await start({ seed: ['p1', 'p2', 'p3', 'p4', 'p5'].map(pet) });
    const env = { PETSTORE_BASE_URL: s.baseUrl, PETSTORE_API_KEY: KEY };
    const { code, stdout, stderr } = await run(['list', '--all', '--limit', '2'], { env });
    expect({ code, stdout, stderr }).toEqual({
      code: 0,
      stderr: '',
      stdout: [1, 2, 3, 4, 5].map((id) => `${id}\tp${id}\t1\tavailable\n`).join(''),
    });
  });

  test('the first page is the same whether links are on or off', async () => {
    const pets = ['p1', 'p2', 'p3'].map(pet);
    const withLinks = await call(await start({ seed: pets }), 'GET', '/v1/pets?limit=2');
    await service!.close();
    const without = await call(await start({ seed: pets, links: false }), 'GET', '/v1/pets?limit=2');
    expect(without.body).toBe(withLinks.body);
    expect(withLinks.headers?.link).toMatch(/rel="next"$/);
    expect(without.headers?.link).toBeUndefined();
  });

  test('pageSize caps a page below the limit asked; the next link keeps the status filter', async () => {
    const s = await start({ pageSize: 1 });
    const r = await call(s, 'GET', '/v1/pets?status=available');
    expect(JSON.parse(r.body).map((p: { name: string }) => p.name)).toEqual(['Rex']);
    const next = /^<([^>]+)>/.exec(String(r.headers?.link))![1]!;
    expect(new URL(next, s.baseUrl).searchParams.get('status')).toBe('available');
    const second = await call(s, 'GET', next);
    expect(JSON.parse(second.body).map((p: { name: string }) => p.name)).toEqual(['Bella']);
    expect(second.headers?.link).toBeUndefined();
  });
});

describe('answers of the interface', () => {
  const error = (status: number, code: string, message: string) => ({ status, body: JSON.stringify({ code, message, status }) });

  test.each([
    ['GET', '/v1/pets', undefined, null, error(401, 'unauthorized', 'missing or invalid API key')],
    ['GET', '/v1/pets', undefined, 'other-key', error(401, 'unauthorized', 'missing or invalid API key')],
    ['GET', '/v1/pets?limit=0', undefined, KEY, error(400, 'invalid_limit', 'limit must be an integer from 1 to 100')],
    ['GET', '/v1/pets?limit=101', undefined, KEY, error(400, 'invalid_limit', 'limit must be an integer from 1 to 100')],
    ['GET', '/v1/pets?status=lost', undefined, KEY, error(400, 'invalid_status', 'status must be one of available, pending, sold')],
    ['GET', '/v1/pets?cursor=Zm9v', undefined, KEY, error(400, 'invalid_cursor', 'cursor is not one this service gave')],
    ['POST', '/v1/pets', '{"name":', KEY, error(400, 'invalid_body', 'body is not valid JSON')],
    ['POST', '/v1/pets', '{"categoryId":1}', KEY, error(400, 'invalid_body', 'name is required and must be a non-empty string')],
    [
      'POST',
      '/v1/pets',
      '{"name":"x","categoryId":"1"}',
      KEY,
      error(400, 'invalid_body', 'categoryId is required and must be an int64 integer'),
    ],
    [
      'POST',
      '/v1/pets',
      '{"name":"x","categoryId":9223372036854775808}',
      KEY,
      error(400, 'invalid_body', 'categoryId is required and must be an int64 integer'),
    ],
    [
      'POST',
      '/v1/pets',
      '{"name":"x","categoryId":1,"status":"lost"}',
      KEY,
      error(400, 'invalid_body', 'status must be one of available, pending, sold'),
    ],
    ['POST', '/v1/pets', '{"name":"x","categoryId":1,"colour":"red"}', KEY, error(400, 'invalid_body', 'unknown field colour')],
    ['GET', '/v1/pets/999', undefined, KEY, error(404, 'not_found', 'no animal with id 999')],
    ['GET', '/v1/pets/abc', undefined, KEY, error(404, 'not_found', 'no animal with id abc')],
    ['DELETE', '/v1/pets/1', undefined, KEY, error(404, 'not_found', 'no route DELETE /v1/pets/1')],
  ])('%s %s %s (key %s)', async (method, path, body, key, expected) => {
    const s = await start();
    const r = await call(s, method, path, { body, key });
    expect({ status: r.status, body: r.body }).toEqual(expected);
    expect(r.headers?.['content-type']).toBe('application/json');
    expect(s.pets.size).toBe(4);
  });

  test('ids are int64, exact, from firstId; requests are recorded', async () => {
    const s = await start({ firstId: 9007199254740993n, seed: false });
    const created = await call(s, 'POST', '/v1/pets', { body: '{"name":"Rex","categoryId":9223372036854775807}' });
    expect({ status: created.status, body: created.body }).toEqual({
      status: 201,
      body: '{"id":9007199254740993,"name":"Rex","categoryId":9223372036854775807}',
    });
    const got = await call(s, 'GET', '/v1/pets/9007199254740993');
    expect(got.body).toBe(created.body);
    expect(s.requests.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: 'POST', url: '/v1/pets', body: '{"name":"Rex","categoryId":9223372036854775807}' },
      { method: 'GET', url: '/v1/pets/9007199254740993', body: '' },
    ]);
    expect(s.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  test('with record: false nothing is kept', async () => {
    const s = await start({ record: false });
    expect((await call(s, 'GET', '/v1/pets')).status).toBe(200);
    expect(s.requests).toEqual([]);
  });
});

describe('faults', () => {
  test('a list of fixed answers, the last repeating; json keeps bigints exact', async () => {
    const s = await start({
      faults: [
        { status: 503, body: 'busy' },
        { status: 200, headers: { 'x-step': '2' }, json: { big: 2n ** 63n - 1n } },
      ],
    });
    const answers = [await call(s, 'GET', '/v1/pets'), await call(s, 'GET', '/v1/pets'), await call(s, 'GET', '/v1/pets')];
    expect(answers.map((a) => [a.status, a.body, a.headers?.['x-step']])).toEqual([
      [503, 'busy', undefined],
      [200, '{"big":9223372036854775807}', '2'],
      [200, '{"big":9223372036854775807}', '2'],
    ]);
  });

  test('a function of the request; undefined serves from the store', async () => {
    const s = await start({
      faults: (request) =>
        request.method === 'POST' ? { status: 500, json: { code: 'internal', message: 'down', status: 500 } } : undefined,
    });
    expect((await call(s, 'GET', '/v1/pets/1')).status).toBe(200);
    expect((await call(s, 'POST', '/v1/pets', { body: '{"name":"x","categoryId":1}' })).status).toBe(500);
    expect(s.pets.size).toBe(4);
  });

  test('hang: no answer until the service closes', async () => {
    const s = await start({ faults: [{ hang: true }] });
    const pending = call(s, 'GET', '/v1/pets');
    await until(() => s.inFlight > 0);
    await s.close();
    expect(failure(await pending)).toBe('ECONNRESET');
  });

  test('destroy: the connection ends without an answer, and nothing is created', async () => {
    const s = await start({ faults: [{ destroy: true }] });
    expect(failure(await call(s, 'POST', '/v1/pets', { body: '{"name":"x","categoryId":1}' }))).toBe('ECONNRESET');
    expect(s.pets.size).toBe(4);
  });

  test('raw: bytes that are not HTTP', async () => {
    const s = await start({ faults: [{ raw: 'SSH-2.0-OpenSSH_9.2\r\n' }] });
    expect(failure(await call(s, 'GET', '/v1/pets'))).toBe('HPE_INVALID_CONSTANT');
  });

  test('serveThenDestroy: the pet is created, the answer never comes', async () => {
    const s = await start({ seed: false, faults: [{ serveThenDestroy: true }] });
    expect(failure(await call(s, 'POST', '/v1/pets', { body: '{"name":"Lost","categoryId":1}' }))).toBe('ECONNRESET');
    expect([...s.pets.values()]).toEqual([{ id: 1n, name: 'Lost', categoryId: 1n }]);
  });

  test('dropEvery(3): every third POST /pets is created but not answered', async () => {
    const s = await start({ seed: false, faults: dropEvery(3) });
    const outcomes: Array<number | string | undefined> = [];
    for (let i = 0; i < 6; i += 1) {
      const r = await call(s, 'POST', '/v1/pets', { body: `{"name":"p${i}","categoryId":1}` });
      outcomes.push(r.status ?? r.error);
    }
    expect(outcomes).toEqual([201, 201, 'ECONNRESET', 201, 201, 'ECONNRESET']);
    expect(s.pets.size).toBe(6);
    expect((await call(s, 'GET', '/v1/pets')).status).toBe(200);
  });

  test("serveUnreadable 'malformed-json': a 201 whose body is cut, after the pet was created", async () => {
    const s = await start({ seed: false, faults: [{ serveUnreadable: 'malformed-json' }] });
    const r = await call(s, 'POST', '/v1/pets', { body: '{"name":"Rex","categoryId":1}' });
    expect(r.status).toBe(201);
    expect('{"id":1,"name":"Rex","categoryId":1}'.startsWith(r.body)).toBe(true);
    expect(() => JSON.parse(r.body)).toThrow();
    expect(s.pets.size).toBe(1);
  });

  test("serveUnreadable 'short-body': the declared Content-Length never arrives", async () => {
    const s = await start({ seed: false, faults: [{ serveUnreadable: 'short-body' }] });
    const pending = call(s, 'POST', '/v1/pets', { body: '{"name":"Rex","categoryId":1}' });
    await until(() => s.pets.size > 0);
    await s.close();
    const r = await pending;
    expect(r).toMatchObject({ status: 201, error: 'ECONNRESET' });
    expect(r.headers?.['content-length']).toBe('36');
    expect(r.body).toBe('{"id":1,"name":"Re');
  });

  test('drip: status and headers, then the body byte by byte', async () => {
    const s = await start({ faults: [{ drip: { status: 200, json: [{ id: 1, name: 'Rex', categoryId: 2 }], intervalMs: 1 } }] });
    const r = await call(s, 'GET', '/v1/pets');
    expect(r.body).toBe('[{"id":1,"name":"Rex","categoryId":2}]');
    expect(r.chunks.length).toBeGreaterThan(1);
  });

  test('stream: a large body', async () => {
    const s = await start({ faults: [{ stream: { chunk: Buffer.alloc(1024 * 1024, 0x20), times: 3 } }] });
    const r = await call(s, 'GET', '/v1/pets');
    expect(r.status).toBe(200);
    expect(Buffer.concat(r.chunks).length).toBe(3 * 1024 * 1024);
  });
});
