// petstore get of one id: getPet sent and the pet printed, the deprecation warnings, and how a 404 is read (a missing pet, exit 3,
// or a route the service does not have, exit 1). Runs through the fake client; exit codes and error lines through its main.
import { describe, expect, test } from 'vitest';
import { GET } from '../src/commands/get/run.js';
import { LIST } from '../src/commands/list/run.js';
import { type Given, runCommand } from '../src/commands/runner.js';
import { errorBody, unwrapped, wrapped } from './helpers.js';
import { FAKE_ORIGIN, type FakeClientOptions, fakeClientFactory } from './support/fake-client.js';

const WARNING =
  'warning: getPet is deprecated, removed 2030-12-05; get then reads listPets pages\nPETSTORE_NO_DEPRECATION_WARNING=1 silences this warning\n';
const SILENCED = { PETSTORE_NO_DEPRECATION_WARNING: '1' };
const ROUTE_HINT = `Check the base URL ${FAKE_ORIGIN}/v1/ (from PETSTORE_BASE_URL): the interface's paths are under its /v1, as in https://petstore.example.com/v1\n`;
const HTML = { 'content-type': 'text/html' };
const json = (value: unknown) => JSON.stringify(value);

type Fake = ReturnType<typeof fakeClientFactory>;

/** get's run on a fake client made with `options`, `answers` set on it first: what it wrote, and the fake (its requests). */
async function got(given: Given, options: FakeClientOptions, answers: (fake: Fake) => void) {
  const fake = fakeClientFactory(options);
  answers(fake);
  await runCommand(fake.f, GET, given);
  return { ...fake.written, fake };
}

describe('petstore get', () => {
  test('prints the pet as a tab-separated row when piped, and the deprecation warning on stderr only', async () => {
    const r = await got({ arguments: [['42']] }, {}, (fake) =>
      fake.answer('GET', '/v1/pets/42', 200, json({ id: 42, name: 'Rex', categoryId: 1, status: 'pending', color: 'brown' })),
    );
    expect({ stdout: r.stdout, stderr: r.stderr }).toEqual({ stdout: '42\tRex\t1\tpending\n', stderr: WARNING });
    expect(r.fake.requests).toEqual([{ method: 'GET', path: '/v1/pets/42', authorization: 'Bearer test-key' }]);
    // For whoever looks one pet up: the removal date, that get goes on working, and how to silence it; lines of 80 columns at most.
    expect(WARNING).toMatch(
      /^warning: getPet is deprecated, removed 2030-12-05; .*listPets.*\nPETSTORE_NO_DEPRECATION_WARNING=1 [^\n]*\n$/,
    );
    expect(WARNING).not.toContain('GET /pets');
    for (const line of WARNING.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  test('on a terminal: key/value lines with every field the service sent', async () => {
    const r = await got({ arguments: [['42']] }, { env: SILENCED, tty: true }, (fake) =>
      fake.answer('GET', '/v1/pets/42', 200, json({ id: 42, name: 'Rex', categoryId: 1, status: 'pending', color: 'brown' })),
    );
    expect(r.stdout).toBe('id:         42\nname:       Rex\ncategoryId: 1\nstatus:     pending\ncolor:      brown\n');
  });

  test.each([
    ['kv', 'id\t42\nname\tRex\ncategoryId\t1\nstatus\t-\n'],
    ['ndjson', '{"id":42,"name":"Rex","categoryId":1}\n'],
  ])('--format %s', async (format, stdout) => {
    const r = await got({ arguments: [['42']] }, { env: SILENCED, output: { format } }, (fake) =>
      fake.answer('GET', '/v1/pets/42', 200, json({ id: 42, name: 'Rex', categoryId: 1 })),
    );
    expect({ stdout: r.stdout, stderr: r.stderr }).toEqual({ stdout, stderr: '' });
  });

  test('--json prints the service JSON with an id above 2^53 exact; the warning is a JSON line on stderr', async () => {
    const body = '{"id":9007199254740993,"name":"Rex","categoryId":1}';
    const r = await got({ arguments: [['9007199254740993']] }, { globals: { json: true } }, (fake) =>
      fake.answer('GET', '/v1/pets/9007199254740993', 200, body),
    );
    expect({ stdout: r.stdout, stderr: r.stderr }).toEqual({
      stdout: `${body}\n`,
      stderr: '{"warning":"getPet is removed on 2030-12-05","code":"deprecated_operation","hint":"see get --help"}\n',
    });
  });

  test('PETSTORE_NO_DEPRECATION_WARNING=1 silences the warning', async () => {
    const r = await got({ arguments: [['1']] }, { env: SILENCED }, (fake) =>
      fake.answer('GET', '/v1/pets/1', 200, json({ id: 1, name: 'Rex', categoryId: 1 })),
    );
    expect({ stdout: r.stdout, stderr: r.stderr }).toEqual({ stdout: '1\tRex\t1\t-\n', stderr: '' });
  });

  test('a 404 with an Error body exits 3; with --json stderr holds only the JSON error', async () => {
    const fake = fakeClientFactory({ env: SILENCED });
    fake.answer('GET', '/v1/pets/99', 404, json(errorBody(404, 'not_found', 'no animal with id 99')));
    expect(await fake.main(['get', '99'])).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error: no animal with id 99 (HTTP 404, code not_found)\n',
      unmatched: [],
    });
    fake.answer('GET', '/v1/pets/99', 404, json(errorBody(404, 'not_found', 'no animal with id 99')));
    expect(await fake.main(['get', '99', '--json'])).toEqual({
      code: 3,
      stdout: '',
      stderr: '{"code":"not_found","message":"no animal with id 99","status":404}\n',
      unmatched: [],
    });
    // Not a route: listPets is not asked.
    expect(fake.requests.map((q) => q.path)).toEqual(['/v1/pets/99', '/v1/pets/99']);
  });

  test('a 404 without an Error body is not a missing pet: it points at the base URL, exit 1', async () => {
    // getPet's route is gone: get asks listPets, which has no route either.
    const fake = fakeClientFactory({ env: SILENCED });
    fake.answer('GET', '/v1/pets/99', 404, '<html>Not Found</html>', HTML);
    fake.answer('GET', '/v1/pets?limit=100', 404, '<html>Not Found</html>', HTML);
    expect(await fake.main(['get', '99'])).toEqual({
      code: 1,
      stdout: '',
      // No word of getPet's removal: listPets is not there either.
      stderr: wrapped(`error: the service has no /v1/pets: HTTP 404 ("<html>Not Found</html>"); the base URL may be wrong\n${ROUTE_HINT}`),
      unmatched: [],
    });
  });

  test.each([
    ['no route /pets/99', 'a route the service does not have'],
    ['unknown path', 'words of a path'],
  ])('a 404 whose Error body says "%s" (%s) is not a missing pet: it points at the base URL, exit 1', async (message) => {
    const fake = fakeClientFactory({ env: SILENCED });
    fake.answer('GET', '/v1/pets/99', 404, json(errorBody(404, 'not_found', message)));
    fake.answer('GET', '/v1/pets?limit=100', 404, json(errorBody(404, 'not_found', message)));
    expect(await fake.main(['get', '99'])).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped(`error: the service has no /v1/pets: HTTP 404 (${message}); the base URL may be wrong\n${ROUTE_HINT}`),
      unmatched: [],
    });
  });

  test.each([
    ['--base-url', ['--base-url', `${FAKE_ORIGIN}/api`], false, 'from --base-url'],
    ['the config', [], true, 'from the config'],
  ])('the hint of a wrong base URL from %s says where to look', async (_name, flags, store, where) => {
    const fake = fakeClientFactory({ env: { PETSTORE_BASE_URL: undefined } });
    if (store) expect((await fake.main(['config', 'set', 'base-url', `${FAKE_ORIGIN}/api`])).code).toBe(0);
    fake.answer('GET', '/api/pets?limit=20', 404, '<html>Not Found</html>', HTML);
    const r = await fake.main(['list', ...flags]);
    expect(r.code).toBe(1);
    expect(unwrapped(r.stderr).split('\n').slice(1)).toEqual([
      `Check the base URL ${FAKE_ORIGIN}/api/ (${where}): the interface's paths are under its /v1, as in https://petstore.example.com/v1`,
      '',
    ]);
  });

  test('a 404 whose Error says only "Not Found" is a missing pet under a /v1 base URL (exit 3), a route under another (exit 1)', async () => {
    const underV1 = fakeClientFactory({ env: SILENCED });
    underV1.answer('GET', '/v1/pets/99', 404, json(errorBody(404, 'not_found', 'Not Found')));
    expect(await underV1.main(['get', '99'])).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error: Not Found (HTTP 404, code not_found)\n',
      unmatched: [],
    });
    const atRoot = fakeClientFactory({ env: { ...SILENCED, PETSTORE_BASE_URL: FAKE_ORIGIN } });
    atRoot.answer('GET', '/pets/99', 404, json(errorBody(404, 'not_found', 'Not Found')));
    atRoot.answer('GET', '/pets?limit=100', 404, json(errorBody(404, 'not_found', 'Not Found')));
    const r = await atRoot.main(['get', '99']);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(unwrapped(r.stderr)).toMatch(
      /^error: the service has no \/pets: HTTP 404 \(Not Found\); the base URL may be wrong\nCheck the base URL /,
    );
  });

  test('a 401 exits 4', async () => {
    const fake = fakeClientFactory();
    fake.answer('GET', '/v1/pets/1', 401, json(errorBody(401, 'unauthorized', 'bad key')));
    expect((await fake.main(['get', '1'])).code).toBe(4);
  });

  test.each(['abc', '1.5', '1e3', '9223372036854775808', '0x10'])('rejects petId "%s" with exit 2 and sends nothing', async (id) => {
    const fake = fakeClientFactory();
    const r = await fake.main(['get', id]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^error: invalid value for argument <petId>: "${id}": must be`));
    expect(fake.requests).toEqual([]);
  });
});

describe('PETSTORE_NO_DEPRECATION_WARNING=1 silences every deprecation warning of get', () => {
  const HEADERS = { deprecation: '@1924992000', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' };
  const HEADER_WARNING = 'warning: the service says this endpoint is deprecated on 2031-01-01, to be removed on 2030-12-05\n';
  const PET = json({ id: 42, name: 'Rex', categoryId: 1, status: 'pending' });
  const FORCED = 'warning: PETSTORE_GET_VIA_LIST=1: get reads listPets pages, not getPet\n';

  test("without it: get's own warning and the one of the Deprecation and Sunset headers", async () => {
    const r = await got({ arguments: [['42']] }, {}, (fake) => fake.answer('GET', '/v1/pets/42', 200, PET, HEADERS));
    expect({ stdout: r.stdout, stderr: r.stderr }).toEqual({
      stdout: '42\tRex\t1\tpending\n',
      stderr: wrapped(`${WARNING}${HEADER_WARNING}`),
    });
  });

  test('with it: neither', async () => {
    const r = await got({ arguments: [['42']] }, { env: SILENCED }, (fake) => fake.answer('GET', '/v1/pets/42', 200, PET, HEADERS));
    expect({ stdout: r.stdout, stderr: r.stderr }).toEqual({ stdout: '42\tRex\t1\tpending\n', stderr: '' });
  });

  test("with it, through listPets: no header's warning either; the way the pet is found is still said", async () => {
    const r = await got({ arguments: [['42']] }, { env: { ...SILENCED, PETSTORE_GET_VIA_LIST: '1' } }, (fake) =>
      fake.answer('GET', '/v1/pets?limit=100', 200, `[${PET}]`, HEADERS),
    );
    expect({ stdout: r.stdout, stderr: r.stderr }).toEqual({ stdout: '42\tRex\t1\tpending\n', stderr: wrapped(FORCED) });
  });

  test("other commands keep the header's warning: the variable is get's", async () => {
    const fake = fakeClientFactory({ env: SILENCED });
    fake.answer('GET', '/v1/pets?limit=20', 200, `[${PET}]`, HEADERS);
    await runCommand(fake.f, LIST);
    expect(fake.written).toEqual({ stdout: '42\tRex\t1\tpending\n', stderr: wrapped(HEADER_WARNING) });
  });
});
