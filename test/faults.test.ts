// Network faults and responses the interface does not promise, against a real
// loopback server: stdout, stderr, exit code and the requests the server saw.
import { describe, type TestContext, test } from 'vitest';
import { startPetService, type PetService, type Step } from '../sandbox/pet-service.mjs';
import { PET, run, wrapped, unwrapped } from './helpers.js';

// The tests of 'retries' run at once (describe.concurrent: the waits of Retry-After overlap the rest). Each test has its
// own servers, closed by its own onTestFinished, and asserts with its own expect, both from its context.

/** Starts a service with `options`, closed when the test of `onTestFinished` finishes. */
async function serve(options: Parameters<typeof startPetService>[0], onTestFinished: TestContext['onTestFinished']): Promise<PetService> {
  const server = await startPetService(options);
  onTestFinished(() => server.close());
  return server;
}

async function against(onTestFinished: TestContext['onTestFinished'], script: Step[], argv: string[], env: NodeJS.ProcessEnv = {}) {
  const server = await serve({ key: 'fault-key', faults: script }, onTestFinished);
  const result = await run(argv, {
    env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'fault-key', PETSTORE_NO_DEPRECATION_WARNING: '1', ...env },
    // No back-off jitter: retries go at once (tests about real waits use Retry-After, which is not jittered).
    random: () => 0,
  });
  return { ...result, requests: server.requests, host: server.host };
}

const ok = (json: unknown): Step => ({ status: 200, json });

/** The hint of a POST of `add` that got no answer. */
const MAYBE_CREATED =
  'The pet may have been created; petstore does not send it again. See whether a pet named "Rex" in category 1 is in the store before adding it again:\n  petstore list --all --format tsv';

describe.concurrent('retries', () => {
  test('a GET answered 503 then 200 is retried and succeeds', async ({ expect, onTestFinished }) => {
    const r = await against(onTestFinished, [{ status: 503, json: { code: 'busy', message: 'busy', status: 503 } }, ok([PET])], ['list']);
    expect(r).toMatchObject({ code: 0, stdout: '1\tRex\t2\tavailable\n', stderr: '' });
    expect(r.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['GET /v1/pets?limit=20', 'GET /v1/pets?limit=20']);
  });

  test.for([408, 429, 502, 504])('a GET answered %i is retried', async (status, { expect, onTestFinished }) => {
    const r = await against(onTestFinished, [{ status, body: '' }, ok([PET])], ['list']);
    expect(r.code).toBe(0);
    expect(r.requests).toHaveLength(2);
  });

  test('gives up after 3 attempts by default, reporting the last answer', async ({ expect, onTestFinished }) => {
    const r = await against(onTestFinished, [{ status: 503, json: { code: 'busy', message: 'come back later', status: 503 } }], ['list']);
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: 'error: come back later (HTTP 503, code busy)\n' });
    expect(r.requests).toHaveLength(3);
  });

  test('--retries 0 turns retrying off', async ({ expect, onTestFinished }) => {
    const r = await against(onTestFinished, [{ status: 503, body: '' }], ['list', '--retries', '0']);
    expect(r.code).toBe(1);
    expect(r.requests).toHaveLength(1);
  });

  test('a GET whose connection is reset is retried', async ({ expect, onTestFinished }) => {
    const r = await against(onTestFinished, [{ destroy: true }, ok([PET])], ['list']);
    expect(r.code).toBe(0);
    expect(r.requests).toHaveLength(2);
  });

  test('Retry-After in seconds is honoured', async ({ expect, onTestFinished }) => {
    const started = Date.now();
    const r = await against(onTestFinished, [{ status: 429, headers: { 'retry-after': '1' }, body: '' }, ok([PET])], ['list']);
    expect(r.code).toBe(0);
    expect(r.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  test('Retry-After as an HTTP-date is honoured', async ({ expect, onTestFinished }) => {
    const date = new Date(Date.now() + 2000).toUTCString();
    const started = Date.now();
    const r = await against(onTestFinished, [{ status: 503, headers: { 'retry-after': date }, body: '' }, ok([PET])], ['list']);
    expect(r.code).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  test('a Retry-After beyond 60 s is not waited for: exit 1 saying when to try again', async ({ expect, onTestFinished }) => {
    const r = await against(
      onTestFinished,
      [{ status: 429, headers: { 'retry-after': '3600' }, json: { code: 'rate_limited', message: 'slow down', status: 429 } }],
      ['list'],
    );
    expect(r.code).toBe(1);
    expect(r.requests).toHaveLength(1);
    expect(unwrapped(r.stderr)).toMatch(
      /^error: slow down \(HTTP 429, code rate_limited\)\nThe service asks to retry after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(longer than the 60 s petstore waits\); try again then\.\n$/,
    );
  });

  test('a POST answered 500 or 503 is sent exactly once', async ({ expect, onTestFinished }) => {
    for (const status of [500, 503]) {
      const r = await against(
        onTestFinished,
        [{ status, json: { code: 'oops', message: 'failed', status } }],
        ['add', '--name', 'Rex', '--category-id', '1'],
      );
      expect(r.code).toBe(1);
      expect(r.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
    }
  });

  test('a POST whose connection drops after sending is not retried, and the user is told it may have created the pet', async ({
    expect,
    onTestFinished,
  }) => {
    const r = await against(
      onTestFinished,
      [{ destroy: true }, { status: 201, json: PET }],
      ['add', '--name', 'Rex', '--category-id', '1'],
    );
    expect(r.code).toBe(1);
    expect(r.requests).toHaveLength(1);
    expect(unwrapped(r.stderr)).toMatch(
      /^error: the connection to 127\.0\.0\.1:\d+ closed before its answer came \((UND_ERR_SOCKET|ECONNRESET)\); the request may have reached it\n/,
    );
    const hint = [...wrapped(MAYBE_CREATED).split('\n'), ''];
    expect(r.stderr.split('\n').slice(-hint.length)).toEqual(hint);
  });

  test('a POST that times out may have created the pet: the message and the hint say so; a GET that times out says neither', async ({
    expect,
    onTestFinished,
  }) => {
    const r = await against(onTestFinished, [{ hang: true }], ['add', '--name', 'Rex', '--category-id', '1', '--timeout', '300']);
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: wrapped(
        `error: request to ${r.host} timed out after 300 ms (--timeout); the request may have reached it\n${MAYBE_CREATED}\n`,
      ),
    });
    expect(r.requests).toHaveLength(1);
  });

  test('with --json the same error is one object, the hint in its hint field', async ({ expect, onTestFinished }) => {
    const json = await against(
      onTestFinished,
      [{ hang: true }],
      ['add', '--name', 'Rex', '--category-id', '1', '--timeout', '300', '--json'],
    );
    expect(json).toMatchObject({ code: 1, stdout: '' });
    expect(JSON.parse(json.stderr)).toEqual({
      code: 'timeout',
      message: `request to ${json.host} timed out after 300 ms (--timeout); the request may have reached it`,
      status: null,
      hint: MAYBE_CREATED,
    });
  });

  test('a POST to a port nobody listens on fails after retrying the connection only', async ({ expect }) => {
    const r = await run(['add', '--name', 'Rex', '--category-id', '1', '--verbose'], {
      env: { PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1', PETSTORE_API_KEY: 'k' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('* retry 1 of 2');
    expect(r.stderr).toContain('error: cannot reach 127.0.0.1:9: ECONNREFUSED');
  });
});

describe('timeouts', () => {
  test('a server that never answers ends at --timeout with a message naming the host', async ({ expect, onTestFinished }) => {
    const r = await against(onTestFinished, [{ hang: true }], ['list', '--timeout', '300']);
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: `error: request to ${r.host} timed out after 300 ms (--timeout)\n` });
  });
});

describe('responses the interface does not promise', () => {
  test('an HTML 502 ends with exit 1, the status and a sanitised excerpt', async ({ expect, onTestFinished }) => {
    const html = '<html><body>\u001b[31m<h1>502 Bad Gateway</h1></body></html>';
    const r = await against(
      onTestFinished,
      [{ status: 502, headers: { 'content-type': 'text/html' }, body: html }],
      ['list', '--retries', '0'],
    );
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: wrapped('error: the service answered HTTP 502 (text/html): "<html><body><h1>502 Bad Gateway</h1></body></html>"\n'),
    });
  });

  test('malformed JSON ends with exit 1 and an excerpt', async ({ expect, onTestFinished }) => {
    const r = await against(
      onTestFinished,
      [{ status: 200, headers: { 'content-type': 'application/json' }, body: '[{"id": 1,' }],
      ['list'],
    );
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: 'error: unexpected response (HTTP 200): malformed JSON: "[{"id": 1,"\n' });
  });

  test('an empty body ends with exit 1', async ({ expect, onTestFinished }) => {
    const r = await against(onTestFinished, [{ status: 200, headers: { 'content-type': 'application/json' }, body: '' }], ['get', '1']);
    expect(r).toMatchObject({ code: 1, stderr: 'error: unexpected response (HTTP 200): malformed JSON: (empty body)\n' });
  });

  test('a wrong content type ends with exit 1', async ({ expect, onTestFinished }) => {
    const r = await against(onTestFinished, [{ status: 200, headers: { 'content-type': 'text/plain' }, body: 'all good' }], ['list']);
    expect(r).toMatchObject({
      code: 1,
      stderr: wrapped('error: unexpected response (HTTP 200): content type "text/plain", not JSON: "all good"\n'),
    });
  });

  test('a plain-text 401 still exits 4', async ({ expect, onTestFinished }) => {
    const r = await against(onTestFinished, [{ status: 401, headers: { 'content-type': 'text/plain' }, body: 'nope' }], ['list']);
    expect(r).toMatchObject({
      code: 4,
      stderr:
        'error: the service answered HTTP 401 (text/plain): "nope"\nThe key came from PETSTORE_API_KEY: check it, or unset it and log in:\n  petstore auth login\n',
    });
  });

  test('a body over 16 MiB is aborted', async ({ expect, onTestFinished }) => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const server = await serve({ key: 'k', faults: [{ stream: { chunk, times: 20 } }] }, onTestFinished);
    const r = await run(['list'], { env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' } });
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: `error: response from ${server.host} is larger than 16 MiB; aborted\n` });
  });

  test('unknown statuses and fields are shown and kept', async ({ expect, onTestFinished }) => {
    const body = [{ id: 1, name: 'Rex', categoryId: 2, status: 'adopted', tag: 'x' }];
    const table = await against(onTestFinished, [ok(body)], ['list']);
    expect(table.stdout).toBe('1\tRex\t2\tadopted\n');
    const json = await against(onTestFinished, [ok(body)], ['list', '--json']);
    expect(json.stdout).toBe(`${JSON.stringify(body)}\n`);
    const one = await against(onTestFinished, [ok(body[0])], ['get', '1', '--format', 'kv']);
    expect(one.stdout).toBe('id\t1\nname\tRex\ncategoryId\t2\nstatus\tadopted\ntag\tx\n');
  });

  test('a missing required field exits 1 naming it', async ({ expect, onTestFinished }) => {
    const r = await against(onTestFinished, [ok({ id: 1, name: 'Rex' })], ['get', '1']);
    expect(r).toMatchObject({ code: 1, stderr: 'error: unexpected response (HTTP 200): pet.categoryId: required field missing\n' });
  });

  test('a redirect to another host is not followed and is reported with its Location', async ({ expect, onTestFinished }) => {
    const r = await against(onTestFinished, [{ status: 302, headers: { location: 'https://evil.example/v1/pets' }, body: '' }], ['list']);
    expect(r).toMatchObject({
      code: 1,
      stderr: wrapped('error: the service answered HTTP 302 redirecting to https://evil.example/v1/pets; redirects are not followed\n'),
    });
    expect(r.requests).toHaveLength(1);
  });

  test('Deprecation and Sunset headers give one warning with the dates', async ({ expect, onTestFinished }) => {
    const r = await against(
      onTestFinished,
      [{ status: 200, headers: { deprecation: '@1924992000', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }, json: [PET] }],
      ['list'],
    );
    expect(r).toMatchObject({
      code: 0,
      stderr: wrapped('warning: the service says this endpoint is deprecated on 2031-01-01, to be removed on 2030-12-05\n'),
    });
  });
});

describe('terminal safety and secrets', () => {
  const hostile = 'R\u001b[31mex\u001b]0;pwned\u0007\u009b2J\u0007\u0000!';

  test('escape sequences and control characters are removed from tables, views and errors', async ({ expect, onTestFinished }) => {
    const pets = [{ id: 1, name: hostile, categoryId: 2, status: 'available' }];
    const table = await against(onTestFinished, [ok(pets)], ['list']);
    expect(table.stdout).toBe('1\tRex  !\t2\tavailable\n');
    const view = await against(onTestFinished, [ok(pets[0])], ['get', '1', '--format', 'kv']);
    expect(view.stdout).toContain('name\tRex  !\n');
    const error = await against(
      onTestFinished,
      [{ status: 404, json: { code: 'not_found', message: `no pet named ${hostile}`, status: 404 } }],
      ['get', '1'],
    );
    expect(error.stderr).toBe('error: no pet named Rex  ! (HTTP 404, code not_found)\n');
  });

  test('--json output escapes them instead', async ({ expect, onTestFinished }) => {
    const r = await against(onTestFinished, [ok([{ id: 1, name: hostile, categoryId: 2 }])], ['list', '--json']);
    expect(r.stdout).toBe('[{"id":1,"name":"R\\u001b[31mex\\u001b]0;pwned\\u0007\\u009b2J\\u0007\\u0000!","categoryId":2}]\n');
    expect(JSON.parse(r.stdout)[0].name).toBe(hostile);
  });

  test('the key never appears in output, --verbose logs or errors', async ({ expect, onTestFinished }) => {
    const r = await against(
      onTestFinished,
      [{ status: 401, json: { code: 'unauthorized', message: 'bad key', status: 401 } }],
      ['list', '--verbose'],
    );
    expect(r.code).toBe(4);
    expect(r.requests[0]!.headers.authorization).toBe('Bearer fault-key');
    expect(r.stderr).toContain('> authorization: Bearer [redacted]');
    expect(r.stdout + r.stderr).not.toContain('fault-key');
  });

  test('a key with a line break from PETSTORE_API_KEY is refused before any request', async ({ expect, onTestFinished }) => {
    const r = await against(onTestFinished, [ok([])], ['list'], { PETSTORE_API_KEY: 'abc\r\nX-Evil: 1' });
    expect(r).toMatchObject({
      code: 2,
      stderr: wrapped(
        'error: the API key from PETSTORE_API_KEY is not usable: it must be printable ASCII without spaces (the key is not shown)\n',
      ),
    });
    expect(r.requests).toHaveLength(0);
    expect(r.stderr).not.toContain('Evil');
  });
});
