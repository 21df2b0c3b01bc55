// get after getPet's removal: the pet found through listPets, page by page.
import nock from 'nock';
import { afterEach, describe, expect, test } from 'vitest';
import { type Faults, type PetService, pageFault, startPetService } from '../sandbox/pet-service.mjs';
import { BASE, errorBody, run, serviceEnv, until, wrapped, unwrapped } from './helpers.js';

const DEPRECATED =
  'warning: getPet is deprecated, removed 2030-12-05; get then reads listPets pages\nPETSTORE_NO_DEPRECATION_WARNING=1 silences this warning\n';
const GONE = 'warning: getPet is gone from the service: get reads listPets pages (limit 100) to find pets\n';
const FORCED = 'warning: PETSTORE_GET_VIA_LIST=1: get reads listPets pages (limit 100), not getPet\n';
const ROUTE_HINT =
  "Check the base URL https://api.petstore.test/v1/ (from PETSTORE_BASE_URL): the interface's paths are under its /v1, as in https://petstore.example.com/v1\n";

const pet = (id: number | string) => `{"id":${id},"name":"p${id}","categoryId":1,"status":"available"}`;
const page = (...ids: (number | string)[]) => `[${ids.map(pet).join(',')}]`;
const json = { 'content-type': 'application/json' };

/** listPets at limit 100 over three pages, linked by rel="next". */
function threePages(last: string) {
  nock(BASE)
    .get('/v1/pets')
    .query({ limit: '100' })
    .reply(200, page(1, 2), { ...json, link: '</v1/pets?limit=100&cursor=b>; rel="next"' })
    .get('/v1/pets')
    .query({ limit: '100', cursor: 'b' })
    .reply(200, page(3, 4), { ...json, link: '</v1/pets?limit=100&cursor=c>; rel="next"' })
    .get('/v1/pets')
    .query({ limit: '100', cursor: 'c' })
    .reply(200, last, json);
}

describe('get when getPet is gone', () => {
  test('a 410 from getPet: the pet is found on the third page of listPets and printed as get prints it', async () => {
    nock(BASE)
      .get('/v1/pets/5')
      .reply(410, errorBody(410, 'gone', 'getPet was removed on 2030-12-05'));
    threePages(page(5, 6));
    const r = await run(['get', '5'], { env: serviceEnv() });
    expect(r).toEqual({ code: 0, stdout: '5\tp5\t1\tavailable\n', stderr: wrapped(DEPRECATED + GONE), unmatched: [] });
  });

  test('a 410 without an Error body, and --json: the pet exactly as the service sent it, an id above 2^53 exact', async () => {
    const big = '9007199254740993';
    nock(BASE).get(`/v1/pets/${big}`).reply(410, 'Gone', { 'content-type': 'text/plain' });
    threePages(page('9007199254740992', big));
    const r = await run(['get', big, '--json'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(r).toEqual({
      code: 0,
      stdout: `${pet(big)}\n`,
      stderr: `${JSON.stringify({ warning: GONE.slice('warning: '.length, -1), code: 'get_via_list' })}\n`,
      unmatched: [],
    });
  });

  test.each([
    ['an Error naming a route', errorBody(404, 'not_found', 'no route /pets/5')],
    ['no Error body', '<html>Not Found</html>'],
  ])('a 404 of getPet that the 404 rule reads as a route (%s): found through listPets', async (_, body) => {
    nock(BASE).get('/v1/pets/5').reply(404, body);
    threePages(page(5));
    const r = await run(['get', '5'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(r).toEqual({ code: 0, stdout: '5\tp5\t1\tavailable\n', stderr: wrapped(GONE), unmatched: [] });
  });

  test('a 404 that names the animal is still a missing pet: exit 3, listPets not asked', async () => {
    nock(BASE)
      .get('/v1/pets/5')
      .reply(404, errorBody(404, 'not_found', 'no animal with id 5'));
    const r = await run(['get', '5'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(r).toEqual({ code: 3, stdout: '', stderr: 'error: no animal with id 5 (HTTP 404, code not_found)\n', unmatched: [] });
  });

  test('a pet on no page: exit 3, naming how much was read; with --json the error object', async () => {
    nock(BASE)
      .get('/v1/pets/99')
      .reply(410, errorBody(410, 'gone', 'removed'));
    threePages(page(5));
    const r = await run(['get', '99'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr: wrapped(`${GONE}error: no animal with id 99: none on the 3 pages of listPets (5 pets)\n`),
      unmatched: [],
    });
    nock(BASE)
      .get('/v1/pets/99')
      .reply(410, errorBody(410, 'gone', 'removed'));
    threePages(page(5));
    const j = await run(['get', '99', '--json'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(j.code).toBe(3);
    expect(j.stdout).toBe('');
    expect(
      j.stderr
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { warning: GONE.slice('warning: '.length, -1), code: 'get_via_list' },
      { code: 'not_found', message: 'no animal with id 99: none on the 3 pages of listPets (5 pets)', status: null },
    ]);
  });

  test('a wrong base URL: getPet and listPets both 404, the route error alone (no word of a removal), exit 1', async () => {
    nock(BASE)
      .get('/v1/pets/5')
      .reply(404, errorBody(404, 'not_found', 'no route /pets/5'))
      .get('/v1/pets')
      .query({ limit: '100' })
      .reply(404, errorBody(404, 'not_found', 'no route /pets'));
    const r = await run(['get', '5'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped(`error: the service has no /v1/pets: HTTP 404 (no route /pets); the base URL may be wrong\n${ROUTE_HINT}`),
      unmatched: [],
    });
  });

  test('PETSTORE_GET_VIA_LIST=1: getPet is never asked; the lookup through listPets says so', async () => {
    threePages(page(5));
    const r = await run(['get', '5', '--format', 'kv'], { env: serviceEnv({ PETSTORE_GET_VIA_LIST: '1' }) });
    expect(r).toEqual({ code: 0, stdout: 'id\t5\nname\tp5\ncategoryId\t1\nstatus\tavailable\n', stderr: wrapped(FORCED), unmatched: [] });
  });
});

describe('get through listPets reads the whole store when it must (issue 29)', () => {
  let service: PetService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });
  const viaList = (url: string) => ({ PETSTORE_BASE_URL: url, PETSTORE_API_KEY: 'k', PETSTORE_GET_VIA_LIST: '1' });
  const cursorOf = (id: number) => Buffer.from(String(id)).toString('base64url');

  test('stops at the first page that holds the id: pages of 100, no page after it asked', async () => {
    service = await startPetService({ key: 'k', seed: 1000 });
    const r = await run(['get', '150', '--json'], { env: viaList(service.baseUrl) });
    expect(r).toMatchObject({
      code: 0,
      stdout: '{"id":150,"name":"pet-150","categoryId":3,"status":"sold"}\n',
      stderr: `${JSON.stringify({ warning: FORCED.slice(9, -1), code: 'get_via_list' })}\n`,
    });
    expect(service.requests.map((q) => q.url)).toEqual(['/v1/pets?limit=100', `/v1/pets?limit=100&cursor=${cursorOf(100)}`]);
  });

  test('no page cap: the last of 1,050 pets in pages of 1 is found; a missing id reads every page and exits 3', async () => {
    service = await startPetService({ key: 'k', seed: 1050, pageSize: 1 });
    const found = await run(['get', '1050', '--format', 'tsv'], { env: viaList(service.baseUrl) });
    expect(found).toMatchObject({ code: 0, stdout: '1050\tpet-1050\t7\tsold\n', stderr: wrapped(FORCED) });
    expect(service.requests).toHaveLength(1050);
    const missing = await run(['get', '1051'], { env: viaList(service.baseUrl) });
    expect(missing).toMatchObject({
      code: 3,
      stdout: '',
      stderr: wrapped(`${FORCED}error: no animal with id 1051: none on the 1050 pages of listPets (1050 pets)\n`),
    });
  }, 60_000);

  test('a page that fails partway: exit 1, naming the page and its link', async () => {
    service = await startPetService({
      key: 'k',
      seed: 300,
      faults: pageFault(2, { status: 500, json: { code: 'internal', message: 'broke', status: 500 } }),
    });
    const r = await run(['get', '299'], { env: viaList(service.baseUrl) });
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: wrapped(
        `${FORCED}error: the listing stopped at page 2: broke (HTTP 500, code internal)\nthe rest of the listing starts at the page that failed: ${service.baseUrl}/pets?limit=100&cursor=${cursorOf(100)}\n`,
      ),
    });
  });

  test('at a terminal, a lookup that takes longer than 2 seconds shows its progress on the status line, cleared at the end', async () => {
    let stderr = '';
    const shown = until(() => stderr.includes('looking for pet'));
    service = await startPetService({
      key: 'k',
      seed: 5,
      pageSize: 1,
      faults: pageFault(3, { serve: true, until: shown }, { pageSize: 1 }),
    });
    const r = await run(['get', '5', '--format', 'tsv'], {
      env: viaList(service.baseUrl),
      stdoutIsTTY: true,
      onStderr: (t) => (stderr += t),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('pet-5');
    expect(r.stderr).toContain('\r\u001b[Klooking for pet 5 through listPets: page 3, 2 pets read');
    expect(r.stderr.endsWith('\r\u001b[K')).toBe(true);
  });
});

describe('get through listPets against the fake service', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  test.each<[string, Faults]>([
    [
      '410',
      (request) =>
        /^\/v1\/pets\/\d+/.test(request.url) ? { status: 410, json: { code: 'gone', message: 'removed', status: 410 } } : undefined,
    ],
    [
      'a route 404',
      (request) =>
        /^\/v1\/pets\/\d+/.test(request.url) ? { status: 404, json: { code: 'not_found', message: 'no route', status: 404 } } : undefined,
    ],
  ])('getPet answers %s: the pet on page 3 of 2 pets each, found; a missing one exit 3', async (_, faults) => {
    const service = await startPetService({ key: 'demo', pageSize: 2, faults });
    stop = () => service.close();
    const env = {
      PETSTORE_BASE_URL: service.baseUrl,
      PETSTORE_API_KEY: 'demo',
      PETSTORE_NO_DEPRECATION_WARNING: '1',
    };
    const found = await run(['get', '4', '--format', 'json'], { env });
    expect(found).toMatchObject({ code: 0, stderr: wrapped(GONE) });
    expect(JSON.parse(found.stdout)).toMatchObject({ id: 4 });
    const urls = service.requests.map((r) => r.url);
    expect(urls[0]).toBe('/v1/pets/4');
    expect(urls.slice(1).every((url) => url.startsWith('/v1/pets?'))).toBe(true);
    expect(urls.length).toBeGreaterThanOrEqual(3);
    const missing = await run(['get', '99'], { env });
    expect(missing.code).toBe(3);
    expect(missing.stdout).toBe('');
    expect(unwrapped(missing.stderr)).toMatch(
      /^warning: getPet is gone from the service[^\n]*\nerror: no animal with id 99: none on the \d+ pages of listPets \(4 pets\)\n$/,
    );
  });
});
