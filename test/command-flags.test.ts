// Flag parsing and validation through each command's runF seam, as gh's NewCmdX tests do: the command line is parsed by
// the real program (global flags, commander, zod), and what reaches the command's run is recorded instead of run. A
// rejected command line never reaches it: exit 2, the message on stderr, nothing on stdout.
import { describe, expect, test } from 'vitest';
import { newAddCommand } from '../src/commands/add/add.js';
import type { AddOptions } from '../src/commands/add/run.js';
import { newApiCommand } from '../src/commands/api/api.js';
import type { ApiOptions } from '../src/commands/api/request.js';
import { newAuthCommand } from '../src/commands/auth/auth.js';
import type { LoginOptions } from '../src/commands/auth/login.js';
import { newConfigCommand } from '../src/commands/config/config.js';
import { newGetCommand } from '../src/commands/get/get.js';
import type { GetOptions } from '../src/commands/get/run.js';
import { newListCommand } from '../src/commands/list/list.js';
import type { ListOptions } from '../src/commands/list/run.js';
import type { Factory } from '../src/factory.js';
import { parseCommand as parse, refusedBeforeRun as rejected, run, wrapped } from './helpers.js';

const piped = { format: 'tsv' } as const;

describe('list', () => {
  test('defaults: limit 20, no status, one page; tab-separated rows when piped, a table at a terminal', async () => {
    expect(await parse<ListOptions>(newListCommand, ['list'])).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
      unmatched: [],
      reached: [{ options: { query: { limit: 20, status: undefined }, all: false }, output: piped }],
    });
    const tty = await parse<ListOptions>(newListCommand, ['list'], { stdoutIsTTY: true });
    expect(tty.reached[0]?.output).toEqual({ format: 'table' });
  });

  test('--status, --limit (both bounds, also as --limit=N) and --all reach listPets query as given', async () => {
    const r = await parse<ListOptions>(newListCommand, ['list', '--status', 'sold', '--limit', '100', '--all']);
    expect(r.reached).toEqual([{ options: { query: { limit: 100, status: 'sold' }, all: true }, output: piped }]);
    const low = await parse<ListOptions>(newListCommand, ['list', '--limit=1', '--status=pending']);
    expect(low.reached[0]?.options).toEqual({ query: { limit: 1, status: 'pending' }, all: false });
  });

  test('--json, --jq and --format settle the output before the run', async () => {
    expect((await parse<ListOptions>(newListCommand, ['list', '--json'])).reached[0]?.output).toEqual({ format: 'json' });
    expect((await parse<ListOptions>(newListCommand, ['list', '--jq', '.[].id'])).reached[0]?.output).toEqual({
      format: 'json',
      jq: '.[].id',
    });
    expect((await parse<ListOptions>(newListCommand, ['list', '--format', 'ndjson'])).reached[0]?.output).toEqual({ format: 'ndjson' });
  });

  test.each(['0', 'abc', '1.5', '1e2', ' 5', '-1'])('--limit %j is refused before the run', async (limit) => {
    expect(await parse<ListOptions>(newListCommand, ['list', `--limit=${limit}`])).toEqual(
      rejected(`invalid value for --limit: "${limit}": must be a whole number from 1 to 100`),
    );
  });

  test.each(['101', '1000'])('--limit %j, above a page, is refused before the run, pointing to --all', async (limit) => {
    expect(await parse<ListOptions>(newListCommand, ['list', `--limit=${limit}`])).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: invalid value for --limit: "${limit}": must be a whole number from 1 to 100,\n  the most one page holds; --all lists every page\n`,
      unmatched: [],
      reached: [],
    });
    // With --all given, the message does not point to it.
    expect(await parse<ListOptions>(newListCommand, ['list', `--limit=${limit}`, '--all'])).toEqual(
      rejected(`invalid value for --limit: "${limit}": must be a whole number from 1 to 100, the most one page holds`),
    );
  });

  test('an unknown --status names the allowed values, and the closest one for a typo; --json with --format table is refused', async () => {
    expect(await parse<ListOptions>(newListCommand, ['list', '--status', 'lost'])).toEqual(
      rejected('invalid value for --status: "lost": allowed values: available, pending, sold'),
    );
    for (const typo of ['availble', 'Available', 'sodl'])
      expect(await parse<ListOptions>(newListCommand, ['list', '--status', typo])).toEqual(
        rejected(
          `invalid value for --status: "${typo}": allowed values: available, pending, sold; did you mean "${typo.startsWith('s') ? 'sold' : 'available'}"?`,
        ),
      );
    expect(await parse<ListOptions>(newListCommand, ['list', '--format', 'jsn'])).toEqual(
      rejected('invalid value for --format: "jsn": allowed values: table, kv, tsv, json, ndjson; did you mean "json"?'),
    );
    // With --json the error too is JSON.
    expect(await parse<ListOptions>(newListCommand, ['list', '--json', '--format', 'table'])).toEqual({
      ...rejected(''),
      stderr: '{"code":"invalid_usage","message":"--json and --format table ask for different formats; give one of them","status":null}\n',
    });
  });
});

describe('get', () => {
  test('the petId reaches the run as an exact int64, up to 2^63 - 1: one id is a record (a row piped, JSON with --json)', async () => {
    const r = await parse<GetOptions>(newGetCommand, ['get', '9223372036854775807']);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(r.reached).toEqual([{ options: { ids: [9223372036854775807n], concurrency: 8 }, output: piped }]);
    expect((await parse<GetOptions>(newGetCommand, ['get', '0', '--json'])).reached).toEqual([
      { options: { ids: [0n], concurrency: 8 }, output: { format: 'json' } },
    ]);
    // At a terminal, one pet is key/value lines.
    expect((await parse<GetOptions>(newGetCommand, ['get', '1'], { stdoutIsTTY: true })).reached[0]?.output).toEqual({ format: 'kv' });
  });

  test('several ids reach the run in their order, repeats and ids above 2^53 kept; they print as records (a table at a terminal)', async () => {
    const r = await parse<GetOptions>(newGetCommand, ['get', '3', '9007199254740993', '3', '-5']);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(r.reached).toEqual([{ options: { ids: [3n, 9007199254740993n, 3n, -5n], concurrency: 8 }, output: piped }]);
    expect((await parse<GetOptions>(newGetCommand, ['get', '1', '2'], { stdoutIsTTY: true })).reached[0]?.output).toEqual({
      format: 'table',
    });
    expect((await parse<GetOptions>(newGetCommand, ['get', '1', '2', '--json'])).reached[0]?.output).toEqual({ format: 'json' });
  });

  test('"-" reads the ids from standard input, printed as records however many come (one id too)', async () => {
    const r = await parse<GetOptions>(newGetCommand, ['get', '-', '--concurrency', '64']);
    expect(r.reached).toEqual([{ options: { ids: 'stdin', concurrency: 64 }, output: piped }]);
    expect((await parse<GetOptions>(newGetCommand, ['get', '-'], { stdoutIsTTY: true })).reached[0]?.output).toEqual({ format: 'table' });
    expect((await parse<GetOptions>(newGetCommand, ['get', '-', '--format', 'ndjson'])).reached[0]?.output).toEqual({ format: 'ndjson' });
  });

  test.each([
    ['9223372036854775808', 'must be at most 9223372036854775807'],
    ['12abc', 'must be an integer written as decimal digits'],
    ['4.0', 'must be an integer written as decimal digits'],
  ])('petId %s is refused before the run, alone or among others', async (petId, why) => {
    expect(await parse<GetOptions>(newGetCommand, ['get', petId])).toEqual(
      rejected(`invalid value for argument <petId>: "${petId}": ${why}`),
    );
    expect(await parse<GetOptions>(newGetCommand, ['get', '1', petId, '2'])).toEqual(
      rejected(`invalid value for argument <petId>: "${petId}": ${why}`),
    );
  });

  test.each([
    [['get', '1', '-'], '"-" reads the ids from standard input: give it alone, without other ids'],
    [['get', '-', '-'], '"-" reads the ids from standard input: give it alone, without other ids'],
    [['get', '1', '2', '--concurrency', '0'], 'invalid value for --concurrency: "0": must be a whole number from 1 to 64'],
    [['get', '-', '--concurrency', '65'], 'invalid value for --concurrency: "65": must be a whole number from 1 to 64'],
    [['get', '-', '--concurrency', 'x'], 'invalid value for --concurrency: "x": must be a whole number from 1 to 64'],
  ])('%j is refused before the run', async (argv, message) => {
    expect(await parse<GetOptions>(newGetCommand, argv)).toEqual(rejected(message));
  });

  test('no petId: the missing argument named, with what it takes, and the help to run', async () => {
    const r = await parse<GetOptions>(newGetCommand, ['get']);
    expect(r).toMatchObject({ code: 2, stdout: '', reached: [] });
    expect(r.stderr).toBe(
      wrapped(
        'error: missing argument <petId...> for "petstore get": identifiers of the animals (int64s), or - to read them from standard input\n' +
          'For its usage, run:\n  petstore get --help\n',
      ),
    );
  });
});

describe('add', () => {
  test('--name, --category-id (exact int64) and --status make one NewPet; no --status leaves it out', async () => {
    const r = await parse<AddOptions>(newAddCommand, ['add', '--name', 'Rex', '--category-id', '9007199254740993', '--status', 'pending']);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(r.reached).toEqual([
      { options: { kind: 'one', pet: { name: 'Rex', categoryId: 9007199254740993n, status: 'pending' } }, output: piped },
    ]);
    const bare = await parse<AddOptions>(newAddCommand, ['add', '--name', 'Tom', '--category-id', '-3', '--json']);
    expect(bare.reached).toEqual([{ options: { kind: 'one', pet: { name: 'Tom', categoryId: -3n } }, output: { format: 'json' } }]);
  });

  test('--file alone is a bulk load with 8 requests in flight; every --file flag reaches it', async () => {
    const r = await parse<AddOptions>(newAddCommand, ['add', '--file', 'pets.ndjson']);
    expect(r.reached).toEqual([
      {
        options: { kind: 'file', load: { file: 'pets.ndjson', concurrency: 8, failed: undefined, retryUnknown: false, restart: false } },
        output: piped,
      },
    ]);
    const all = await parse<AddOptions>(newAddCommand, [
      'add',
      '--file',
      '-',
      '--concurrency',
      '64',
      '--failed',
      'failed.ndjson',
      '--retry-unknown',
      '--restart',
      '--json',
    ]);
    expect(all.reached).toEqual([
      {
        options: { kind: 'file', load: { file: '-', concurrency: 64, failed: 'failed.ndjson', retryUnknown: true, restart: true } },
        output: { format: 'ndjson' },
      },
    ]);
    const resolve = await parse<AddOptions>(newAddCommand, ['add', '--file', '-', '--failed', 'f.ndjson', '--resolve-unknown']);
    expect(resolve.reached).toEqual([
      {
        options: {
          kind: 'file',
          load: { file: '-', concurrency: 8, failed: 'f.ndjson', retryUnknown: false, restart: false, resolveUnknown: true },
        },
        output: piped,
      },
    ]);
  });

  test.each([
    [['--file', 'p.ndjson', '--name', 'Rex'], '--file cannot be combined with --name'],
    [['--file', 'p.ndjson', '--status', 'sold'], '--file cannot be combined with --status'],
    [['--name', 'Rex', '--category-id', '1', '--failed', 'f.ndjson'], '--failed goes with --file'],
    [['--name', 'Rex', '--category-id', '1', '--concurrency', '2'], '--concurrency goes with --file'],
    [['--file', 'p.ndjson', '--restart'], '--restart goes with --failed: the journal is kept beside that file'],
    [['--file', 'p.ndjson', '--concurrency', '65'], 'invalid value for --concurrency: "65": must be a whole number from 1 to 64'],
    [['--file', 'p.ndjson', '--format', 'table'], 'invalid value for --format: "table": allowed values: tsv, ndjson'],
    [['--name', '', '--category-id', '1'], 'invalid value for --name: "": must not be empty'],
    [['--name', 'Rex', '--category-id', '1.5'], 'invalid value for --category-id: "1.5": must be an integer written as decimal digits'],
    [['--name', 'Rex'], '--category-id is required (or --file to add many)'],
    [['--category-id', '1'], '--name is required (or --file to add many)'],
    [['--status', 'sold'], '--name and --category-id are required (or --file to add many)'],
  ])('add %j is refused before the run', async (flags, message) => {
    expect(await parse<AddOptions>(newAddCommand, ['add', ...flags])).toEqual(rejected(message));
  });

  test('at a terminal a missing field is asked for, with what the flags gave; --no-prompt and PETSTORE_NO_PROMPT=1 refuse instead', async () => {
    const terminal = { stdinIsTTY: true, stdoutIsTTY: true };
    const r = await parse<AddOptions>(newAddCommand, ['add', '--category-id', '7', '--status', 'sold'], terminal);
    expect(r.reached).toEqual([
      { options: { kind: 'prompt', given: { categoryId: 7n, status: 'sold', statusGiven: true } }, output: { format: 'kv' } },
    ]);
    const noPrompt = rejected('--name is required (or --file to add many)');
    expect(await parse<AddOptions>(newAddCommand, ['add', '--category-id', '7', '--no-prompt'], terminal)).toEqual(noPrompt);
    expect(
      await parse<AddOptions>(newAddCommand, ['add', '--category-id', '7'], { ...terminal, env: { PETSTORE_NO_PROMPT: '1' } }),
    ).toEqual(noPrompt);
    // Only stdin a terminal (output piped): no prompt.
    expect(await parse<AddOptions>(newAddCommand, ['add', '--category-id', '7'], { stdinIsTTY: true })).toEqual(noPrompt);
  });
});

describe('api', () => {
  const request = (extra: Partial<ApiOptions>): ApiOptions => ({
    method: 'GET',
    path: '/store/orders',
    query: [],
    headers: {},
    include: false,
    paginate: false,
    ...extra,
  });

  test('a path alone is a GET; -i and --paginate reach the run', async () => {
    const r = await parse<ApiOptions>(newApiCommand, ['api', '/store/orders']);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(r.reached.map((x) => x.options)).toEqual([request({})]);
    const paged = await parse<ApiOptions>(newApiCommand, ['api', '/store/orders', '-i', '--paginate']);
    expect(paged.reached.map((x) => x.options)).toEqual([request({ include: true, paginate: true })]);
  });

  test('-f and -F make a JSON body in the order given (exact int64, true, null), and a POST', async () => {
    const r = await parse<ApiOptions>(newApiCommand, [
      'api',
      '/pets',
      '-f',
      'name=Rex',
      '-F',
      'categoryId=9007199254740993',
      '-F',
      'tags[]=1',
      '-F',
      'owner[name]=null',
      '-F',
      'ok=true',
    ]);
    expect(r.reached.map((x) => x.options)).toEqual([
      request({
        method: 'POST',
        path: '/pets',
        body: '{"name":"Rex","categoryId":9007199254740993,"tags":[1],"owner":{"name":null},"ok":true}',
      }),
    ]);
  });

  test('for a GET the fields go to the query string; -X is case-blind; repeated -H values are joined', async () => {
    const r = await parse<ApiOptions>(newApiCommand, [
      'api',
      '/pets',
      '-X',
      'get',
      '-F',
      'limit=2',
      '-f',
      'status=sold',
      '-H',
      'X-Trace: a',
      '-H',
      'x-trace: b',
    ]);
    expect(r.reached.map((x) => x.options)).toEqual([
      request({
        path: '/pets',
        query: [
          ['limit', '2'],
          ['status', 'sold'],
        ],
        headers: { 'x-trace': 'a, b' },
      }),
    ]);
  });

  test('--input - sends standard input as the body, as given', async () => {
    const r = await parse<ApiOptions>(newApiCommand, ['api', '/pets', '--input', '-'], { stdin: '{"name":"Rex","categoryId":1}' });
    expect(r.reached.map((x) => x.options)).toEqual([request({ method: 'POST', path: '/pets', body: '{"name":"Rex","categoryId":1}' })]);
  });

  test.each([
    [['-X', 'BREW'], 'invalid value for --method: "BREW": allowed values: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS'],
    [
      ['-X', 'pots'],
      'invalid value for --method: "pots": allowed values: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS; did you mean "POST"?',
    ],
    [
      ['-H', 'Authorization: Bearer other'],
      '--header Authorization is not allowed: petstore sends the API key of "auth login" (or PETSTORE_API_KEY) itself, and a key on the command line ends up in shell history',
    ],
    [['-H', 'no colon'], 'invalid value for --header: "no colon": expected "Name: value" on one line'],
    [['-X', 'POST', '--paginate'], '--paginate follows the pages of a GET, not of POST'],
    [['--input', 'body.json', '-X', 'GET'], '--input sends a body, which GET does not take: use -X POST, PUT or PATCH'],
    [['-f', 'noequals'], 'invalid value for --raw-field: "noequals": expected key=value'],
    [['-f', 'a=1', '-f', 'a=2'], 'invalid value for --raw-field: "a": set twice'],
  ])('api %j is refused before the run', async (flags, message) => {
    expect(await parse<ApiOptions>(newApiCommand, ['api', '/pets', ...flags])).toEqual(rejected(message));
  });
});

describe('auth', () => {
  test('login: --with-token and --skip-verify reach the run; the other subcommands reach theirs', async () => {
    const logins: LoginOptions[] = [];
    const called: string[] = [];
    const auth = (f: Factory) =>
      newAuthCommand(f, {
        login: async (options) => void logins.push(options),
        status: async () => void called.push(`status ${f.exporter.spec.format}`),
        token: async () => void called.push('token'),
        logout: async () => void called.push('logout'),
      });
    for (const argv of [
      ['auth', 'login'],
      ['auth', 'login', '--with-token', '--skip-verify'],
      ['auth', 'status', '--format', 'json'],
      ['auth', 'token'],
      ['auth', 'logout'],
    ]) {
      expect(await run(argv, { commands: [auth] })).toEqual({ code: 0, stdout: '', stderr: '', unmatched: [] });
    }
    expect(logins).toEqual([
      { withToken: false, skipVerify: false },
      { withToken: true, skipVerify: true },
    ]);
    expect(called).toEqual(['status json', 'token', 'logout']);
  });
});

describe('config', () => {
  test('each subcommand reaches its run with its arguments; list with its output format, and nothing printed', async () => {
    const called: unknown[] = [];
    const config = (f: Factory) =>
      newConfigCommand(f, {
        list: async () => void called.push(`list ${f.exporter.spec.format}`),
        get: async (key) => void called.push(['get', key]),
        set: async (options) => void called.push(['set', options]),
        unset: async (key) => void called.push(['unset', key]),
        path: async () => void called.push('path'),
      });
    for (const argv of [
      ['config', 'list', '--format', 'json'],
      ['config', 'get', 'base-url'],
      ['config', 'set', 'base-url', 'http://127.0.0.1:4010/v1'],
      ['config', 'unset', 'base-url', '--env', 'staging'],
      ['config', 'path'],
    ]) {
      expect(await run(argv, { commands: [config] })).toEqual({ code: 0, stdout: '', stderr: '', unmatched: [] });
    }
    expect(called).toEqual([
      'list json',
      ['get', 'base-url'],
      ['set', { key: 'base-url', value: 'http://127.0.0.1:4010/v1' }],
      ['unset', 'base-url'],
      'path',
    ]);
  });
});
