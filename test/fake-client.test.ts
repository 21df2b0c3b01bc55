// A command's contract run by the runner (src/commands/runner.ts) through the
// Factory's client seam (test/support/fake-client.ts): the client sends
// through undici's MockAgent, with no main, no nock and no server. What the user sees (stdout, stderr, the
// error thrown, whose exit code main would use) and the requests that reached
// the fake service are checked, for a listing (list) and one item (get); and what the fake client itself promises (every request
// recorded, every answer used, main served by the same fake).
import { afterEach, describe, expect, test } from 'vitest';
import { STATUS } from '../src/commands/auth/status.js';
import { GET } from '../src/commands/get/run.js';
import { LIST } from '../src/commands/list/run.js';
import { runCommand } from '../src/commands/runner.js';
import { ExitCode, ListingCutError, ServiceError } from '../src/errors.js';
import { wrapped } from './helpers.js';
import { fakeClientFactory } from './support/fake-client.js';

const DEPRECATION =
  'warning: getPet is deprecated, removed 2030-12-05; get then reads listPets pages\nPETSTORE_NO_DEPRECATION_WARNING=1 silences this warning\n';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A fake-client Factory closed after the test, checking that every answer set up was asked for. */
function fake(options?: Parameters<typeof fakeClientFactory>[0]) {
  const made = fakeClientFactory(options);
  close = made.close;
  return made;
}

describe('list through the fake client', () => {
  test('fetches listPets with the query and key, prints the page piped, warns that a full page may not be all', async () => {
    const { f, written, requests, answer } = fake();
    answer(
      'GET',
      '/v1/pets?limit=2&status=available',
      200,
      '[{"id":1,"name":"Rex","categoryId":2,"status":"available"},{"id":9007199254740993,"name":"Tom","categoryId":3,"status":"available"}]',
    );
    await runCommand(f, LIST, { flags: { status: 'available', limit: '2' } });
    expect(written).toEqual({
      stdout: '1\tRex\t2\tavailable\n9007199254740993\tTom\t3\tavailable\n',
      stderr: wrapped('warning: showing 2 pets, as many as --limit 2 asks for; the service may have more: try --limit 100\n'),
    });
    expect(requests).toEqual([{ method: 'GET', path: '/v1/pets?limit=2&status=available', authorization: 'Bearer test-key' }]);
  });

  test('with --json, the page exactly as sent and no warning for a page that is not full', async () => {
    const { f, written, answer } = fake({ globals: { json: true } });
    answer('GET', '/v1/pets?limit=20', 200, '[{"id":1,"name":"Rex","categoryId":2}]');
    await runCommand(f, LIST);
    expect(written).toEqual({ stdout: '[{"id":1,"name":"Rex","categoryId":2}]\n', stderr: '' });
  });
});

describe('a listing cut partway, through the fake client', () => {
  test('list --all: the page printed stays printed; the error says after how many pets and where the rest starts', async () => {
    const { f, written, requests, answer, service } = fake();
    service.intercept({ method: 'GET', path: '/v1/pets?limit=100' }).reply(200, '[{"id":1,"name":"Rex","categoryId":2,"status":"sold"}]', {
      headers: { 'content-type': 'application/json', link: '</v1/pets?limit=100&cursor=b>; rel="next"' },
    });
    answer('GET', '/v1/pets?limit=100&cursor=b', 500, '{"code":"internal","message":"store offline","status":500}');
    const error = await runCommand(f, LIST, { flags: { all: true } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ListingCutError);
    expect(error).toMatchObject({
      exitCode: ExitCode.failure,
      printed: 1,
      message: 'the listing stopped at page 2, after 1 pet: store offline (HTTP 500, code internal)',
      next: 'https://petstore.example/v1/pets?limit=100&cursor=b',
    });
    expect(written).toEqual({ stdout: '1\tRex\t2\tsold\n', stderr: '' });
    expect(requests.map((r) => r.path)).toEqual(['/v1/pets?limit=100', '/v1/pets?limit=100&cursor=b']);
  });
});

describe('get through the fake client', () => {
  test('fetches getPet, prints the pet as a row piped, and the deprecation warning on stderr', async () => {
    const { f, written, requests, answer } = fake();
    answer('GET', '/v1/pets/42', 200, '{"id":42,"name":"Rex","categoryId":1,"status":"pending"}');
    await runCommand(f, GET, { arguments: ['42'] });
    expect(written).toEqual({ stdout: '42\tRex\t1\tpending\n', stderr: wrapped(DEPRECATION) });
    expect(requests).toEqual([{ method: 'GET', path: '/v1/pets/42', authorization: 'Bearer test-key' }]);
  });

  test("a 404 with the service's Error body throws what main reports with exit 3; nothing on stdout", async () => {
    const { f, written, answer } = fake({ env: { PETSTORE_NO_DEPRECATION_WARNING: '1' } });
    answer('GET', '/v1/pets/99', 404, '{"code":"not_found","message":"no animal with id 99","status":404}');
    const error = await runCommand(f, GET, { arguments: ['99'] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ exitCode: ExitCode.notFound, message: 'no animal with id 99 (HTTP 404, code not_found)' });
    expect(written).toEqual({ stdout: '', stderr: '' });
  });
});

describe('auth status through the fake client: a record printed, then the error of its exit code', () => {
  test('a key the service rejects: the status record on stdout, then a ServiceError that exits 4', async () => {
    const { f, written, requests, answer } = fake();
    answer('GET', '/v1/pets?limit=1', 401, '{"code":"unauthorized","message":"bad key","status":401}');
    const error = await runCommand(f, STATUS).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ exitCode: ExitCode.auth, message: 'the service rejected the key of production (HTTP 401)' });
    expect(written).toEqual({
      stdout:
        'Environment\tproduction\nEnvironment source\tdefault\nBase URL\thttps://petstore.example/v1/\nBase URL source\tPETSTORE_BASE_URL\n' +
        'API key\tset\nAPI key source\tPETSTORE_API_KEY\nAPI key origin\tany (PETSTORE_API_KEY)\nCheck\trejected (HTTP 401)\n',
      stderr: '',
    });
    expect(requests).toEqual([{ method: 'GET', path: '/v1/pets?limit=1', authorization: 'Bearer test-key' }]);
  });
});

describe('the fake client itself', () => {
  test('a request no answer matches reaches `requests` and fails the run; a retry is a request of its own', async () => {
    const { f, requests, answer } = fake({ globals: { retries: 1 } });
    answer('GET', '/v1/pets?limit=20', 503, '');
    const error = await runCommand(f, LIST).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ exitCode: ExitCode.failure, message: expect.stringContaining('UND_MOCK_ERR_MOCK_NOT_MATCHED') });
    expect(requests.map((r) => r.path)).toEqual(['/v1/pets?limit=20', '/v1/pets?limit=20']);
  });

  test('an answer never asked for fails the test at close', async () => {
    const made = fakeClientFactory();
    made.answer('GET', '/v1/pets/1', 200, '{}');
    await expect(made.close()).rejects.toThrow(/pending/i);
  });

  test('main runs with the same fake service, environment and config folder; its client closing leaves the service open', async () => {
    const { f, main, answer, sent } = fake();
    answer('GET', '/v1/pets?limit=20', 200, '[]');
    answer('GET', '/v1/pets?limit=20', 200, '[{"id":1,"name":"Rex","categoryId":2}]');
    expect(await main(['list'])).toEqual({ code: 0, stdout: '', stderr: '', unmatched: [] });
    expect(await main(['list', '--json'])).toEqual({
      code: 0,
      stdout: '[{"id":1,"name":"Rex","categoryId":2}]\n',
      stderr: '',
      unmatched: [],
    });
    expect(sent.map((q) => [q.origin, q.path, q.headers.authorization])).toEqual([
      ['https://petstore.example', '/v1/pets?limit=20', 'Bearer test-key'],
      ['https://petstore.example', '/v1/pets?limit=20', 'Bearer test-key'],
    ]);
    expect((await main(['config', 'path'])).stdout).toBe(`${f.env.XDG_CONFIG_HOME}/petstore/config.json\n`);
  });
});
