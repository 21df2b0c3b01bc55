// petstore list: listPets sent and its pets printed (the fake client), its flags (parseCommand), what the service's refusals and
// missing settings throw, and the program's own usage errors (main).
import { describe, expect, test } from 'vitest';
import { LOGIN } from '../src/commands/auth/login.js';
import { newListCommand } from '../src/commands/list/list.js';
import { LIST } from '../src/commands/list/run.js';
import { type Given, runCommand } from '../src/commands/runner.js';
import { errorBody, parseCommand, refusedBeforeRun, run, tempConfigHome, unwrapped } from './helpers.js';
import { FAKE_ORIGIN, type FakeClientOptions, fakeClientFactory, thrownBy } from './support/fake-client.js';

const PETS = [
  { id: 1, name: 'Rex', categoryId: 2, status: 'available' },
  { id: 2, name: 'Tom', categoryId: 3, status: 'sold' },
];
const BASE_URL = `${FAKE_ORIGIN}/v1`;

/** list run through the fake client with `given`, `path` answered `status` and `body`: what it wrote, what it threw, the fake. */
async function list(
  given: Given,
  { path = '/v1/pets?limit=20', status = 200, body, ...options }: FakeClientOptions & { path?: string; status?: number; body: unknown },
) {
  const fake = fakeClientFactory(options);
  fake.answer('GET', path, status, typeof body === 'string' ? body : JSON.stringify(body));
  const error = await thrownBy(runCommand(fake.f, LIST, given));
  return { ...fake.written, error, fake };
}

describe('petstore list', () => {
  test('sends listPets with the default limit and the service headers, prints tab-separated rows when piped', async () => {
    const r = await list({}, { body: PETS });
    expect(r).toMatchObject({ stdout: '1\tRex\t2\tavailable\n2\tTom\t3\tsold\n', stderr: '', error: undefined });
    expect(r.fake.sent).toEqual([
      {
        origin: FAKE_ORIGIN,
        method: 'GET',
        path: '/v1/pets?limit=20',
        headers: { authorization: 'Bearer test-key', accept: 'application/json', 'user-agent': 'petstore/1.2.3' },
        body: '',
      },
    ]);
  });

  test('passes --status and --limit as query parameters', async () => {
    const r = await list({ flags: { status: 'available', limit: '5' } }, { path: '/v1/pets?limit=5&status=available', body: [PETS[0]] });
    expect(r).toMatchObject({ stdout: '1\tRex\t2\tavailable\n', error: undefined });
  });

  test.each([['1'], ['100']])('accepts the limit bound %s', async (limit) => {
    const r = await list({ flags: { limit } }, { path: `/v1/pets?limit=${limit}`, body: [] });
    expect(r).toMatchObject({ stdout: '', stderr: '', error: undefined });
  });

  test('prints a table with a coloured status on a TTY', async () => {
    const r = await list({}, { body: PETS, env: { TERM: 'xterm' }, tty: true, globals: { color: true } });
    expect(r.error).toBeUndefined();
    const lines = r.stdout.split('\n');
    expect(lines[1]).toBe(
      '│ \u001b[1mID\u001b[22m │ \u001b[1mNAME\u001b[22m │ \u001b[1mCATEGORY ID\u001b[22m │ \u001b[1mSTATUS\u001b[22m    │',
    );
    expect(r.stdout).toContain('│ 1  │ Rex  │ 2           │ \u001b[32mavailable\u001b[39m │');
    expect(r.stdout).toContain('\u001b[31msold\u001b[39m');
  });

  // --no-color is color: false here; test/colour.test.ts runs the flag itself through main.
  test.each<[string, NodeJS.ProcessEnv, boolean]>([
    ['NO_COLOR', { NO_COLOR: '1' }, true],
    ['--no-color', {}, false],
  ])('honours %s on a TTY', async (_name, env, color) => {
    const r = await list({}, { body: PETS, env, tty: true, globals: { color } });
    expect(r.error).toBeUndefined();
    expect(r.stdout).toContain('│ 1  │ Rex  │ 2           │ available │');
    expect(r.stdout).not.toContain('\u001b[');
  });

  test('FORCE_COLOR colours even when piped to a TTY-less table', async () => {
    const r = await list({}, { body: PETS, env: { FORCE_COLOR: '1' }, tty: true, globals: { color: true } });
    expect(r.stdout).toContain('\u001b[32mavailable\u001b[39m');
  });

  test('--json prints exactly the service JSON: unknown fields kept, ids above 2^53 exact', async () => {
    const body = '[{"id":9007199254740993,"name":"Rex","categoryId":9223372036854775807,"status":"available","tags":["a"],"weight":1.5}]';
    expect(await list({}, { body, globals: { json: true } })).toMatchObject({ stdout: `${body}\n`, stderr: '', error: undefined });
  });

  test('global flags work before the subcommand too', async () => {
    expect((await parseCommand(newListCommand, ['--json', 'list', '--status', 'sold'])).reached).toEqual([
      { options: { query: { limit: 20, status: 'sold' }, all: false }, output: { format: 'json' } },
    ]);
  });

  test.each([
    ['0', 'must be a whole number from 1 to 100'],
    ['101', 'must be a whole number from 1 to 100, the most one page holds; --all lists every page'],
    ['abc', 'must be a whole number from 1 to 100'],
    ['1.5', 'must be a whole number from 1 to 100'],
    ['-1', 'must be a whole number from 1 to 100'],
  ])('rejects --limit %s with exit 2 and sends nothing', async (limit, why) => {
    expect(await parseCommand(newListCommand, ['list', `--limit=${limit}`])).toEqual(
      refusedBeforeRun(`invalid value for --limit: "${limit}": ${why}`),
    );
  });

  test('rejects an unknown --status with the allowed values, exit 2, nothing sent', async () => {
    expect(await parseCommand(newListCommand, ['list', '--status', 'lost'])).toEqual(
      refusedBeforeRun('invalid value for --status: "lost": allowed values: available, pending, sold'),
    );
  });

  test.each([[`${BASE_URL}`], [`${BASE_URL}/`]])('joins endpoint paths onto base URL %s', async (baseUrl) => {
    const r = await list({}, { body: [], globals: { baseUrl }, env: { PETSTORE_BASE_URL: undefined, PETSTORE_API_KEY: 'k' } });
    expect(r.error).toBeUndefined();
    expect(r.fake.requests).toEqual([{ method: 'GET', path: '/v1/pets?limit=20', authorization: 'Bearer k' }]);
  });

  test('a 401 for a stored key ends with the command that fixes it, naming the environment, and no word of PETSTORE_API_KEY', async () => {
    const env = { XDG_CONFIG_HOME: tempConfigHome(), PETSTORE_BASE_URL: undefined, PETSTORE_API_KEY: undefined };
    const login = fakeClientFactory({ env, globals: { env: 'staging', baseUrl: BASE_URL }, stdin: 'stored-key' });
    await runCommand(login.f, LOGIN, { flags: { withToken: true, skipVerify: true } });
    const r = await list({}, { body: errorBody(401, 'unauthorized', 'invalid API key'), status: 401, env, globals: { env: 'staging' } });
    expect(r).toMatchObject({
      stdout: '',
      stderr: '',
      error: {
        exitCode: 4,
        message: 'invalid API key (HTTP 401, code unauthorized)',
        hint: 'Log in again:\n  petstore auth login --env staging',
      },
    });
    expect(r.fake.requests.map((q) => q.authorization)).toEqual(['Bearer stored-key']);
  });

  test('a 401 exits 4 with the service error and the command that fixes it; with --json only the JSON error, the fix its hint', async () => {
    const body = errorBody(401, 'unauthorized', 'invalid API key');
    expect(await list({}, { body, status: 401 })).toMatchObject({
      stdout: '',
      stderr: '',
      error: {
        exitCode: 4,
        message: 'invalid API key (HTTP 401, code unauthorized)',
        hint: 'The key came from PETSTORE_API_KEY: check it, or unset it and log in:\n  petstore auth login',
      },
    });
    const json = await list({}, { body, status: 401, globals: { json: true, env: 'staging' } });
    expect(json).toMatchObject({ stdout: '', stderr: '', error: { exitCode: 4 } });
    expect((json.error as { report(): unknown }).report()).toEqual({
      code: 'unauthorized',
      message: 'invalid API key',
      status: 401,
      hint: 'The key came from PETSTORE_API_KEY: check it, or unset it and log in:\n  petstore auth login --env staging',
    });
  });

  test('a 500 exits 1', async () => {
    expect(await list({}, { body: errorBody(500, 'internal', 'boom'), status: 500 })).toMatchObject({
      stdout: '',
      stderr: '',
      error: { exitCode: 1, message: 'boom (HTTP 500, code internal)', hint: undefined },
    });
  });

  test('a response missing a required field exits 1 naming the field', async () => {
    expect(await list({}, { body: [{ id: 1, categoryId: 2 }] })).toMatchObject({
      stdout: '',
      stderr: '',
      error: { exitCode: 1, message: 'unexpected response (HTTP 200): pets[0].name: required field missing', hint: undefined },
    });
  });
});

describe('settings and usage errors', () => {
  /** list's run with `env` and `globals`, and no answer set up: what it threw, and the requests it sent. */
  async function unsent(options: FakeClientOptions) {
    const fake = fakeClientFactory(options);
    const error = await thrownBy(runCommand(fake.f, LIST));
    return { error, requests: fake.requests, written: fake.written };
  }

  test('no base URL configured: exit 2 with the command that fixes it, nothing sent', async () => {
    expect(await unsent({ env: { PETSTORE_BASE_URL: undefined, PETSTORE_API_KEY: 'k' } })).toEqual({
      error: expect.objectContaining({
        exitCode: 2,
        message: 'no base URL configured for environment "production"',
        hint: 'Set one (or pass --base-url, or set PETSTORE_BASE_URL):\n  petstore config set base-url <url>',
      }),
      requests: [],
      written: { stdout: '', stderr: '' },
    });
  });

  test('no key: exit 4 with the command that fixes it, nothing sent', async () => {
    expect(await unsent({ env: { PETSTORE_API_KEY: undefined }, globals: { env: 'staging' } })).toEqual({
      error: expect.objectContaining({
        exitCode: 4,
        message: 'no API key for environment "staging"',
        hint: 'Log in (or set PETSTORE_API_KEY):\n  petstore auth login --env staging',
      }),
      requests: [],
      written: { stdout: '', stderr: '' },
    });
  });

  test('a plain http base URL to a non-loopback host is refused before any connection', async () => {
    const r = await unsent({ globals: { baseUrl: 'http://api.petstore.test/v1' }, env: { PETSTORE_API_KEY: 'k' } });
    expect(r.error).toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('refusing plain http base URL http://api.petstore.test: the API key would be sent in plain text'),
    });
    expect(r.requests).toEqual([]);
  });

  // The program's own refusals, before any command runs: through main, which sends nothing (no base URL is set).
  test.each([
    [['lsit'], 'error: unknown command "lsit" for "petstore"; did you mean "list"?'],
    [['list', '--bogus'], 'error: unknown flag "--bogus" for "petstore list"'],
    [['get'], 'error: missing argument <petId...> for "petstore get"'],
    [['add', '--name', 'Rex'], 'error: --category-id is required (or --file to add many)'],
    [['list', '--timeout', 'soon'], 'error: invalid value for --timeout: "soon": must be a whole number from 1 to 3600000'],
  ])('%j exits 2 with a usage error on stderr', async (argv, message) => {
    const r = await run(argv);
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
    expect((await list({}, { body, globals: { json: true } })).stdout).toBe(`${body}\n`);
    expect((await list({}, { body, output: { format: 'ndjson' } })).stdout).toBe(`${body.slice(1, -1)}\n`);
  });

  test('ids and category ids written 1.0, 1e2, -0 or 150e-1 are whole numbers: printed as written in every format', async () => {
    const body =
      '[{"id":1.0,"name":"A","categoryId":1e0},{"id":1e2,"name":"B","categoryId":-0},{"id":150e-1,"name":"C","categoryId":2.50E1}]';
    expect(await list({}, { body, globals: { json: true } })).toMatchObject({ stdout: `${body}\n`, stderr: '', error: undefined });
    expect((await list({}, { body, output: { format: 'tsv' } })).stdout).toBe('1.0\tA\t1e0\t-\n1e2\tB\t-0\t-\n150e-1\tC\t2.50E1\t-\n');
    // jq's own canonical text for numbers it keeps (jq 1.8).
    expect((await list({}, { body, output: { jq: '.[].id' } })).stdout).toBe('1.0\n1E+2\n15.0\n');
  });

  test.each([
    ['1.5', 'a fraction', 'must be an integer (int64)'],
    ['1e400', 'out of range', 'must be an integer (int64)'],
    ['9223372036854775808', 'above int64', 'must be at most 9223372036854775807'],
    ['9.223372036854775808e18', 'above int64, as an exponent', 'must be an integer (int64)'],
    ['"7"', 'a string', 'must be an integer (int64)'],
  ])('an id of %s (%s) is not an int64: exit 1, nothing on stdout', async (id, _, why) => {
    const r = await list({}, { body: `[{"id":${id},"name":"A","categoryId":1}]`, globals: { json: true } });
    expect(r).toMatchObject({ stdout: '', stderr: '', error: { exitCode: 1 } });
    expect((r.error as { report(): unknown }).report()).toEqual({
      code: 'unexpected_response',
      message: `unexpected response (HTTP 200): pets[0].id: ${why}`,
      status: 200,
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
    const r = await list({ flags: { limit: '100' } }, { path: '/v1/pets?limit=100', body: bigPage, output: { format } });
    expect(r.error).toBeUndefined();
    expect(count(r.stdout)).toBe(many);
  });
});
