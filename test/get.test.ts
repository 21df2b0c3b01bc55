import nock from 'nock';
import { describe, expect, test } from 'vitest';
import { BASE, errorBody, run, serviceEnv, tempConfigHome, wrapped, unwrapped } from './helpers.js';

const WARNING =
  'warning: getPet is deprecated, removed 2030-12-05; get then reads listPets pages\nPETSTORE_NO_DEPRECATION_WARNING=1 silences this warning\n';

describe('petstore get', () => {
  test('prints the pet as a tab-separated row when piped, and the deprecation warning on stderr only', async () => {
    nock(BASE).get('/v1/pets/42').reply(200, { id: 42, name: 'Rex', categoryId: 1, status: 'pending', color: 'brown' });
    const r = await run(['get', '42'], { env: serviceEnv() });
    expect(r).toEqual({ code: 0, stdout: '42\tRex\t1\tpending\n', stderr: WARNING, unmatched: [] });
    // For whoever looks one pet up: the removal date, that get goes on working, and how to silence it; lines of 80 columns at most.
    expect(WARNING).toMatch(
      /^warning: getPet is deprecated, removed 2030-12-05; .*listPets.*\nPETSTORE_NO_DEPRECATION_WARNING=1 [^\n]*\n$/,
    );
    expect(WARNING).not.toContain('GET /pets');
    for (const line of WARNING.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  test('on a terminal: key/value lines with every field the service sent', async () => {
    nock(BASE).get('/v1/pets/42').reply(200, { id: 42, name: 'Rex', categoryId: 1, status: 'pending', color: 'brown' });
    const r = await run(['get', '42', '--no-color'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }), stdoutIsTTY: true });
    expect(r.stdout).toBe('id:         42\nname:       Rex\ncategoryId: 1\nstatus:     pending\ncolor:      brown\n');
  });

  test.each([
    ['kv', 'id\t42\nname\tRex\ncategoryId\t1\nstatus\t-\n'],
    ['ndjson', '{"id":42,"name":"Rex","categoryId":1}\n'],
  ])('--format %s', async (format, stdout) => {
    nock(BASE).get('/v1/pets/42').reply(200, { id: 42, name: 'Rex', categoryId: 1 });
    const r = await run(['get', '42', '--format', format], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(r).toEqual({ code: 0, stdout, stderr: '', unmatched: [] });
  });

  test('--json prints the service JSON with an id above 2^53 exact; the warning is a JSON line on stderr', async () => {
    const body = '{"id":9007199254740993,"name":"Rex","categoryId":1}';
    nock(BASE).get('/v1/pets/9007199254740993').reply(200, body, { 'content-type': 'application/json' });
    const r = await run(['get', '9007199254740993', '--json'], { env: serviceEnv() });
    expect(r).toEqual({
      code: 0,
      stdout: `${body}\n`,
      stderr:
        '{"warning":"getPet is deprecated, removed 2030-12-05; get then reads listPets pages","code":"deprecated_operation","hint":"PETSTORE_NO_DEPRECATION_WARNING=1 silences this warning"}\n',
      unmatched: [],
    });
  });

  test('PETSTORE_NO_DEPRECATION_WARNING=1 silences the warning', async () => {
    nock(BASE).get('/v1/pets/1').reply(200, { id: 1, name: 'Rex', categoryId: 1 });
    const r = await run(['get', '1'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(r).toEqual({ code: 0, stdout: '1\tRex\t1\t-\n', stderr: '', unmatched: [] });
  });

  test('a 404 with an Error body exits 3; with --json stderr holds only the JSON error', async () => {
    nock(BASE)
      .get('/v1/pets/99')
      .reply(404, errorBody(404, 'not_found', 'no animal with id 99'));
    const plain = await run(['get', '99'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(plain).toEqual({ code: 3, stdout: '', stderr: 'error: no animal with id 99 (HTTP 404, code not_found)\n', unmatched: [] });
    nock(BASE)
      .get('/v1/pets/99')
      .reply(404, errorBody(404, 'not_found', 'no animal with id 99'));
    const json = await run(['get', '99', '--json'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(json).toEqual({
      code: 3,
      stdout: '',
      stderr: '{"code":"not_found","message":"no animal with id 99","status":404}\n',
      unmatched: [],
    });
  });

  test('a 404 without an Error body is not a missing pet: it points at the base URL, exit 1', async () => {
    // getPet's route is gone: get asks listPets, which has no route either.
    nock(BASE)
      .get('/v1/pets/99')
      .reply(404, '<html>Not Found</html>', { 'content-type': 'text/html' })
      .get('/v1/pets')
      .query({ limit: '100' })
      .reply(404, '<html>Not Found</html>', { 'content-type': 'text/html' });
    const r = await run(['get', '99'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      // No word of getPet's removal: listPets is not there either.
      stderr: wrapped(
        'error: the service has no /v1/pets: HTTP 404 ("<html>Not Found</html>"); the base URL may be wrong\n' +
          "Check the base URL https://api.petstore.test/v1/ (from PETSTORE_BASE_URL): the interface's paths are under its /v1, as in https://petstore.example.com/v1\n",
      ),
      unmatched: [],
    });
  });

  test.each([
    ['no route /pets/99', 'a route the service does not have'],
    ['unknown path', 'words of a path'],
  ])('a 404 whose Error body says "%s" (%s) is not a missing pet: it points at the base URL, exit 1', async (message) => {
    nock(BASE)
      .get('/v1/pets/99')
      .reply(404, errorBody(404, 'not_found', message))
      .get('/v1/pets')
      .query({ limit: '100' })
      .reply(404, errorBody(404, 'not_found', message));
    const r = await run(['get', '99'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped(
        `error: the service has no /v1/pets: HTTP 404 (${message}); the base URL may be wrong\n` +
          "Check the base URL https://api.petstore.test/v1/ (from PETSTORE_BASE_URL): the interface's paths are under its /v1, as in https://petstore.example.com/v1\n",
      ),
      unmatched: [],
    });
  });

  test.each([
    ['--base-url', ['--base-url', `${BASE}/api`], false, 'from --base-url'],
    ['the config', [], true, 'from the config'],
  ])('the hint of a wrong base URL from %s says where to look', async (_name, flags, store, where) => {
    const configHome = tempConfigHome();
    if (store) expect((await run(['config', 'set', 'base-url', `${BASE}/api`], { configHome })).code).toBe(0);
    nock(BASE).get('/api/pets').query({ limit: '20' }).reply(404, '<html>Not Found</html>', { 'content-type': 'text/html' });
    const r = await run(['list', ...flags], { configHome, env: { PETSTORE_API_KEY: 'test-key' } });
    expect(r.code).toBe(1);
    expect(unwrapped(r.stderr).split('\n').slice(1)).toEqual([
      `Check the base URL ${BASE}/api/ (${where}): the interface's paths are under its /v1, as in https://petstore.example.com/v1`,
      '',
    ]);
  });

  test('a 404 whose Error says only "Not Found" is a missing pet under a /v1 base URL (exit 3), a route under another (exit 1)', async () => {
    const env = serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' });
    nock(BASE)
      .get('/v1/pets/99')
      .reply(404, errorBody(404, 'not_found', 'Not Found'));
    expect(await run(['get', '99'], { env })).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error: Not Found (HTTP 404, code not_found)\n',
      unmatched: [],
    });
    nock(BASE)
      .get('/pets/99')
      .reply(404, errorBody(404, 'not_found', 'Not Found'))
      .get('/pets')
      .query({ limit: '100' })
      .reply(404, errorBody(404, 'not_found', 'Not Found'));
    expect(await run(['get', '99'], { env: { ...env, PETSTORE_BASE_URL: BASE } })).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(
        /^error: the service has no \/pets: HTTP 404 \(Not Found\); the base URL may be wrong\nCheck the base URL /,
      ),
    });
  });

  test('a 401 exits 4', async () => {
    nock(BASE)
      .get('/v1/pets/1')
      .reply(401, errorBody(401, 'unauthorized', 'bad key'));
    const r = await run(['get', '1'], { env: serviceEnv() });
    expect(r.code).toBe(4);
  });

  test.each(['abc', '1.5', '1e3', '9223372036854775808', '0x10'])('rejects petId "%s" with exit 2 and sends nothing', async (id) => {
    const r = await run(['get', id], { env: serviceEnv() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^error: invalid value for argument <petId>: "${id}": must be`));
    expect(r.unmatched).toEqual([]);
  });
});

describe('PETSTORE_NO_DEPRECATION_WARNING=1 silences every deprecation warning of get', () => {
  const HEADERS = { deprecation: '@1924992000', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' };
  const HEADER_WARNING = 'warning: the service says this endpoint is deprecated on 2031-01-01, to be removed on 2030-12-05\n';
  const PET = { id: 42, name: 'Rex', categoryId: 1, status: 'pending' };
  const FORCED = 'warning: PETSTORE_GET_VIA_LIST=1: get reads listPets pages (limit 100), not getPet\n';

  test("without it: get's own warning and the one of the Deprecation and Sunset headers", async () => {
    nock(BASE).get('/v1/pets/42').reply(200, PET, HEADERS);
    const r = await run(['get', '42'], { env: serviceEnv() });
    expect(r).toEqual({ code: 0, stdout: '42\tRex\t1\tpending\n', stderr: wrapped(`${WARNING}${HEADER_WARNING}`), unmatched: [] });
  });

  test('with it: neither', async () => {
    nock(BASE).get('/v1/pets/42').reply(200, PET, HEADERS);
    const r = await run(['get', '42'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(r).toEqual({ code: 0, stdout: '42\tRex\t1\tpending\n', stderr: '', unmatched: [] });
  });

  test("with it, through listPets: no header's warning either; the way the pet is found is still said", async () => {
    nock(BASE).get('/v1/pets').query({ limit: 100 }).reply(200, [PET], HEADERS);
    const r = await run(['get', '42'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1', PETSTORE_GET_VIA_LIST: '1' }) });
    expect(r).toEqual({ code: 0, stdout: '42\tRex\t1\tpending\n', stderr: wrapped(FORCED), unmatched: [] });
  });

  test("other commands keep the header's warning: the variable is get's", async () => {
    nock(BASE).get('/v1/pets').query({ limit: 20 }).reply(200, [PET], HEADERS);
    const r = await run(['list'], { env: serviceEnv({ PETSTORE_NO_DEPRECATION_WARNING: '1' }) });
    expect(r).toEqual({ code: 0, stdout: '42\tRex\t1\tpending\n', stderr: wrapped(HEADER_WARNING), unmatched: [] });
  });
});
