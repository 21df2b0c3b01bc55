// --jq on every command that prints data: jq's semantics on the exact JSON,
// strings raw and everything else compact JSON, an expression that does not
// compile refused (exit 2) before any request, a runtime error exit 1.
import type { Worker } from 'node:worker_threads';
import nock from 'nock';
import { describe, expect, test } from 'vitest';
import { startPetService } from '../sandbox/pet-service.mjs';
import { InterruptedError } from '../src/errors.js';
import { BASE, run, serviceEnv, tempConfigHome, until, wrapped } from './helpers.js';

const PETS =
  '[{"id":9007199254740993,"name":"Rex","categoryId":1,"status":"available"},{"id":9007199254740994,"name":"Tom","categoryId":2,"status":"sold"}]';
const JSON_TYPE = { 'content-type': 'application/json' };
const listOnce = (body = PETS) => nock(BASE).get('/v1/pets').query({ limit: '20' }).reply(200, body, JSON_TYPE);

describe('--jq on list, get and add', () => {
  test('ids above 2^53 stay exact; strings print raw, other values as compact JSON, one a line', async () => {
    listOnce();
    const r = await run(['list', '--jq', '.[] | .id, .name, {n: .name}'], { env: serviceEnv() });
    expect(r).toEqual({
      code: 0,
      stdout: '9007199254740993\nRex\n{"n":"Rex"}\n9007199254740994\nTom\n{"n":"Tom"}\n',
      stderr: '',
      unmatched: [],
    });
  });

  test("numbers keep jq's text: 1.0 as written, 1e400 as jq prints it; arithmetic is jq's", async () => {
    listOnce('[{"id":1,"name":"a","categoryId":1,"w":1.0,"big":1e400}]');
    const r = await run(['list', '--jq', '.[0] | .w, .big, (.id + 0.5)'], { env: serviceEnv() });
    expect(r.stdout).toBe('1.0\n1E+400\n1.5\n');
  });

  test('get: the pet object goes through jq; the deprecation warning stays on stderr', async () => {
    nock(BASE).get('/v1/pets/9007199254740993').reply(200, '{"id":9007199254740993,"name":"Rex","categoryId":1}', JSON_TYPE);
    const r = await run(['get', '9007199254740993', '--jq', '.id'], { env: serviceEnv() });
    expect(r).toMatchObject({ code: 0, stdout: '9007199254740993\n' });
    expect(r.stderr).toMatch(/^warning: getPet is deprecated/);
  });

  test('add: the created pet goes through jq', async () => {
    nock(BASE)
      .post('/v1/pets', { name: 'Rex', categoryId: 1 })
      .reply(201, '{"id":9007199254740995,"name":"Rex","categoryId":1}', JSON_TYPE);
    const r = await run(['add', '--name', 'Rex', '--category-id', '1', '--jq', '.id'], { env: serviceEnv() });
    expect(r).toEqual({ code: 0, stdout: '9007199254740995\n', stderr: '', unmatched: [] });
  });

  test('list --all: jq gets one array of every page', async () => {
    nock(BASE)
      .get('/v1/pets')
      .query({ limit: '2' })
      .reply(200, PETS, { ...JSON_TYPE, link: '</v1/pets?limit=2&cursor=2>; rel="next"' })
      .get('/v1/pets')
      .query({ limit: '2', cursor: '2' })
      .reply(200, '[{"id":9007199254740995,"name":"b","categoryId":1}]', JSON_TYPE);
    const r = await run(['list', '--all', '--limit', '2', '--jq', '[length, .[-1].id]'], { env: serviceEnv() });
    expect(r).toEqual({ code: 0, stdout: '[3,9007199254740995]\n', stderr: '', unmatched: [] });
  });

  test('--format ndjson: jq runs on each pet', async () => {
    listOnce();
    const r = await run(['list', '--format', 'ndjson', '--jq', '.name'], { env: serviceEnv() });
    expect(r.stdout).toBe('Rex\nTom\n');
  });

  test('local records too: auth status and config list', async () => {
    const status = await run(['auth', 'status', '--jq', '.apiKey', '--base-url', 'https://h.test/v1'], { env: {} });
    expect(status).toMatchObject({ code: 4, stdout: 'not set\n' });
    const config = await run(['config', 'list', '--jq', '.[].environment'], { env: {} });
    expect(config).toEqual({ code: 0, stdout: 'production\nstaging\n', stderr: '', unmatched: [] });
  });

  test('no result prints nothing, exit 0', async () => {
    listOnce();
    const r = await run(['list', '--jq', '.[] | select(.id == 1)'], { env: serviceEnv() });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '', unmatched: [] });
  });

  test('an expression that starts with "-" is an expression, not a jq option', async () => {
    listOnce();
    const r = await run(['list', '--jq', '-.[1].categoryId'], { env: serviceEnv() });
    expect(r.stdout).toBe('-2\n');
  });

  test('--jq with a format that is not JSON exits 2', async () => {
    const r = await run(['list', '--jq', '.', '--format', 'tsv'], { env: serviceEnv() });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --jq and --format tsv ask for different formats; give one of them\n',
      unmatched: [],
    });
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
    const r = await run([...args, '--jq', '.['], { env: serviceEnv(), stdin: '{"name":"a","categoryId":1}\n' });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: wrapped(
        'error: invalid --jq expression: syntax error, unexpected end of file at <top-level>, line 1, column 2:\n    .[\n     ^\n',
      ),
      unmatched: [],
    });
  });

  test('an unknown function, and an empty expression; with --json the error is one JSON line', async () => {
    const unknown = await run(['list', '--jq', 'nope'], { env: serviceEnv() });
    expect(unknown.stderr).toBe(
      wrapped('error: invalid --jq expression: nope/0 is not defined at <top-level>, line 1, column 1:\n    nope\n    ^^^^\n'),
    );
    const empty = await run(['list', '--jq', '', '--json'], { env: serviceEnv() });
    expect(empty).toMatchObject({ code: 2, stdout: '' });
    expect(JSON.parse(empty.stderr)).toEqual({
      code: 'invalid_jq',
      message: 'invalid --jq expression: Top-level program not given (try ".")',
      status: null,
    });
  });
});

describe('what jq says while it runs', () => {
  test("a runtime error: the results before it are printed, then exit 1 with jq's message", async () => {
    listOnce();
    const r = await run(['list', '--jq', '.[] | .id, error("no \\(.name)")'], { env: serviceEnv() });
    expect(r).toEqual({ code: 1, stdout: '9007199254740993\n', stderr: 'error: --jq: no Rex\n', unmatched: [] });
  });

  test("a runtime error on an earlier input of several (NDJSON) still exits 1, though jq's own status is its last input's", async () => {
    listOnce();
    const r = await run(['list', '--format', 'ndjson', '--jq', 'if .name == "Rex" then error("no Rex") else .name end'], {
      env: serviceEnv(),
    });
    expect(r).toEqual({ code: 1, stdout: 'Tom\n', stderr: 'error: --jq: no Rex\n', unmatched: [] });
  });

  test('debug and stderr messages become warnings (JSON lines with --json)', async () => {
    listOnce();
    listOnce();
    const plain = await run(['list', '--jq', '.[0].id | debug'], { env: serviceEnv() });
    expect(plain).toMatchObject({ code: 0, stdout: '9007199254740993\n', stderr: 'warning: jq: ["DEBUG:",9007199254740993]\n' });
    const json = await run(['list', '--json', '--jq', '.[0].id | debug'], { env: serviceEnv() });
    expect(json.stderr).toBe('{"warning":"jq: [\\"DEBUG:\\",9007199254740993]","code":"jq_message"}\n');
  });

  test("input past the last input: jq's message, not the 'break' jq-wasm's jq reports", async () => {
    listOnce();
    const r = await run(['list', '--jq', 'input'], { env: serviceEnv() });
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: --jq: No more inputs\n', unmatched: [] });
  });

  test('terminal safety: raw strings lose escape sequences on a terminal only; JSON keeps C1 controls escaped', async () => {
    const body = '[{"id":1,"name":"a\\u001b[31mred\\u0085","categoryId":1}]';
    listOnce(body);
    listOnce(body);
    const piped = await run(['list', '--jq', '.[0].name, .[0]'], { env: serviceEnv() });
    expect(piped.stdout).toBe('a\u001b[31mred\u0085\n{"id":1,"name":"a\\u001b[31mred\\u0085","categoryId":1}\n');
    const tty = await run(['list', '--jq', '.[0].name'], { env: serviceEnv(), stdoutIsTTY: true });
    expect(tty.stdout).toBe('ared \n');
  });
});

describe("$ENV and env are the run's environment, as in jq (not the WebAssembly runtime's stand-in)", () => {
  test('list: $ENV.HOME, env.HOME and a variable of the run; the keys are exactly those of the run (no USER=web_user)', async () => {
    listOnce();
    const r = await run(['list', '--jq', '$ENV.HOME, env.HOME, $ENV.PETSTORE_TEST, (env | keys)'], {
      env: serviceEnv({ HOME: '/home/tester', PETSTORE_TEST: 'a b=ü' }),
    });
    expect(r).toEqual({
      code: 0,
      stdout: '/home/tester\n/home/tester\na b=ü\n["HOME","PETSTORE_API_KEY","PETSTORE_BASE_URL","PETSTORE_TEST","XDG_CONFIG_HOME"]\n',
      stderr: '',
      unmatched: [],
    });
  });

  test('two runs with other environments each see their own', async () => {
    for (const home of ['/home/one', '/home/two', '/home/one']) {
      listOnce();
      expect(await run(['list', '--jq', 'env.HOME'], { env: serviceEnv({ HOME: home }) })).toMatchObject({ code: 0, stdout: `${home}\n` });
    }
  });

  test('add --file and api: the same', async () => {
    const service = await startPetService({ key: 'k', seed: false });
    try {
      const env = { PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k', HOME: '/home/bulk' };
      const bulk = await run(['add', '--file', '-', '--jq', '"\\(.name) \\($ENV.HOME)"'], { env, stdin: '{"name":"a","categoryId":1}\n' });
      expect(bulk).toMatchObject({ code: 0, stdout: 'a /home/bulk\n' });
      const api = await run(['api', '/pets', '--jq', '[length, env.HOME]'], { env });
      expect(api).toMatchObject({ code: 0, stdout: '[1,"/home/bulk"]\n', stderr: '' });
    } finally {
      await service.close();
    }
  });

  // The environment reaches jq as a binding put before the expression (src/output/jq.ts): nothing else may show it.
  test("$ARGS is jq's own without arguments (the environment is not in it); $__loc__ is the expression's line", async () => {
    listOnce();
    const r = await run(['list', '--jq', '$ARGS, $__loc__'], { env: serviceEnv() });
    expect(r).toEqual({ code: 0, stdout: '{"positional":[],"named":{}}\n{"file":"<top-level>","line":1}\n', stderr: '', unmatched: [] });
  });

  test('a program that begins with a module directive, which the binding must follow, is refused: exit 2, before any request', async () => {
    const r = await run(['list', '--jq', 'module {a:1}; .'], { env: serviceEnv() });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: wrapped(
        'error: invalid --jq expression: syntax error, unexpected module at <top-level>, line 1, column 81:\n' +
          '    $__petstore_env as $ENV | {positional: [], named: {}} as $ARGS | def env: $ENV; module {a:1}; .\n' +
          `    ${' '.repeat(80)}^^^^^^\n`,
      ),
      unmatched: [],
    });
  });
});

describe('--jq on add --file (each created pet, batch by batch)', () => {
  test('every created pet goes through jq; ids above 2^53 exact; the summary stays on stderr', async () => {
    const service = await startPetService({ key: 'k', seed: false, firstId: 9007199254740993n });
    try {
      const input = Array.from({ length: 5 }, (_, i) => `{"name":"p${i}","categoryId":${i}}`).join('\n');
      const r = await run(['add', '--file', '-', '--concurrency', '1', '--jq', '"\\(.id) \\(.name)"'], {
        env: { PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k' },
        stdin: input,
      });
      expect(r).toMatchObject({
        code: 0,
        stdout: [0, 1, 2, 3, 4].map((i) => `${9007199254740993n + BigInt(i)} p${i}\n`).join(''),
        stderr: 'created 5 of 5 pets; 0 failed\n',
      });
    } finally {
      await service.close();
    }
  });

  test("a runtime error on one pet: the others print, every pet is created, exit 1 with jq's message", async () => {
    const service = await startPetService({ key: 'k', seed: false });
    try {
      const r = await run(
        ['add', '--file', '-', '--concurrency', '1', '--jq', 'if .name == "b" then error("bad \\(.name)") else .name end'],
        {
          env: { PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k' },
          stdin: '{"name":"a","categoryId":1}\n{"name":"b","categoryId":1}\n{"name":"c","categoryId":1}\n',
        },
      );
      expect(r).toMatchObject({ code: 1, stdout: 'a\nc\n', stderr: 'created 3 of 3 pets; 0 failed\nerror: --jq: bad b\n' });
      expect(service.pets.size).toBe(3);
    } finally {
      await service.close();
    }
  });
});

describe('a run that does not end (jq runs in a worker thread)', () => {
  test('Ctrl-C ends it: exit 130, nothing printed', async () => {
    const answered = listOnce();
    const stop = new AbortController();
    // The run's own thread: its environment (a fresh config folder) is no earlier run's.
    const started = new Promise<Worker>((resolve) => process.once('worker', resolve));
    const running = run(['list', '--jq', 'repeat(1)'], { env: serviceEnv(), signal: stop.signal });
    const thread = await started;
    await until(() => answered.isDone());
    // Ctrl-C once jq runs on the answer: the thread's event loop has been busy since.
    const since = thread.performance.eventLoopUtilization();
    await until(() => thread.performance.eventLoopUtilization(since).active >= 100);
    stop.abort(new InterruptedError('SIGINT'));
    expect(await running).toEqual({ code: 130, stdout: '', stderr: '', unmatched: [] });
  });

  test('the deadline of the whole command ends it: exit 1 naming --timeout; the next run starts a new thread', async () => {
    listOnce();
    const r = await run(['list', '--timeout', '2000', '--jq', 'def f: f; f'], { env: serviceEnv() });
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: --jq timed out after 2000 ms (--timeout)\n', unmatched: [] });
    listOnce();
    const next = await run(['list', '--jq', '.[1].name'], { env: serviceEnv() });
    expect(next).toEqual({ code: 0, stdout: 'Tom\n', stderr: '', unmatched: [] });
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
        listOnce();
        expect(await run(['list', '--jq', '.[0].name'], { env: serviceEnv(), configHome })).toMatchObject({ code: 0, stdout: 'Rex\n' });
      }
    } finally {
      process.off('worker', onWorker);
    }
    expect(started).toHaveLength(2);
    await until(() => exited.size === 2);
  });
});
