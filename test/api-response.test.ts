// petstore api: what the user sees of the answer. The body (JSON exact, other
// text as received), --include, --paginate, --jq, and for an answer outside
// 2xx the body on stderr and the exit code of its status. api's run through the fake client; its error lines are main's
// (test/error-report.test.ts), here the error it throws.
import { describe, expect, test } from 'vitest';
import { API } from '../src/commands/api/run.js';
import { runCommand } from '../src/commands/runner.js';
import type { CliError } from '../src/errors.js';
import { FAKE_ORIGIN, type FakeClientOptions, fakeClientFactory, thrownBy } from './support/fake-client.js';

const BASE = FAKE_ORIGIN;
const ERROR_404 = '{"code":"not_found","message":"no route GET /v1/store/orders","status":404}';
const KEY_HINT = 'The key came from PETSTORE_API_KEY: check it, or unset it and log in:\n  petstore auth login';

type Fake = ReturnType<typeof fakeClientFactory>;

/** `petstore api <path>` with `flags` (as commander gives them) on `fake`: what it wrote and what it threw. */
async function api(fake: Fake, path: string, flags: Record<string, unknown> = {}) {
  const error = (await thrownBy(runCommand(fake.f, API, { arguments: [path], flags }))) as CliError | undefined;
  return { ...fake.written, error };
}

/** A fake client whose service answers `method path` once with `status`, `body` and `headers` (JSON unless given). */
function answered(
  method: string,
  path: string,
  status: number,
  body: string,
  headers: Record<string, string | string[]> = {},
  options: FakeClientOptions = {},
): Fake {
  const fake = fakeClientFactory(options);
  fake.answer(method, path, status, body, headers);
  return fake;
}

/** `-F key=value`, as api's declaration collects it (test/api-request.test.ts parses it). */
const typed = (...texts: string[]) => texts.map((text) => ({ flag: '--field', text }));

describe('exit codes and the error body on stderr', () => {
  test.each([
    [404, 3, ERROR_404, 'no route GET /v1/store/orders (HTTP 404, code not_found)', undefined],
    [401, 4, '{"code":"unauthorized","message":"bad key","status":401}', 'bad key (HTTP 401, code unauthorized)', KEY_HINT],
    [400, 2, '{"code":"invalid","message":"no such field","status":400}', 'no such field (HTTP 400, code invalid)', undefined],
    [409, 1, '{"code":"conflict","message":"already paid","status":409}', 'already paid (HTTP 409, code conflict)', undefined],
  ])('HTTP %i exits %i; the Error body is printed on stderr as one line', async (status, exitCode, body, message, hint) => {
    const r = await api(answered('GET', '/v1/store/orders', status, body), '/store/orders');
    expect(r).toMatchObject({ stdout: '', stderr: `${body}\n`, error: { exitCode, message, hint } });
  });

  // How main reports it: the error line and the body on stderr without the escape sequence, --json's object with it escaped.
  test('a 500 with an HTML body (GET retried, then given up): the text on stderr, exit 1; with --json one error object, the text in its body', async () => {
    const fake = fakeClientFactory();
    for (const _ of [1, 2, 3, 4]) fake.answer('GET', '/v1/store/orders', 503, '<h1>down\u001b[2J</h1>', { 'content-type': 'text/html' });
    expect(await fake.main(['api', '/store/orders', '--retries', '1'])).toEqual({
      code: 1,
      stdout: '',
      stderr: '<h1>down</h1>\nerror: the service answered HTTP 503 (text/html): "<h1>down</h1>"\n',
      unmatched: [],
    });
    const json = await fake.main(['api', '/store/orders', '--retries', '1', '--json']);
    expect(json.stderr).toBe(
      '{"code":"http_503","message":"\\"<h1>down\\u001b[2J</h1>\\"","status":503,"body":"<h1>down\\u001b[2J</h1>"}\n',
    );
    expect(fake.requests).toHaveLength(4);
  });

  test("every 404 exits 3, also one whose body is not an Error (a proxy's page, an empty body): the base URL named as a hint", async () => {
    const hint = `Check the base URL ${BASE}/v1/ (from PETSTORE_BASE_URL): the interface's paths are under its /v1, as in https://petstore.example.com/v1`;
    const page = answered('GET', '/v1/store/orders', 404, '<h1>Not Found</h1>', { 'content-type': 'text/html' });
    expect(await api(page, '/store/orders')).toMatchObject({
      stdout: '',
      stderr: '<h1>Not Found</h1>\n',
      error: { exitCode: 3, message: 'the service answered HTTP 404 (text/html): "<h1>Not Found</h1>"', hint },
    });
    const empty = answered('GET', '/v1/store/orders', 404, '', {}, { globals: { json: true } });
    const r = await api(empty, '/store/orders');
    expect(r).toMatchObject({ stdout: '', stderr: '', error: { exitCode: 3 } });
    expect(r.error!.report()).toEqual({ code: 'http_404', message: '(empty body)', status: 404, hint });
  });

  test('with --json an Error body is inside the one error object on stderr, not printed twice', async () => {
    const fake = answered('GET', '/v1/store/orders', 404, '{"code":"not_found","message":"no route","status":404,"id":9007199254740993}');
    expect(await fake.main(['api', '/store/orders', '--json'])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        '{"code":"not_found","message":"no route","status":404,"body":{"code":"not_found","message":"no route","status":404,"id":9007199254740993}}\n',
      unmatched: [],
    });
  });

  test('a GET is retried on 503; a POST is not (it may have reached the service)', async () => {
    const get = fakeClientFactory({ globals: { retries: 2 } });
    get.answer('GET', '/v1/store/orders', 503, '');
    get.answer('GET', '/v1/store/orders', 200, '[]');
    expect(await api(get, '/store/orders')).toMatchObject({ stdout: '[]\n', error: undefined });
    const post = answered(
      'POST',
      '/v1/store/orders',
      503,
      '{"code":"busy","message":"try later","status":503}',
      {},
      { globals: { retries: 2 } },
    );
    expect(await api(post, '/store/orders', { rawField: [{ flag: '--raw-field', text: 'a=b' }] })).toMatchObject({
      stdout: '',
      stderr: '{"code":"busy","message":"try later","status":503}\n',
      error: { exitCode: 1, message: 'try later (HTTP 503, code busy)', hint: undefined },
    });
    expect(post.requests).toHaveLength(1);
  });

  test('a redirect is not followed: exit 1 naming the Location', async () => {
    const r = await api(answered('GET', '/v1/store', 302, '', { location: 'https://elsewhere.example/' }), '/store');
    expect(r).toMatchObject({
      stdout: '',
      stderr: '',
      error: {
        exitCode: 1,
        message: 'the service answered HTTP 302 redirecting to https://elsewhere.example/; redirects are not followed',
      },
    });
  });
});

describe('the body', () => {
  test('text that is not JSON is printed as received when piped, without escape sequences on a terminal', async () => {
    const text = 'id,name\n1,\u001b[31mRex\n';
    const csv = { 'content-type': 'text/csv' };
    expect(await api(answered('GET', '/v1/store/export', 200, text, csv), '/store/export')).toMatchObject({
      stdout: text,
      stderr: '',
      error: undefined,
    });
    const tty = answered('GET', '/v1/store/export', 200, text, csv, { tty: true });
    expect((await api(tty, '/store/export')).stdout).toBe('id,name\n1,Rex\n');
  });

  test('JSON keeps its numbers exactly; malformed JSON is printed as received', async () => {
    const exact = answered('GET', '/v1/a', 200, '{ "id": 9007199254740993, "price": 1.50, "x": 1e400 }');
    expect((await api(exact, '/a')).stdout).toBe('{"id":9007199254740993,"price":1.50,"x":1e400}\n');
    expect((await api(answered('GET', '/v1/b', 200, '{"id": 1,'), '/b')).stdout).toBe('{"id": 1,');
  });

  test('--include prints the status line and headers first, on stdout, also for an error and for HEAD', async () => {
    const ok = answered('GET', '/v1/store/orders', 200, '[]', { 'x-rate': ['1', '2'] });
    expect((await api(ok, '/store/orders', { include: true })).stdout).toBe(
      'HTTP/1.1 200 OK\ncontent-type: application/json\nx-rate: 1\nx-rate: 2\n\n[]\n',
    );
    const missing = await api(answered('GET', '/v1/store/orders', 404, ERROR_404), '/store/orders', { include: true });
    expect(missing).toMatchObject({
      stdout: 'HTTP/1.1 404 Not Found\ncontent-type: application/json\n\n',
      stderr: expect.stringMatching(/^\{"code":"not_found"/),
      error: { exitCode: 3 },
    });
    const head = fakeClientFactory();
    head.service.intercept({ method: 'HEAD', path: '/v1/store/orders' }).reply(200, '', { headers: { 'x-count': '7' } });
    expect((await api(head, '/store/orders', { method: 'HEAD', include: true })).stdout).toBe('HTTP/1.1 200 OK\nx-count: 7\n\n');
  });

  test('--jq: strings raw, numbers exact; a body that is not JSON exits 1', async () => {
    const orders = answered(
      'GET',
      '/v1/store/orders',
      200,
      '[{"id":9007199254740993,"note":"gift"}]',
      {},
      {
        output: { jq: '.[0].id, .[0].note' },
      },
    );
    expect(await api(orders, '/store/orders')).toEqual({ stdout: '9007199254740993\ngift\n', stderr: '', error: undefined });
    const csv = answered('GET', '/v1/store/export', 200, 'id,name\n', { 'content-type': 'text/csv' }, { output: { jq: '.' } });
    expect(await api(csv, '/store/export')).toMatchObject({
      stdout: '',
      stderr: '',
      error: { exitCode: 1, message: '--jq needs a JSON body; the service answered HTTP 200 (text/csv): "id,name"', hint: undefined },
    });
  });
});

describe('--paginate', () => {
  const FIRST_LINK = '</v1/store/orders?limit=2&page=2>; rel="next", </v1/store/orders?limit=2>; rel="first"';

  function pages(first: unknown, second: unknown, options: FakeClientOptions = {}): Fake {
    const fake = fakeClientFactory(options);
    fake.answer('GET', '/v1/store/orders?limit=2', 200, JSON.stringify(first), { link: FIRST_LINK });
    fake.answer('GET', '/v1/store/orders?limit=2&page=2', 200, JSON.stringify(second));
    return fake;
  }

  test('follows rel="next"; JSON array pages become one array; --jq sees that array; -i prints each page\'s head', async () => {
    const merged = pages([{ id: 1 }, { id: 2 }], [{ id: 3 }]);
    expect((await api(merged, '/store/orders', { field: typed('limit=2'), method: 'GET', paginate: true })).stdout).toBe(
      '[{"id":1},{"id":2},{"id":3}]\n',
    );
    const jq = pages([{ id: 1 }, { id: 2 }], [{ id: 3 }], { output: { jq: 'length' } });
    expect((await api(jq, '/store/orders?limit=2', { paginate: true })).stdout).toBe('3\n');
    const heads = await api(pages([{ id: 1 }], []), '/store/orders?limit=2', { paginate: true, include: true });
    expect(heads.stdout).toBe(
      `HTTP/1.1 200 OK\ncontent-type: application/json\nlink: ${FIRST_LINK}\n\n` +
        '[{"id":1}]\nHTTP/1.1 200 OK\ncontent-type: application/json\n\n[]\n',
    );
  });

  test('pages that are not all arrays print one JSON value a line; --jq runs on each', async () => {
    expect((await api(pages({ page: 1 }, [{ id: 3 }]), '/store/orders?limit=2', { paginate: true })).stdout).toBe(
      '{"page":1}\n[{"id":3}]\n',
    );
    const jq = pages({ page: 1 }, { page: 2 }, { output: { jq: '.page' } });
    expect((await api(jq, '/store/orders?limit=2', { paginate: true })).stdout).toBe('1\n2\n');
  });

  test('without --paginate only the first page is fetched', async () => {
    const fake = answered('GET', '/v1/store/orders', 200, '[1]', { link: '</v1/store/orders?page=2>; rel="next"' });
    expect(await api(fake, '/store/orders')).toEqual({ stdout: '[1]\n', stderr: '', error: undefined });
    expect(fake.requests).toHaveLength(1);
  });

  test('a next link to another origin, or back to a page already fetched, ends with exit 1, the pages read printed; a failing page too', async () => {
    const elsewhere = answered('GET', '/v1/o', 200, '[1]', { link: '<https://evil.example/v1/o?p=2>; rel="next"' });
    expect(await api(elsewhere, '/o', { paginate: true })).toMatchObject({
      stdout: '[1',
      stderr: '',
      error: {
        exitCode: 1,
        message: 'stopped at page 1, after 1 item on 1 page: refusing to follow the next page link to another origin: https://evil.example',
        hint: undefined,
      },
    });
    const again = answered('GET', '/v1/o', 200, '[1]', { link: '</v1/o>; rel="next"' });
    expect(await api(again, '/o', { paginate: true })).toMatchObject({
      error: { message: `stopped at page 1, after 1 item on 1 page: the next page link repeats a page already fetched (${BASE}/v1/o)` },
    });
    const failing = answered('GET', '/v1/o', 200, '[1]', { link: '</v1/o?p=2>; rel="next"' });
    failing.answer('GET', '/v1/o?p=2', 404, ERROR_404);
    expect(await api(failing, '/o', { paginate: true })).toMatchObject({
      stdout: '[1',
      stderr: `${ERROR_404}\n`,
      error: {
        exitCode: 3,
        message: 'the listing stopped at page 2, after 1 item on 1 page: no route GET /v1/store/orders (HTTP 404, code not_found)',
        hint: `the rest of the listing starts at the page that failed: ${BASE}/v1/o?p=2`,
      },
    });
  });

  /** A store of `count` items at /v1/pets, one a page, page n (cursor n) linking page n + 1 up to `count`, then empty pages forever. */
  function endless(fake: Fake, count: number, fault?: { page: number; status: number; body: string }) {
    // MockAgent matches a path with its query sorted.
    fake.service
      .intercept({ method: 'GET', path: (path) => path === '/v1/pets' || path.startsWith('/v1/pets?') })
      .reply(({ path }) => {
        const page = Number(/cursor=(\d+)/.exec(path)?.[1] ?? 1);
        const headers = { 'content-type': 'application/json', link: `</v1/pets?limit=1&cursor=${page + 1}>; rel="next"` };
        if (fault?.page === page) return { statusCode: fault.status, data: fault.body, responseOptions: { headers } };
        const items = page <= count ? [{ id: page, name: `pet-${page}`, categoryId: 1, status: 'available' }] : [];
        return { statusCode: 200, data: JSON.stringify(items), responseOptions: { headers } };
      })
      .persist();
  }

  test('no page cap; pages linked empty forever stop after 3 in a row, exit 1, what was read printed', async () => {
    const fake = fakeClientFactory();
    endless(fake, 1100);
    const r = await api(fake, '/pets', { paginate: true });
    expect(r.error).toMatchObject({ exitCode: 1 });
    expect(r.stdout.startsWith('[{"id":1,"name":"pet-1","categoryId":1,"status":"available"},{"id":2,')).toBe(true);
    expect(r.stdout.endsWith('{"id":1100,"name":"pet-1100","categoryId":1,"status":"available"}')).toBe(true);
    expect(JSON.parse(`${r.stdout}]`)).toHaveLength(1100);
    expect(r.error!.message).toMatch(
      /^stopped at page 1103, after 1100 items on 1103 pages: 3 pages in a row were empty yet linked a next page \(https:.+\)$/,
    );
    expect(fake.requests).toHaveLength(1103);
  });

  test('page 30 answers 500: pages 1-29 printed as they came, the array unclosed; exit 1; --json names "next"', async () => {
    const broke = { page: 30, status: 500, body: '{"code":"internal","message":"broke","status":500}' };
    const next = `${BASE}/v1/pets?limit=1&cursor=30`;
    const json = fakeClientFactory({ globals: { json: true } });
    endless(json, 40, broke);
    const r = await api(json, '/pets', { field: typed('limit=1'), method: 'GET', paginate: true });
    expect(r.error).toMatchObject({ exitCode: 1 });
    expect(JSON.parse(`${r.stdout}]`).map((p: { id: number }) => p.id)).toEqual(Array.from({ length: 29 }, (_, i) => i + 1));
    expect(r.stderr).toBe('');
    expect(r.error!.report()).toEqual({
      code: 'internal',
      message: 'broke',
      status: 500,
      hint: `the rest of the listing starts at the page that failed: ${next}`,
      body: { code: 'internal', message: 'broke', status: 500 },
      printed: 29,
      next,
    });
    const plain = fakeClientFactory();
    endless(plain, 40, broke);
    expect(await api(plain, '/pets?limit=1', { paginate: true })).toMatchObject({
      stderr: '{"code":"internal","message":"broke","status":500}\n',
      error: {
        message: 'the listing stopped at page 30, after 29 items on 29 pages: broke (HTTP 500, code internal)',
        hint: `the rest of the listing starts at the page that failed: ${next}`,
      },
    });
  });
});
