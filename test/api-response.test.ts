// petstore api: what the user sees of the answer. The body (JSON exact, other
// text as received), --include, --paginate, --jq, and for an answer outside
// 2xx the body on stderr and the exit code of its status.
import nock from 'nock';
import { pageFault, startPetService } from '../sandbox/pet-service.mjs';
import { describe, expect, test } from 'vitest';
import { BASE, run, serviceEnv, wrapped, unwrapped } from './helpers.js';

const JSON_TYPE = { 'content-type': 'application/json' };
const ERROR_404 = '{"code":"not_found","message":"no route GET /v1/store/orders","status":404}';

describe('exit codes and the error body on stderr', () => {
  test.each([
    [404, 3, ERROR_404, 'error: no route GET /v1/store/orders (HTTP 404, code not_found)\n'],
    [
      401,
      4,
      '{"code":"unauthorized","message":"bad key","status":401}',
      'error: bad key (HTTP 401, code unauthorized)\nThe key came from PETSTORE_API_KEY: check it, or unset it and log in:\n  petstore auth login\n',
    ],
    [400, 2, '{"code":"invalid","message":"no such field","status":400}', 'error: no such field (HTTP 400, code invalid)\n'],
    [409, 1, '{"code":"conflict","message":"already paid","status":409}', 'error: already paid (HTTP 409, code conflict)\n'],
  ])('HTTP %i exits %i; the Error body is printed on stderr as one line', async (status, code, body, message) => {
    nock(BASE).get('/v1/store/orders').reply(status, body, JSON_TYPE);
    const r = await run(['api', '/store/orders'], { env: serviceEnv() });
    expect(r).toEqual({ code, stdout: '', stderr: wrapped(`${body}\n${message}`), unmatched: [] });
  });

  test('a 500 with an HTML body (GET retried, then given up): the text on stderr, exit 1; with --json one error object, the text in its body', async () => {
    nock(BASE).get('/v1/store/orders').times(4).reply(503, '<h1>down\u001b[2J</h1>', { 'content-type': 'text/html' });
    const plain = await run(['api', '/store/orders', '--retries', '1'], { env: serviceEnv() });
    expect(plain).toEqual({
      code: 1,
      stdout: '',
      stderr: '<h1>down</h1>\nerror: the service answered HTTP 503 (text/html): "<h1>down</h1>"\n',
      unmatched: [],
    });
    const json = await run(['api', '/store/orders', '--retries', '1', '--json'], { env: serviceEnv() });
    expect(json.stderr).toBe(
      '{"code":"http_503","message":"\\"<h1>down\\u001b[2J</h1>\\"","status":503,"body":"<h1>down\\u001b[2J</h1>"}\n',
    );
  });

  test("every 404 exits 3, also one whose body is not an Error (a proxy's page, an empty body): the base URL named as a hint", async () => {
    const hint = `Check the base URL ${BASE}/v1/ (from PETSTORE_BASE_URL): the interface's paths are under its /v1, as in https://petstore.example.com/v1`;
    nock(BASE).get('/v1/store/orders').reply(404, '<h1>Not Found</h1>', { 'content-type': 'text/html' });
    expect(await run(['api', '/store/orders'], { env: serviceEnv() })).toEqual({
      code: 3,
      stdout: '',
      stderr: wrapped(`<h1>Not Found</h1>\nerror: the service answered HTTP 404 (text/html): "<h1>Not Found</h1>"\n${hint}\n`),
      unmatched: [],
    });
    nock(BASE).get('/v1/store/orders').reply(404, '');
    expect(await run(['api', '/store/orders', '--json'], { env: serviceEnv() })).toEqual({
      code: 3,
      stdout: '',
      stderr: `${JSON.stringify({ code: 'http_404', message: '(empty body)', status: 404, hint })}\n`,
      unmatched: [],
    });
  });

  test('with --json an Error body is inside the one error object on stderr, not printed twice', async () => {
    nock(BASE)
      .get('/v1/store/orders')
      .reply(404, '{"code":"not_found","message":"no route","status":404,"id":9007199254740993}', JSON_TYPE);
    expect(await run(['api', '/store/orders', '--json'], { env: serviceEnv() })).toEqual({
      code: 3,
      stdout: '',
      stderr:
        '{"code":"not_found","message":"no route","status":404,"body":{"code":"not_found","message":"no route","status":404,"id":9007199254740993}}\n',
      unmatched: [],
    });
  });

  test('a GET is retried on 503; a POST is not (it may have reached the service)', async () => {
    nock(BASE).get('/v1/store/orders').reply(503, '', JSON_TYPE).get('/v1/store/orders').reply(200, '[]', JSON_TYPE);
    expect(await run(['api', '/store/orders'], { env: serviceEnv() })).toMatchObject({ code: 0, stdout: '[]\n' });
    nock(BASE).post('/v1/store/orders').reply(503, '{"code":"busy","message":"try later","status":503}', JSON_TYPE);
    const post = await run(['api', '/store/orders', '-f', 'a=b'], { env: serviceEnv() });
    expect(post).toEqual({
      code: 1,
      stdout: '',
      stderr: '{"code":"busy","message":"try later","status":503}\nerror: try later (HTTP 503, code busy)\n',
      unmatched: [],
    });
  });

  test('a redirect is not followed: exit 1 naming the Location', async () => {
    nock(BASE).get('/v1/store').reply(302, '', { location: 'https://elsewhere.example/' });
    const r = await run(['api', '/store'], { env: serviceEnv() });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped('error: the service answered HTTP 302 redirecting to https://elsewhere.example/; redirects are not followed\n'),
      unmatched: [],
    });
  });
});

describe('the body', () => {
  test('text that is not JSON is printed as received when piped, without escape sequences on a terminal', async () => {
    const text = 'id,name\n1,\u001b[31mRex\n';
    nock(BASE).get('/v1/store/export').times(2).reply(200, text, { 'content-type': 'text/csv' });
    expect(await run(['api', '/store/export'], { env: serviceEnv() })).toMatchObject({ code: 0, stdout: text, stderr: '' });
    expect((await run(['api', '/store/export'], { env: serviceEnv(), stdoutIsTTY: true })).stdout).toBe('id,name\n1,Rex\n');
  });

  test('JSON keeps its numbers exactly; malformed JSON is printed as received', async () => {
    nock(BASE).get('/v1/a').reply(200, '{ "id": 9007199254740993, "price": 1.50, "x": 1e400 }', JSON_TYPE);
    nock(BASE).get('/v1/b').reply(200, '{"id": 1,', JSON_TYPE);
    expect((await run(['api', '/a'], { env: serviceEnv() })).stdout).toBe('{"id":9007199254740993,"price":1.50,"x":1e400}\n');
    expect((await run(['api', '/b'], { env: serviceEnv() })).stdout).toBe('{"id": 1,');
  });

  test('--include prints the status line and headers first, on stdout, also for an error and for HEAD', async () => {
    nock(BASE)
      .get('/v1/store/orders')
      .reply(200, '[]', { 'content-type': 'application/json', 'x-rate': ['1', '2'] });
    const ok = await run(['api', '/store/orders', '-i'], { env: serviceEnv() });
    expect(ok.stdout).toBe('HTTP/1.1 200 OK\ncontent-type: application/json\nx-rate: 1\nx-rate: 2\n\n[]\n');
    nock(BASE).get('/v1/store/orders').reply(404, ERROR_404, JSON_TYPE);
    const missing = await run(['api', '/store/orders', '--include'], { env: serviceEnv() });
    expect(missing).toMatchObject({
      code: 3,
      stdout: 'HTTP/1.1 404 Not Found\ncontent-type: application/json\n\n',
      stderr: expect.stringMatching(/^\{"code":"not_found"/),
    });
    nock(BASE).head('/v1/store/orders').reply(200, '', { 'x-count': '7' });
    expect((await run(['api', '/store/orders', '-X', 'HEAD', '-i'], { env: serviceEnv() })).stdout).toBe('HTTP/1.1 200 OK\nx-count: 7\n\n');
  });

  test('--jq: strings raw, numbers exact; a body that is not JSON exits 1', async () => {
    nock(BASE).get('/v1/store/orders').reply(200, '[{"id":9007199254740993,"note":"gift"}]', JSON_TYPE);
    const r = await run(['api', '/store/orders', '--jq', '.[0].id, .[0].note'], { env: serviceEnv() });
    expect(r).toEqual({ code: 0, stdout: '9007199254740993\ngift\n', stderr: '', unmatched: [] });
    nock(BASE).get('/v1/store/export').reply(200, 'id,name\n', { 'content-type': 'text/csv' });
    const text = await run(['api', '/store/export', '--jq', '.'], { env: serviceEnv() });
    expect(text).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped('error: --jq needs a JSON body; the service answered HTTP 200 (text/csv): "id,name"\n'),
      unmatched: [],
    });
  });
});

describe('--paginate', () => {
  function pages(first: unknown, second: unknown) {
    nock(BASE)
      .get('/v1/store/orders')
      .query({ limit: '2' })
      .reply(200, JSON.stringify(first), {
        ...JSON_TYPE,
        link: '</v1/store/orders?limit=2&page=2>; rel="next", </v1/store/orders?limit=2>; rel="first"',
      })
      .get('/v1/store/orders')
      .query({ limit: '2', page: '2' })
      .reply(200, JSON.stringify(second), JSON_TYPE);
  }

  test('follows rel="next"; JSON array pages become one array; --jq sees that array; -i prints each page\'s head', async () => {
    pages([{ id: 1 }, { id: 2 }], [{ id: 3 }]);
    expect((await run(['api', '/store/orders', '-F', 'limit=2', '-X', 'GET', '--paginate'], { env: serviceEnv() })).stdout).toBe(
      '[{"id":1},{"id":2},{"id":3}]\n',
    );
    pages([{ id: 1 }, { id: 2 }], [{ id: 3 }]);
    expect((await run(['api', '/store/orders?limit=2', '--paginate', '--jq', 'length'], { env: serviceEnv() })).stdout).toBe('3\n');
    pages([{ id: 1 }], []);
    const heads = await run(['api', '/store/orders?limit=2', '--paginate', '-i'], { env: serviceEnv() });
    expect(heads.stdout).toBe(
      'HTTP/1.1 200 OK\ncontent-type: application/json\nlink: </v1/store/orders?limit=2&page=2>; rel="next", </v1/store/orders?limit=2>; rel="first"\n\n' +
        '[{"id":1}]\nHTTP/1.1 200 OK\ncontent-type: application/json\n\n[]\n',
    );
  });

  test('pages that are not all arrays print one JSON value a line; --jq runs on each', async () => {
    pages({ page: 1 }, [{ id: 3 }]);
    expect((await run(['api', '/store/orders?limit=2', '--paginate'], { env: serviceEnv() })).stdout).toBe('{"page":1}\n[{"id":3}]\n');
    pages({ page: 1 }, { page: 2 });
    expect((await run(['api', '/store/orders?limit=2', '--paginate', '--jq', '.page'], { env: serviceEnv() })).stdout).toBe('1\n2\n');
  });

  test('without --paginate only the first page is fetched', async () => {
    nock(BASE)
      .get('/v1/store/orders')
      .reply(200, '[1]', { ...JSON_TYPE, link: '</v1/store/orders?page=2>; rel="next"' });
    expect(await run(['api', '/store/orders'], { env: serviceEnv() })).toEqual({ code: 0, stdout: '[1]\n', stderr: '', unmatched: [] });
  });

  test('a next link to another origin, or back to a page already fetched, ends with exit 1, the pages read printed; a failing page too', async () => {
    nock(BASE)
      .get('/v1/o')
      .reply(200, '[1]', { ...JSON_TYPE, link: '<https://evil.example/v1/o?p=2>; rel="next"' });
    expect(await run(['api', '/o', '--paginate'], { env: serviceEnv() })).toEqual({
      code: 1,
      stdout: '[1',
      stderr: wrapped('error: refusing to follow the next page link to another origin: https://evil.example\n'),
      unmatched: [],
    });
    nock(BASE)
      .get('/v1/o')
      .reply(200, '[1]', { ...JSON_TYPE, link: '</v1/o>; rel="next"' });
    expect((await run(['api', '/o', '--paginate'], { env: serviceEnv() })).stderr).toBe(
      wrapped(`error: stopped at page 1: the next page link repeats a page already fetched (${BASE}/v1/o)\n`),
    );
    nock(BASE)
      .get('/v1/o')
      .reply(200, '[1]', { ...JSON_TYPE, link: '</v1/o?p=2>; rel="next"' })
      .get('/v1/o?p=2')
      .reply(404, ERROR_404, JSON_TYPE);
    expect(await run(['api', '/o', '--paginate'], { env: serviceEnv() })).toMatchObject({
      code: 3,
      stdout: '[1',
      // The answer's body as sent, then the messages.
      stderr: `${ERROR_404}\n${wrapped(
        'error: the listing stopped at page 2, after 1 item on 1 page: no route GET /v1/store/orders (HTTP 404, code not_found)\n' +
          `the rest of the listing starts at the page that failed: ${BASE}/v1/o?p=2\n`,
      )}`,
    });
  });

  test('no page cap; pages linked empty forever stop after 3 in a row, exit 1, what was read printed', async () => {
    const service = await startPetService({ key: 'k', seed: 1100, pageSize: 1, links: 'endless' });
    try {
      const r = await run(['api', '/pets', '--paginate'], { env: { PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k' } });
      expect(r.code).toBe(1);
      expect(r.stdout.startsWith('[{"id":1,"name":"pet-1","categoryId":1,"status":"available"},{"id":2,')).toBe(true);
      expect(r.stdout.endsWith('{"id":1100,"name":"pet-1100","categoryId":1,"status":"pending"}')).toBe(true);
      expect(JSON.parse(`${r.stdout}]`)).toHaveLength(1100);
      expect(unwrapped(r.stderr)).toMatch(
        /^error: stopped at page 1103: 3 pages in a row were empty yet linked a next page \(http:.+\)\n$/,
      );
      expect(service.requests).toHaveLength(1103);
    } finally {
      await service.close();
    }
  });

  test('page 30 answers 500: pages 1-29 printed as they came, the array unclosed; exit 1; --json names "next"', async () => {
    const service = await startPetService({
      key: 'k',
      seed: 40,
      faults: pageFault(30, { status: 500, json: { code: 'internal', message: 'broke', status: 500 } }),
    });
    const env = { PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k' };
    const next = `${service.baseUrl}/pets?limit=1&cursor=${Buffer.from('29').toString('base64url')}`;
    try {
      const r = await run(['api', '/pets', '-F', 'limit=1', '-X', 'GET', '--paginate', '--json'], { env });
      expect(r.code).toBe(1);
      expect(JSON.parse(`${r.stdout}]`).map((p: { id: number }) => p.id)).toEqual(Array.from({ length: 29 }, (_, i) => i + 1));
      expect(JSON.parse(r.stderr)).toEqual({
        code: 'internal',
        message: 'broke',
        status: 500,
        hint: `the rest of the listing starts at the page that failed: ${next}`,
        body: { code: 'internal', message: 'broke', status: 500 },
        printed: 29,
        next,
      });
      const plain = await run(['api', '/pets?limit=1', '--paginate'], { env });
      expect(plain.stderr).toBe(
        wrapped(
          '{"code":"internal","message":"broke","status":500}\n' +
            'error: the listing stopped at page 30, after 29 items on 29 pages: broke (HTTP 500, code internal)\n' +
            `the rest of the listing starts at the page that failed: ${next}\n`,
        ),
      );
    } finally {
      await service.close();
    }
  });
});
