import nock from 'nock';
import { describe, expect, test } from 'vitest';
import { BASE, tempConfigHome, BASE_URL, errorBody, run, serviceEnv, wrapped, unwrapped } from './helpers.js';

const PETS = [
  { id: 1, name: 'Rex', categoryId: 2, status: 'available' },
  { id: 2, name: 'Tom', categoryId: 3, status: 'sold' },
];

describe('petstore list', () => {
  test('sends listPets with the default limit and the service headers, prints tab-separated rows when piped', async () => {
    const scope = nock(BASE, {
      reqheaders: {
        authorization: 'Bearer test-key',
        accept: 'application/json',
        'user-agent': 'petstore/1.2.3',
      },
    })
      .get('/v1/pets')
      .query({ limit: '20' })
      .reply(200, PETS);
    const r = await run(['list'], { env: serviceEnv() });
    expect(r).toEqual({ code: 0, stdout: '1\tRex\t2\tavailable\n2\tTom\t3\tsold\n', stderr: '', unmatched: [] });
    scope.done();
  });

  test('passes --status and --limit as query parameters', async () => {
    nock(BASE).get('/v1/pets').query({ limit: '5', status: 'available' }).reply(200, [PETS[0]]);
    const r = await run(['list', '--status', 'available', '--limit', '5'], { env: serviceEnv() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('1\tRex\t2\tavailable\n');
  });

  test.each([['1'], ['100']])('accepts the limit bound %s', async (limit) => {
    nock(BASE).get('/v1/pets').query({ limit }).reply(200, []);
    const r = await run(['list', '--limit', limit], { env: serviceEnv() });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  test('prints a table with a coloured status on a TTY', async () => {
    nock(BASE).get('/v1/pets').query(true).reply(200, PETS);
    const r = await run(['list'], { env: serviceEnv({ TERM: 'xterm' }), stdoutIsTTY: true });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toBe(
      '│ \u001b[1mID\u001b[22m │ \u001b[1mNAME\u001b[22m │ \u001b[1mCATEGORY ID\u001b[22m │ \u001b[1mSTATUS\u001b[22m    │',
    );
    expect(r.stdout).toContain('│ 1  │ Rex  │ 2           │ \u001b[32mavailable\u001b[39m │');
    expect(r.stdout).toContain('\u001b[31msold\u001b[39m');
  });

  test.each([
    ['NO_COLOR', ['list'], { NO_COLOR: '1' }],
    ['--no-color', ['list', '--no-color'], {}],
  ])('honours %s on a TTY', async (_name, argv, env) => {
    nock(BASE).get('/v1/pets').query(true).reply(200, PETS);
    const r = await run(argv, { env: serviceEnv(env), stdoutIsTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('│ 1  │ Rex  │ 2           │ available │');
    expect(r.stdout).not.toContain('\u001b[');
  });

  test('FORCE_COLOR colours even when piped to a TTY-less table', async () => {
    nock(BASE).get('/v1/pets').query(true).reply(200, PETS);
    const r = await run(['list'], { env: serviceEnv({ FORCE_COLOR: '1' }), stdoutIsTTY: true });
    expect(r.stdout).toContain('\u001b[32mavailable\u001b[39m');
  });

  test('--json prints exactly the service JSON: unknown fields kept, ids above 2^53 exact', async () => {
    const body = '[{"id":9007199254740993,"name":"Rex","categoryId":9223372036854775807,"status":"available","tags":["a"],"weight":1.5}]';
    nock(BASE).get('/v1/pets').query(true).reply(200, body, { 'content-type': 'application/json' });
    const r = await run(['list', '--json'], { env: serviceEnv() });
    expect(r).toEqual({ code: 0, stdout: `${body}\n`, stderr: '', unmatched: [] });
  });

  test('global flags work before the subcommand too', async () => {
    nock(BASE).get('/v1/pets').query({ limit: '20', status: 'sold' }).reply(200, [PETS[1]]);
    const r = await run(['--json', 'list', '--status', 'sold'], { env: serviceEnv() });
    expect(r.stdout).toBe('[{"id":2,"name":"Tom","categoryId":3,"status":"sold"}]\n');
  });

  test.each([
    ['0', 'must be a whole number from 1 to 100'],
    ['101', 'must be a whole number from 1 to 100, the most one page holds; --all lists every page'],
    ['abc', 'must be a whole number from 1 to 100'],
    ['1.5', 'must be a whole number from 1 to 100'],
    ['-1', 'must be a whole number from 1 to 100'],
  ])('rejects --limit %s with exit 2 and sends nothing', async (limit, why) => {
    const r = await run(['list', `--limit=${limit}`], { env: serviceEnv() });
    expect(r).toEqual({ code: 2, stdout: '', stderr: wrapped(`error: invalid value for --limit: "${limit}": ${why}\n`), unmatched: [] });
  });

  test('rejects an unknown --status with the allowed values, exit 2, nothing sent', async () => {
    const r = await run(['list', '--status', 'lost'], { env: serviceEnv() });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: wrapped('error: invalid value for --status: "lost": allowed values: available, pending, sold\n'),
      unmatched: [],
    });
  });

  test.each([[`${BASE_URL}`], [`${BASE_URL}/`]])('joins endpoint paths onto base URL %s', async (base) => {
    nock(BASE).get('/v1/pets').query(true).reply(200, []);
    const r = await run(['list', '--base-url', base], { env: { PETSTORE_API_KEY: 'k' } });
    expect(r.code).toBe(0);
  });

  test('a 401 for a stored key ends with the command that fixes it, naming the environment, and no word of PETSTORE_API_KEY', async () => {
    const home = tempConfigHome();
    const login = ['auth', 'login', '--env', 'staging', '--base-url', BASE_URL, '--with-token', '--skip-verify'];
    expect((await run(login, { configHome: home, stdin: 'stored-key' })).code).toBe(0);
    nock(BASE, { reqheaders: { authorization: 'Bearer stored-key' } })
      .get('/v1/pets')
      .query(true)
      .reply(401, errorBody(401, 'unauthorized', 'invalid API key'));
    expect(await run(['list', '--env', 'staging'], { configHome: home })).toEqual({
      code: 4,
      stdout: '',
      stderr: 'error: invalid API key (HTTP 401, code unauthorized)\nLog in again:\n  petstore auth login --env staging\n',
      unmatched: [],
    });
  });

  test('a 401 exits 4 with the service error and the command that fixes it; with --json only the JSON error, the fix its hint', async () => {
    nock(BASE)
      .get('/v1/pets')
      .query(true)
      .reply(401, errorBody(401, 'unauthorized', 'invalid API key'));
    const plain = await run(['list'], { env: serviceEnv() });
    expect(plain).toEqual({
      code: 4,
      stdout: '',
      stderr: wrapped(
        'error: invalid API key (HTTP 401, code unauthorized)\nThe key came from PETSTORE_API_KEY: check it, or unset it and log in:\n  petstore auth login\n',
      ),
      unmatched: [],
    });
    nock(BASE)
      .get('/v1/pets')
      .query(true)
      .reply(401, errorBody(401, 'unauthorized', 'invalid API key'));
    const json = await run(['list', '--json', '--env', 'staging'], { env: serviceEnv() });
    expect(json).toEqual({
      code: 4,
      stdout: '',
      stderr:
        '{"code":"unauthorized","message":"invalid API key","status":401,' +
        '"hint":"The key came from PETSTORE_API_KEY: check it, or unset it and log in:\\n  petstore auth login --env staging"}\n',
      unmatched: [],
    });
  });

  test('a 500 exits 1', async () => {
    nock(BASE)
      .get('/v1/pets')
      .query(true)
      .reply(500, errorBody(500, 'internal', 'boom'));
    const r = await run(['list'], { env: serviceEnv() });
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: 'error: boom (HTTP 500, code internal)\n' });
  });

  test('a response missing a required field exits 1 naming the field', async () => {
    nock(BASE)
      .get('/v1/pets')
      .query(true)
      .reply(200, [{ id: 1, categoryId: 2 }]);
    const r = await run(['list'], { env: serviceEnv() });
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'error: unexpected response (HTTP 200): pets[0].name: required field missing\n',
    });
  });
});

describe('settings and usage errors', () => {
  test('no base URL configured: exit 2 with the command that fixes it, nothing sent', async () => {
    const r = await run(['list'], { env: { PETSTORE_API_KEY: 'k' } });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: wrapped(
        'error: no base URL configured for environment "production"\n' +
          'Set one (or pass --base-url, or set PETSTORE_BASE_URL):\n  petstore config set base-url <url>\n',
      ),
      unmatched: [],
    });
  });

  test('no key: exit 4 with the command that fixes it, nothing sent', async () => {
    const r = await run(['list', '--env', 'staging'], { env: { PETSTORE_BASE_URL: BASE_URL } });
    expect(r).toEqual({
      code: 4,
      stdout: '',
      stderr: 'error: no API key for environment "staging"\nLog in (or set PETSTORE_API_KEY):\n  petstore auth login --env staging\n',
      unmatched: [],
    });
  });

  test('a plain http base URL to a non-loopback host is refused before any connection', async () => {
    const r = await run(['list', '--base-url', 'http://api.petstore.test/v1'], { env: { PETSTORE_API_KEY: 'k' } });
    expect(r.code).toBe(2);
    expect(unwrapped(r.stderr)).toContain('refusing plain http base URL http://api.petstore.test: the API key would be sent in plain text');
    expect(r.unmatched).toEqual([]);
  });

  test.each([
    [['lsit'], 'error: unknown command "lsit" for "petstore"; did you mean "list"?'],
    [['list', '--bogus'], 'error: unknown flag "--bogus" for "petstore list"'],
    [['get'], "error: missing required argument 'petId'"],
    [['add', '--name', 'Rex'], 'error: --category-id is required (or --file to add many)'],
    [['list', '--timeout', 'soon'], 'error: invalid value for --timeout: "soon": must be a whole number from 1 to 3600000'],
  ])('%j exits 2 with a usage error on stderr', async (argv, message) => {
    const r = await run(argv, { env: serviceEnv() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(unwrapped(r.stderr)).toContain(message);
  });

  test('--help prints usage and the exit codes on stdout, exit 0', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: petstore [options] [command]');
    expect(r.stdout).toContain(
      '4    authentication: no API key, the service answered 401, or the stored\n       key belongs to another origin',
    );
    expect(r.stderr).toBe('');
  });

  test('--version prints the version', async () => {
    expect(await run(['--version'])).toMatchObject({ code: 0, stdout: '1.2.3\n', stderr: '' });
  });
});

describe('exact output at any size', () => {
  test('--json prints every number exactly as the service wrote it, in known and unknown fields', async () => {
    const body =
      '[{"id":9007199254740993,"name":"Rex","categoryId":1,"weight":1.0,"score":1e2,"huge":1e400,"zero":-0,"big":123456789012345678901234567890,"nested":{"x":[0.5,-1.25E-3]}}]';
    nock(BASE).get('/v1/pets').query(true).twice().reply(200, body, { 'content-type': 'application/json' });
    expect((await run(['list', '--json'], { env: serviceEnv() })).stdout).toBe(`${body}\n`);
    const ndjson = await run(['list', '--format', 'ndjson'], { env: serviceEnv() });
    expect(ndjson.stdout).toBe(`${body.slice(1, -1)}\n`);
  });

  test('ids and category ids written 1.0, 1e2, -0 or 150e-1 are whole numbers: printed as written in every format', async () => {
    const body =
      '[{"id":1.0,"name":"A","categoryId":1e0},{"id":1e2,"name":"B","categoryId":-0},{"id":150e-1,"name":"C","categoryId":2.50E1}]';
    nock(BASE).get('/v1/pets').query(true).times(3).reply(200, body, { 'content-type': 'application/json' });
    expect(await run(['list', '--json'], { env: serviceEnv() })).toMatchObject({ code: 0, stdout: `${body}\n`, stderr: '' });
    expect((await run(['list', '--format', 'tsv'], { env: serviceEnv() })).stdout).toBe(
      '1.0\tA\t1e0\t-\n1e2\tB\t-0\t-\n150e-1\tC\t2.50E1\t-\n',
    );
    // jq's own canonical text for numbers it keeps (jq 1.8).
    expect((await run(['list', '--jq', '.[].id'], { env: serviceEnv() })).stdout).toBe('1.0\n1E+2\n15.0\n');
  });

  test.each([
    ['1.5', 'a fraction', 'must be an integer (int64)'],
    ['1e400', 'out of range', 'must be an integer (int64)'],
    ['9223372036854775808', 'above int64', 'must be at most 9223372036854775807'],
    ['9.223372036854775808e18', 'above int64, as an exponent', 'must be an integer (int64)'],
    ['"7"', 'a string', 'must be an integer (int64)'],
  ])('an id of %s (%s) is not an int64: exit 1, nothing on stdout', async (id, _, why) => {
    nock(BASE).get('/v1/pets').query(true).reply(200, `[{"id":${id},"name":"A","categoryId":1}]`, { 'content-type': 'application/json' });
    expect(await run(['list', '--json'], { env: serviceEnv() })).toEqual({
      code: 1,
      stdout: '',
      stderr: `{"code":"unexpected_response","message":"unexpected response (HTTP 200): pets[0].id: ${why}","status":200}\n`,
      unmatched: [],
    });
  });

  const many = 130_000;
  const bigPage = `[${Array.from({ length: many }, (_, i) => `{"id":${i + 1},"name":"pet-${i}","categoryId":${i % 7},"status":"available"}`).join(',')}]`;
  test.each([
    ['json', (out: string) => JSON.parse(out).length],
    ['ndjson', (out: string) => out.split('\n').length - 1],
    ['tsv', (out: string) => out.split('\n').length - 1],
    ['table', (out: string) => out.split('\n').length - 1 - 4],
    ['kv', (out: string) => out.split('\n\n').length],
  ])('a page of 130,000 pets prints whole as %s', async (format, count) => {
    nock(BASE).get('/v1/pets').query(true).reply(200, bigPage, { 'content-type': 'application/json' });
    const r = await run(['list', '--limit', '100', '--format', format], { env: serviceEnv() });
    expect(r.code).toBe(0);
    expect(count(r.stdout)).toBe(many);
  });
});
