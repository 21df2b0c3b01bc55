// --jq on every command that prints data: jq's semantics on the exact JSON,
// strings raw and everything else compact JSON, an expression that does not
// compile refused (exit 2) before any request, a runtime error exit 1. The runs through the fake client (`output: { jq }`); command
// lines whose parse matters, get, add --file and what only main does (Ctrl-C, a run's end) through main with the fake client.
import type { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { ADD } from '../src/commands/add/run.js';
import { STATUS } from '../src/commands/auth/status.js';
import { LIST as CONFIG_LIST } from '../src/commands/config/run.js';
import { newListCommand } from '../src/commands/list/list.js';
import { LIST } from '../src/commands/list/run.js';
import { type Given, runCommand } from '../src/commands/runner.js';
import { InterruptedError } from '../src/errors.js';
import { parseCommand, refusedBeforeRun, tempConfigHome, until, wrapped } from './helpers.js';
import { type FakeClientOptions, fakeClientFactory, thrownBy } from './support/fake-client.js';

const PETS =
  '[{"id":9007199254740993,"name":"Rex","categoryId":1,"status":"available"},{"id":9007199254740994,"name":"Tom","categoryId":2,"status":"sold"}]';

type Fake = ReturnType<typeof fakeClientFactory>;

/** A fake client answering list's first page once with `body`. */
function listOnce(options: FakeClientOptions = {}, body = PETS): Fake {
  const fake = fakeClientFactory(options);
  fake.answer('GET', '/v1/pets?limit=20', 200, body);
  return fake;
}

/** Runs `contract` with `given` on `fake`: what it wrote and what it threw. */
async function ran(fake: Fake, contract: Parameters<typeof runCommand>[1] = LIST, given: Given = {}) {
  const error = await thrownBy(runCommand(fake.f, contract, given));
  return { ...fake.written, error };
}

/** list through the fake client with `--jq expression` (and `options`), answered `body`. */
const listJq = (jq: string, options: FakeClientOptions = {}, body = PETS) =>
  ran(listOnce({ ...options, output: { ...options.output, jq } }, body));

/** A fake service that creates each pet POSTed to it, ids from `firstId` up. */
function creating(fake: Fake, firstId = 1n) {
  let next = firstId;
  fake.service
    .intercept({ method: 'POST', path: '/v1/pets' })
    .reply(({ body }) => {
      const pet = JSON.parse(String(body));
      const id = next++;
      return {
        statusCode: 201,
        data: `{"id":${id},"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId}}`,
        responseOptions: { headers: { 'content-type': 'application/json' } },
      };
    })
    .persist();
}

describe('--jq on list, get and add', () => {
  test('ids above 2^53 stay exact; strings print raw, other values as compact JSON, one a line', async () => {
    expect(await listJq('.[] | .id, .name, {n: .name}')).toEqual({
      stdout: '9007199254740993\nRex\n{"n":"Rex"}\n9007199254740994\nTom\n{"n":"Tom"}\n',
      stderr: '',
      error: undefined,
    });
  });

  test("numbers keep jq's text: 1.0 as written, 1e400 as jq prints it; arithmetic is jq's", async () => {
    const r = await listJq('.[0] | .w, .big, (.id + 0.5)', {}, '[{"id":1,"name":"a","categoryId":1,"w":1.0,"big":1e400}]');
    expect(r.stdout).toBe('1.0\n1E+400\n1.5\n');
  });

  test('get: the pet object goes through jq; the deprecation warning stays on stderr', async () => {
    const fake = fakeClientFactory();
    fake.answer('GET', '/v1/pets/9007199254740993', 200, '{"id":9007199254740993,"name":"Rex","categoryId":1}');
    const r = await fake.main(['get', '9007199254740993', '--jq', '.id']);
    expect(r).toMatchObject({ code: 0, stdout: '9007199254740993\n' });
    expect(r.stderr).toMatch(/^warning: getPet is deprecated/);
  });

  test('add: the created pet goes through jq', async () => {
    const fake = fakeClientFactory({ output: { jq: '.id' } });
    fake.answer('POST', '/v1/pets', 201, '{"id":9007199254740995,"name":"Rex","categoryId":1}');
    expect(await ran(fake, ADD, { flags: { name: 'Rex', categoryId: '1' } })).toEqual({
      stdout: '9007199254740995\n',
      stderr: '',
      error: undefined,
    });
    expect(fake.sent.map((q) => q.body)).toEqual(['{"name":"Rex","categoryId":1}']);
  });

  test('list --all: jq gets one array of every page', async () => {
    const fake = fakeClientFactory({ output: { jq: '[length, .[-1].id]' } });
    fake.answer('GET', '/v1/pets?limit=2', 200, PETS, { link: '</v1/pets?limit=2&cursor=2>; rel="next"' });
    fake.answer('GET', '/v1/pets?limit=2&cursor=2', 200, '[{"id":9007199254740995,"name":"b","categoryId":1}]');
    expect(await ran(fake, LIST, { flags: { all: true, limit: '2' } })).toEqual({
      stdout: '[3,9007199254740995]\n',
      stderr: '',
      error: undefined,
    });
  });

  test('--format ndjson: jq runs on each pet', async () => {
    expect((await listJq('.name', { output: { format: 'ndjson' } })).stdout).toBe('Rex\nTom\n');
  });

  test('local records too: auth status and config list', async () => {
    const bare = { PETSTORE_BASE_URL: undefined, PETSTORE_API_KEY: undefined };
    const status = fakeClientFactory({ env: bare, globals: { baseUrl: 'https://h.test/v1' }, output: { jq: '.apiKey' } });
    expect(await ran(status, STATUS)).toMatchObject({ stdout: 'not set\n', error: { exitCode: 4 } });
    const config = fakeClientFactory({ env: bare, output: { jq: '.[].environment' } });
    expect(await ran(config, CONFIG_LIST)).toEqual({ stdout: 'production\nstaging\n', stderr: '', error: undefined });
  });

  test('no result prints nothing, exit 0', async () => {
    expect(await listJq('.[] | select(.id == 1)')).toEqual({ stdout: '', stderr: '', error: undefined });
  });

  test('an expression that starts with "-" is an expression, not a jq option', async () => {
    expect((await parseCommand(newListCommand, ['list', '--jq', '-.[1].categoryId'])).reached).toEqual([
      { options: { query: { limit: 20 }, all: false }, output: { format: 'json', jq: '-.[1].categoryId' } },
    ]);
    expect((await listJq('-.[1].categoryId')).stdout).toBe('-2\n');
  });

  test('--jq with a format that is not JSON exits 2', async () => {
    expect(await parseCommand(newListCommand, ['list', '--jq', '.', '--format', 'tsv'])).toEqual(
      refusedBeforeRun('--jq and --format tsv ask for different formats; give one of them'),
    );
  });
});

describe('an expression jq cannot compile', () => {
  test.each([
    [['list']],
    [['get', '1']],
    [['add', '--name', 'Rex', '--category-id', '1']],
    [['add', '--file', '-']],
    [['api', '/store/orders']],
  ])("%j exits 2 with jq's message, before any request", async (args) => {
    const fake = fakeClientFactory({ stdin: '{"name":"a","categoryId":1}\n' });
    expect(await fake.main([...args, '--jq', '.['])).toEqual({
      code: 2,
      stdout: '',
      stderr: wrapped(
        'error: invalid --jq expression: syntax error, unexpected end of file at <top-level>, line 1, column 2:\n    .[\n     ^\n',
      ),
      unmatched: [],
    });
    expect(fake.requests).toEqual([]);
  });

  test('an unknown function, and an empty expression; with --json the error is one JSON line', async () => {
    expect(await parseCommand(newListCommand, ['list', '--jq', 'nope'])).toEqual(
      refusedBeforeRun('invalid --jq expression: nope/0 is not defined at <top-level>, line 1, column 1:\n    nope\n    ^^^^'),
    );
    const empty = await parseCommand(newListCommand, ['list', '--jq', '', '--json']);
    expect(empty).toMatchObject({ code: 2, stdout: '', reached: [] });
    expect(JSON.parse(empty.stderr)).toEqual({
      code: 'invalid_jq',
      message: 'invalid --jq expression: Top-level program not given (try ".")',
      status: null,
    });
  });
});

describe('what jq says while it runs', () => {
  test("a runtime error: the results before it are printed, then exit 1 with jq's message", async () => {
    expect(await listJq('.[] | .id, error("no \\(.name)")')).toMatchObject({
      stdout: '9007199254740993\n',
      stderr: '',
      error: { exitCode: 1, message: '--jq: no Rex', hint: undefined },
    });
  });

  test("a runtime error on an earlier input of several (NDJSON) still exits 1, though jq's own status is its last input's", async () => {
    const r = await listJq('if .name == "Rex" then error("no Rex") else .name end', { output: { format: 'ndjson' } });
    expect(r).toMatchObject({ stdout: 'Tom\n', stderr: '', error: { exitCode: 1, message: '--jq: no Rex', hint: undefined } });
  });

  test('debug and stderr messages become warnings (JSON lines with --json)', async () => {
    expect(await listJq('.[0].id | debug')).toEqual({
      stdout: '9007199254740993\n',
      stderr: 'warning: jq: ["DEBUG:",9007199254740993]\n',
      error: undefined,
    });
    const json = await listJq('.[0].id | debug', { globals: { json: true } });
    expect(json.stderr).toBe('{"warning":"jq: [\\"DEBUG:\\",9007199254740993]","code":"jq_message"}\n');
  });

  test("input past the last input: jq's message, not the 'break' jq-wasm's jq reports", async () => {
    expect(await listJq('input')).toMatchObject({ stdout: '', stderr: '', error: { exitCode: 1, message: '--jq: No more inputs' } });
  });

  test('terminal safety: raw strings lose escape sequences on a terminal only; JSON keeps C1 controls escaped', async () => {
    const body = '[{"id":1,"name":"a\\u001b[31mred\\u0085","categoryId":1}]';
    const piped = await listJq('.[0].name, .[0]', {}, body);
    expect(piped.stdout).toBe('a\u001b[31mred\u0085\n{"id":1,"name":"a\\u001b[31mred\\u0085","categoryId":1}\n');
    const tty = await listJq('.[0].name', { tty: true }, body);
    expect(tty.stdout).toBe('ared \n');
  });
});

describe("$ENV and env are the run's environment, as in jq (not the WebAssembly runtime's stand-in)", () => {
  test('list: $ENV.HOME, env.HOME and a variable of the run; the keys are exactly those of the run (no USER=web_user)', async () => {
    const r = await listJq('$ENV.HOME, env.HOME, $ENV.PETSTORE_TEST, (env | keys)', {
      env: { HOME: '/home/tester', PETSTORE_TEST: 'a b=ü' },
    });
    expect(r).toEqual({
      stdout: '/home/tester\n/home/tester\na b=ü\n["HOME","PETSTORE_API_KEY","PETSTORE_BASE_URL","PETSTORE_TEST","XDG_CONFIG_HOME"]\n',
      stderr: '',
      error: undefined,
    });
  });

  test('two runs with other environments each see their own', async () => {
    for (const home of ['/home/one', '/home/two', '/home/one']) {
      expect(await listJq('env.HOME', { env: { HOME: home } })).toMatchObject({ stdout: `${home}\n`, error: undefined });
    }
  });

  test('add --file and api: the same', async () => {
    const fake = fakeClientFactory({ env: { HOME: '/home/bulk' } });
    creating(fake);
    const bulk = await fake.main(['add', '--file', '-', '--jq', '"\\(.name) \\($ENV.HOME)"'], { stdin: '{"name":"a","categoryId":1}\n' });
    expect(bulk).toMatchObject({ code: 0, stdout: 'a /home/bulk\n' });
    fake.answer('GET', '/v1/pets', 200, '[{"id":1,"name":"a","categoryId":1}]');
    const api = await fake.main(['api', '/pets', '--jq', '[length, env.HOME]']);
    expect(api).toMatchObject({ code: 0, stdout: '[1,"/home/bulk"]\n', stderr: '' });
  });

  // The environment reaches jq as a binding put before the expression (src/output/jq.ts): nothing else may show it.
  test("$ARGS is jq's own without arguments (the environment is not in it); $__loc__ is the expression's line", async () => {
    expect(await listJq('$ARGS, $__loc__')).toEqual({
      stdout: '{"positional":[],"named":{}}\n{"file":"<top-level>","line":1}\n',
      stderr: '',
      error: undefined,
    });
  });

  test('a program that begins with a module directive, which the binding must follow, is refused: exit 2, before any request', async () => {
    expect(await parseCommand(newListCommand, ['list', '--jq', 'module {a:1}; .'])).toEqual(
      refusedBeforeRun(
        'invalid --jq expression: syntax error, unexpected module at <top-level>, line 1, column 81:\n' +
          '    $__petstore_env as $ENV | {positional: [], named: {}} as $ARGS | def env: $ENV; module {a:1}; .\n' +
          `    ${' '.repeat(80)}^^^^^^`,
      ),
    );
  });
});

describe('--jq on add --file (each created pet, batch by batch)', () => {
  test('every created pet goes through jq; ids above 2^53 exact; the summary stays on stderr', async () => {
    const fake = fakeClientFactory();
    creating(fake, 9007199254740993n);
    const input = Array.from({ length: 5 }, (_, i) => `{"name":"p${i}","categoryId":${i}}`).join('\n');
    const r = await fake.main(['add', '--file', '-', '--concurrency', '1', '--jq', '"\\(.id) \\(.name)"'], { stdin: input });
    expect(r).toMatchObject({
      code: 0,
      stdout: [0, 1, 2, 3, 4].map((i) => `${9007199254740993n + BigInt(i)} p${i}\n`).join(''),
      stderr: 'created 5 of 5 pets; 0 failed\n',
    });
  });

  test("a runtime error on one pet: the others print, every pet is created, exit 1 with jq's message", async () => {
    const fake = fakeClientFactory();
    creating(fake);
    const r = await fake.main(
      ['add', '--file', '-', '--concurrency', '1', '--jq', 'if .name == "b" then error("bad \\(.name)") else .name end'],
      { stdin: '{"name":"a","categoryId":1}\n{"name":"b","categoryId":1}\n{"name":"c","categoryId":1}\n' },
    );
    expect(r).toMatchObject({ code: 1, stdout: 'a\nc\n', stderr: 'created 3 of 3 pets; 0 failed\nerror: --jq: bad b\n' });
    expect(fake.requests.filter((q) => q.method === 'POST')).toHaveLength(3);
  });
});

describe('a run that does not end (jq runs in a worker thread)', () => {
  test('Ctrl-C ends it: exit 130, nothing printed', async () => {
    const fake = listOnce();
    const stop = new AbortController();
    // The run's own thread: its environment (a fresh config folder) is no earlier run's.
    const started = new Promise<Worker>((resolve) => process.once('worker', resolve));
    const running = fake.main(['list', '--jq', 'repeat(1)'], { signal: stop.signal });
    const thread = await started;
    await until(() => fake.requests.length === 1);
    // Ctrl-C once jq runs on the answer: the thread's event loop has been busy since.
    const since = thread.performance.eventLoopUtilization();
    await until(() => thread.performance.eventLoopUtilization(since).active >= 100);
    stop.abort(new InterruptedError('SIGINT'));
    expect(await running).toEqual({ code: 130, stdout: '', stderr: '', unmatched: [] });
  });

  test('the deadline of the whole command ends it: exit 1 naming --timeout; the next run starts a new thread', async () => {
    expect(await listJq('def f: f; f', { globals: { timeout: 2000 } })).toMatchObject({
      stdout: '',
      stderr: '',
      error: { exitCode: 1, message: '--jq timed out after 2000 ms (--timeout)', hint: undefined },
    });
    expect(await listJq('.[1].name')).toEqual({ stdout: 'Tom\n', stderr: '', error: undefined });
  });
});

describe("a run's jq thread is its own", () => {
  test('two runs with the same environment in one process each start a thread, and leave none running', async () => {
    const started: Worker[] = [];
    const exited = new Set<Worker>();
    const onWorker = (thread: Worker) => {
      started.push(thread);
      thread.once('exit', () => exited.add(thread));
    };
    const configHome = tempConfigHome();
    process.on('worker', onWorker);
    try {
      for (const _ of [1, 2]) {
        const fake = listOnce({ env: { XDG_CONFIG_HOME: configHome } });
        expect(await fake.main(['list', '--jq', '.[0].name'])).toMatchObject({ code: 0, stdout: 'Rex\n' });
      }
    } finally {
      process.off('worker', onWorker);
    }
    expect(started).toHaveLength(2);
    await until(() => exited.size === 2);
  });
});
