// get after getPet's removal: the pet found through listPets, page by page. Runs through the fake client (fixed answers, or the
// sandbox's store behind it, test/support/fake-store.ts); exit codes and error lines through its main.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { listPageOf, pageFault } from '../sandbox/pet-service.mjs';
import { GET } from '../src/commands/get/run.js';
import { runCommand } from '../src/commands/runner.js';
import { errorBody, unwrapped, wrapped } from './helpers.js';
import { FAKE_ORIGIN, type FakeClientOptions, fakeClientFactory } from './support/fake-client.js';
import { serveStore } from './support/fake-store.js';

const DEPRECATED =
  'warning: getPet is deprecated, removed 2030-12-05; get then reads listPets pages\nPETSTORE_NO_DEPRECATION_WARNING=1 silences this warning\n';
const GONE = 'warning: getPet is gone from the service: get reads listPets pages\n';
const FORCED = 'warning: PETSTORE_GET_VIA_LIST=1: get reads listPets pages, not getPet\n';
const ROUTE_HINT = `Check the base URL ${FAKE_ORIGIN}/v1/ (from PETSTORE_BASE_URL): the interface's paths are under its /v1, as in https://petstore.example.com/v1\n`;
const SILENCED = { PETSTORE_NO_DEPRECATION_WARNING: '1' };

const pet = (id: number | string) => `{"id":${id},"name":"p${id}","categoryId":1,"status":"available"}`;
const page = (...ids: (number | string)[]) => `[${ids.map(pet).join(',')}]`;
const gone = JSON.stringify(errorBody(410, 'gone', 'removed'));

type Fake = ReturnType<typeof fakeClientFactory>;

/** A fake client whose listPets at limit 100 answers three pages, linked by rel="next", the last one `last`. */
function threePages(last: string, options: FakeClientOptions = {}): Fake {
  const fake = fakeClientFactory(options);
  answerThreePages(fake, last);
  return fake;
}

function answerThreePages(fake: Fake, last: string): void {
  fake.answer('GET', '/v1/pets?limit=100', 200, page(1, 2), { link: '</v1/pets?limit=100&cursor=b>; rel="next"' });
  fake.answer('GET', '/v1/pets?limit=100&cursor=b', 200, page(3, 4), { link: '</v1/pets?limit=100&cursor=c>; rel="next"' });
  fake.answer('GET', '/v1/pets?limit=100&cursor=c', 200, last);
}

const LISTED = ['/v1/pets?limit=100', '/v1/pets?limit=100&cursor=b', '/v1/pets?limit=100&cursor=c'];
const paths = (fake: Fake) => fake.requests.map((q) => q.path);

describe("get's warnings with --json (issue 37, item 5: every line at most 100 columns wherever stderr goes)", () => {
  const DEPRECATION = { warning: 'getPet is removed on 2030-12-05', code: 'deprecated_operation', hint: 'see get --help' };
  const GONE_JSON = { warning: 'getPet is gone from the service: get reads listPets pages', code: 'get_via_list' };
  const FORCED_JSON = { warning: 'PETSTORE_GET_VIA_LIST=1: get reads listPets pages, not getPet', code: 'get_via_list' };

  test.each([
    ['one id', ['5']],
    ['several ids', ['5', '6']],
  ])('%s: the deprecation, then the lookup through listPets once getPet is gone; or PETSTORE_GET_VIA_LIST=1', async (_, ids) => {
    const gone = threePages(page(5, 6), { globals: { json: true } });
    gone.answer('GET', '/v1/pets/5', 410, JSON.stringify(errorBody(410, 'gone', 'removed')));
    if (ids.length > 1) gone.answer('GET', '/v1/pets/6', 410, JSON.stringify(errorBody(410, 'gone', 'removed')));
    await runCommand(gone.f, GET, { arguments: [ids] });
    const forced = threePages(page(5, 6), { globals: { json: true }, env: { PETSTORE_GET_VIA_LIST: '1' } });
    await runCommand(forced.f, GET, { arguments: [ids] });
    for (const [fake, warnings] of [
      [gone, [DEPRECATION, GONE_JSON]],
      [forced, [FORCED_JSON]],
    ] as const) {
      const lines = fake.written.stderr.trimEnd().split('\n');
      expect(lines.map((line) => JSON.parse(line))).toEqual(warnings);
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    }
  });
});

describe('get when getPet is gone', () => {
  test('a 410 from getPet: the pet is found on the third page of listPets and printed as get prints it', async () => {
    const fake = threePages(page(5, 6));
    fake.answer('GET', '/v1/pets/5', 410, JSON.stringify(errorBody(410, 'gone', 'getPet was removed on 2030-12-05')));
    await runCommand(fake.f, GET, { arguments: [['5']] });
    expect(fake.written).toEqual({ stdout: '5\tp5\t1\tavailable\n', stderr: wrapped(DEPRECATED + GONE) });
    expect(paths(fake)).toEqual(['/v1/pets/5', ...LISTED]);
  });

  test('a 410 without an Error body, and --json: the pet exactly as the service sent it, an id above 2^53 exact', async () => {
    const big = '9007199254740993';
    const fake = threePages(page('9007199254740992', big), { env: SILENCED, globals: { json: true } });
    fake.answer('GET', `/v1/pets/${big}`, 410, 'Gone', { 'content-type': 'text/plain' });
    await runCommand(fake.f, GET, { arguments: [[big]] });
    expect(fake.written).toEqual({
      stdout: `${pet(big)}\n`,
      stderr: `${JSON.stringify({ warning: GONE.slice('warning: '.length, -1), code: 'get_via_list' })}\n`,
    });
  });

  test.each([
    ['an Error naming a route', JSON.stringify(errorBody(404, 'not_found', 'no route /pets/5')), 'application/json'],
    ['no Error body', '<html>Not Found</html>', 'text/html'],
  ])('a 404 of getPet that the 404 rule reads as a route (%s): found through listPets', async (_, body, type) => {
    const fake = threePages(page(5), { env: SILENCED });
    fake.answer('GET', '/v1/pets/5', 404, body, { 'content-type': type });
    await runCommand(fake.f, GET, { arguments: [['5']] });
    expect(fake.written).toEqual({ stdout: '5\tp5\t1\tavailable\n', stderr: wrapped(GONE) });
  });

  test('a 404 that names the animal is still a missing pet: exit 3, listPets not asked', async () => {
    const fake = fakeClientFactory({ env: SILENCED });
    fake.answer('GET', '/v1/pets/5', 404, JSON.stringify(errorBody(404, 'not_found', 'no animal with id 5')));
    expect(await fake.main(['get', '5'])).toEqual({
      code: 3,
      stdout: '',
      stderr: wrapped('error: no animal with id 5 (HTTP 404, code not_found)\n'),
      unmatched: [],
    });
    expect(paths(fake)).toEqual(['/v1/pets/5']);
  });

  test('a pet on no page: exit 3, naming how much was read; with --json the error object', async () => {
    const fake = threePages(page(5), { env: SILENCED });
    fake.answer('GET', '/v1/pets/99', 410, gone);
    expect(await fake.main(['get', '99'])).toEqual({
      code: 3,
      stdout: '',
      stderr: wrapped(`${GONE}error: no animal with id 99: none on the 3 pages of listPets (5 pets)\n`),
      unmatched: [],
    });
    answerThreePages(fake, page(5));
    fake.answer('GET', '/v1/pets/99', 410, gone);
    const j = await fake.main(['get', '99', '--json']);
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
    const fake = fakeClientFactory({ env: SILENCED });
    fake.answer('GET', '/v1/pets/5', 404, JSON.stringify(errorBody(404, 'not_found', 'no route /pets/5')));
    fake.answer('GET', '/v1/pets?limit=100', 404, JSON.stringify(errorBody(404, 'not_found', 'no route /pets')));
    expect(await fake.main(['get', '5'])).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped(`error: the service has no /v1/pets: HTTP 404 (no route /pets); the base URL may be wrong\n${ROUTE_HINT}`),
      unmatched: [],
    });
  });

  test('PETSTORE_GET_VIA_LIST=1: getPet is never asked; the lookup through listPets says so', async () => {
    const fake = threePages(page(5), { env: { PETSTORE_GET_VIA_LIST: '1' }, output: { format: 'kv' } });
    await runCommand(fake.f, GET, { arguments: [['5']] });
    expect(fake.written).toEqual({ stdout: 'id\t5\nname\tp5\ncategoryId\t1\nstatus\tavailable\n', stderr: wrapped(FORCED) });
    expect(paths(fake)).toEqual(LISTED);
  });
});

describe('get through listPets reads the whole store when it must (issue 29)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const VIA_LIST = { PETSTORE_GET_VIA_LIST: '1' };
  const cursorOf = (id: number) => Buffer.from(String(id)).toString('base64url');

  test('stops at the first page that holds the id: pages of 100, no page after it asked', async () => {
    const fake = fakeClientFactory({ env: VIA_LIST, globals: { json: true } });
    serveStore(fake, { seed: 1000 });
    await runCommand(fake.f, GET, { arguments: [['150']] });
    expect(fake.written).toEqual({
      stdout: '{"id":150,"name":"pet-150","categoryId":3,"status":"sold"}\n',
      stderr: `${JSON.stringify({ warning: FORCED.slice(9, -1), code: 'get_via_list' })}\n`,
    });
    expect(paths(fake)).toEqual(['/v1/pets?limit=100', `/v1/pets?limit=100&cursor=${cursorOf(100)}`]);
  });

  test('no page cap: the last of 1,050 pets in pages of 1 is found; a missing id reads every page and exits 3', async () => {
    const fake = fakeClientFactory({ env: VIA_LIST, output: { format: 'tsv' } });
    serveStore(fake, { seed: 1050, pageSize: 1 });
    await runCommand(fake.f, GET, { arguments: [['1050']] });
    expect(fake.written).toEqual({ stdout: '1050\tpet-1050\t7\tsold\n', stderr: wrapped(FORCED) });
    expect(fake.requests).toHaveLength(1050);
    const missing = await fake.main(['get', '1051']);
    expect(missing).toMatchObject({
      code: 3,
      stdout: '',
      stderr: wrapped(`${FORCED}error: no animal with id 1051: none on the 1050 pages of listPets (1050 pets)\n`),
    });
    expect(fake.requests).toHaveLength(2 * 1050);
  });

  test('a page that fails partway: exit 1, naming the page and its link', async () => {
    const fake = fakeClientFactory({ env: VIA_LIST });
    serveStore(fake, { seed: 300, faults: pageFault(2, { status: 500, json: { code: 'internal', message: 'broke', status: 500 } }) });
    expect(await fake.main(['get', '299'])).toMatchObject({
      code: 1,
      stdout: '',
      stderr: wrapped(
        `${FORCED}error: the listing stopped at page 2: broke (HTTP 500, code internal)\nthe rest of the listing starts at the page that failed: ${FAKE_ORIGIN}/v1/pets?limit=100&cursor=${cursorOf(100)}\n`,
      ),
    });
  });

  test('at a terminal, a lookup that takes longer than 2 seconds shows its progress on the status line, cleared at the end', async () => {
    // The clock moves 2 seconds while page 3 is asked for: the lookup has read two pages of one pet when its progress shows.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const fake = fakeClientFactory({ env: VIA_LIST });
    serveStore(fake, {
      seed: 5,
      pageSize: 1,
      faults: (request) => {
        if (listPageOf(request, { pageSize: 1 }) === 3) vi.advanceTimersByTime(2_000);
        return undefined;
      },
    });
    const r = await fake.main(['get', '5', '--format', 'tsv'], { stdoutIsTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('pet-5');
    expect(r.stderr).toContain('\r\u001b[Klooking for pet 5 through listPets: page 3, 2 pets read');
    expect(r.stderr.endsWith('\r\u001b[K')).toBe(true);
  });
});

describe('get through listPets against the sandbox store', () => {
  const getPetAnswers = (status: number, json: unknown) => (request: { url: string }) =>
    /^\/v1\/pets\/\d+/.test(request.url) ? { status, json } : undefined;

  test.each([
    ['410', getPetAnswers(410, { code: 'gone', message: 'removed', status: 410 })],
    ['a route 404', getPetAnswers(404, { code: 'not_found', message: 'no route', status: 404 })],
  ])('getPet answers %s: the pet on page 3 of 2 pets each, found; a missing one exit 3', async (_, faults) => {
    const fake = fakeClientFactory({ env: SILENCED });
    serveStore(fake, { pageSize: 2, faults });
    const found = await fake.main(['get', '4', '--format', 'json']);
    expect(found).toMatchObject({ code: 0, stderr: wrapped(GONE) });
    expect(JSON.parse(found.stdout)).toMatchObject({ id: 4 });
    const urls = paths(fake);
    expect(urls[0]).toBe('/v1/pets/4');
    expect(urls.slice(1).every((url) => url.startsWith('/v1/pets?'))).toBe(true);
    expect(urls.length).toBeGreaterThanOrEqual(3);
    const missing = await fake.main(['get', '99']);
    expect(missing.code).toBe(3);
    expect(missing.stdout).toBe('');
    expect(unwrapped(missing.stderr)).toMatch(
      /^warning: getPet is gone from the service[^\n]*\nerror: no animal with id 99: none on the \d+ pages of listPets \(4 pets\)\n$/,
    );
  });
});
