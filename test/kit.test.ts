// The kit a new command is made of (docs/design.md), through the two test-only commands of test/support/kit-commands.ts: confirm
// (asked at a terminal, --yes, refused where no one can answer, Ctrl-C, no), a 204 through sendExpectingStatus, a declared not-found, and a
// paged listing of a schema of its own. In-process: the fake client (MockAgent), or main for the exit code and stderr.
import { describe, expect, test } from 'vitest';
import { ADD } from '../src/commands/add/run.js';
import { runCommand } from '../src/commands/runner.js';
import { ExitCode } from '../src/errors.js';
import { parseCommand, refusedBeforeRun, run, serviceEnv, wrapped } from './helpers.js';
import { fakeClientFactory } from './support/fake-client.js';
import { newThingsCommand, newZapCommand, THINGS, ZAP } from './support/kit-commands.js';
import stripAnsi from 'strip-ansi';

const NOT_FOUND = JSON.stringify({ code: 'not_found', message: 'no animal with id 5', status: 404 });

/** What a run of `zap` threw, or undefined; the fake client is closed (every answer set up was asked for). */
async function zap(fake: ReturnType<typeof fakeClientFactory>, flags: Record<string, unknown> = {}): Promise<unknown> {
  try {
    await runCommand(fake.f, ZAP, { flags, arguments: ['5'] });
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await fake.close();
  }
}

describe('confirm: a question before a change', () => {
  test('at a terminal: the question on stderr, default no; "y" sends the DELETE and says so', async () => {
    const fake = fakeClientFactory({ terminal: { answers: ['y'] } });
    fake.answer('DELETE', '/v1/pets/5', 204, '');
    expect(await zap(fake)).toBeUndefined();
    expect(fake.requests).toEqual([{ method: 'DELETE', path: '/v1/pets/5', authorization: 'Bearer test-key' }]);
    expect(stripAnsi(fake.written.stderr)).toContain('? Delete pet 5? (y/N)');
    expect(fake.written.stderr).toMatch(/Delete pet 5\? Yes[^\n]*\n[\s\S]*Deleted pet 5\n$/);
    expect(fake.written.stdout).toBe('');
  });

  test.each([
    ['n', 'no'],
    ['', 'Enter alone (the default)'],
  ])('answered "%s" (%s): exit 1, code declined, nothing sent', async (answer) => {
    const fake = fakeClientFactory({ terminal: { answers: [answer] } });
    const error = await zap(fake);
    expect(error).toMatchObject({
      exitCode: ExitCode.failure,
      code: 'declined',
      message: 'the answer to "Delete pet 5?" was no: nothing was done',
    });
    expect(fake.requests).toEqual([]);
    expect(fake.written.stderr).toContain('Delete pet 5? No');
  });

  test('Ctrl-C at the question: exit 130, nothing sent', async () => {
    const fake = fakeClientFactory({ terminal: { answers: ['\u0003'] } });
    expect(await zap(fake)).toMatchObject({ exitCode: ExitCode.interrupted, code: 'interrupted' });
    expect(fake.requests).toEqual([]);
  });

  test('--yes: no question, the DELETE at once, also where stdin is no terminal', async () => {
    for (const terminal of [undefined, { answers: [] }]) {
      const fake = fakeClientFactory({ terminal });
      fake.answer('DELETE', '/v1/pets/5', 204, '');
      expect(await zap(fake, { yes: true })).toBeUndefined();
      expect(fake.requests).toHaveLength(1);
      expect(fake.written.stderr).toBe('Deleted pet 5\n');
    }
  });

  test.each<[string, Record<string, unknown>, NodeJS.ProcessEnv, boolean, string]>([
    ['stdin piped', {}, {}, false, 'standard input is not a terminal'],
    ['--no-prompt at a terminal', { prompt: false }, {}, true, '--no-prompt'],
    ['PETSTORE_NO_PROMPT=1 at a terminal', {}, { PETSTORE_NO_PROMPT: '1' }, true, 'PETSTORE_NO_PROMPT=1'],
  ])('%s without --yes: a usage error naming --yes, exit 2, nothing asked or sent', async (_, flags, env, terminal, why) => {
    const fake = fakeClientFactory({ env, ...(terminal ? { terminal: {} } : {}) });
    expect(await zap(fake, flags)).toMatchObject({
      exitCode: ExitCode.usage,
      message: `--yes is required to answer "Delete pet 5?" here (${why})`,
    });
    expect(fake.requests).toEqual([]);
    expect(fake.written.stderr).toBe('');
  });

  test('through main, piped: exit 2, the one error line naming --yes, nothing sent', async () => {
    const r = await run(['zap', '5'], { env: serviceEnv(), commands: [(f) => newZapCommand(f)] });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: wrapped('error: --yes is required to answer "Delete pet 5?" here (standard input is not a terminal)\n'),
      unmatched: [],
    });
  });

  test('--yes and --no-prompt reach the run as commander parses them', async () => {
    const r = await parseCommand(newZapCommand, ['zap', '5', '--yes', '--no-prompt']);
    expect(r.reached).toEqual([{ options: { petId: 5n, yes: true, prompt: false } }]);
    expect(await parseCommand(newZapCommand, ['zap', 'x'])).toMatchObject({ code: 2, reached: [] });
  });
});

describe('a 204 and a declared not-found (sendExpectingStatus)', () => {
  test('a 404 with an Error body is no such animal: the service words, exit 3', async () => {
    const fake = fakeClientFactory();
    fake.answer('DELETE', '/v1/pets/5', 404, NOT_FOUND);
    expect(await zap(fake, { yes: true })).toMatchObject({
      exitCode: ExitCode.notFound,
      message: 'no animal with id 5 (HTTP 404, code not_found)',
    });
  });

  test.each(['Not Found', 'no route DELETE /pets/5'])(
    'a 404 whose Error says "%s" is still no such animal (exit 3): the words decide nothing',
    async (message) => {
      const fake = fakeClientFactory();
      fake.answer('DELETE', '/v1/pets/5', 404, JSON.stringify({ code: 'not_found', message, status: 404 }));
      expect(await zap(fake, { yes: true })).toMatchObject({ exitCode: ExitCode.notFound, serviceMessage: message });
    },
  );

  test('a 404 without an Error body: "no such animal", exit 3, with the base URL to check', async () => {
    const fake = fakeClientFactory();
    fake.answer('DELETE', '/v1/pets/5', 404, 'gone');
    const error = await zap(fake, { yes: true });
    expect(error).toMatchObject({
      exitCode: ExitCode.notFound,
      code: 'http_404',
      message: 'no such animal: the service answered HTTP 404 (application/json): "gone"',
      hint: expect.stringMatching(/^Check the base URL https:\/\/petstore\.example\/v1/),
    });
  });

  test('an answer other than the 204 expected: 200 is unexpected (exit 1), 401 exit 4', async () => {
    const fake = fakeClientFactory();
    fake.answer('DELETE', '/v1/pets/5', 200, '{}');
    expect(await zap(fake, { yes: true })).toMatchObject({ exitCode: ExitCode.failure, code: 'unexpected_response' });
    const denied = fakeClientFactory();
    denied.answer('DELETE', '/v1/pets/5', 401, JSON.stringify({ code: 'unauthorized', message: 'bad key', status: 401 }));
    expect(await zap(denied, { yes: true })).toMatchObject({ exitCode: ExitCode.auth });
  });
});

describe('pagedListing: a paged listing of any schema, in its own noun', () => {
  const page = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: i + 1, label: `t${i + 1}` })));

  test('a full page of the default limit warns in the command noun and suggests --limit max', async () => {
    const fake = fakeClientFactory();
    fake.answer('GET', '/v1/things?limit=2', 200, page(2));
    await runCommand(fake.f, THINGS);
    await fake.close();
    expect(fake.written).toEqual({
      stdout: '1\tt1\n2\tt2\n',
      stderr: wrapped('warning: showing 2 things, as many as --limit 2 asks for; the service may have more: try --limit 5\n'),
    });
  });

  test('a page short of the limit is the whole listing: no warning', async () => {
    const fake = fakeClientFactory();
    fake.answer('GET', '/v1/things?limit=5', 200, page(1));
    await runCommand(fake.f, THINGS, { flags: { limit: '5' } });
    await fake.close();
    expect(fake.written).toEqual({ stdout: '1\tt1\n', stderr: '' });
  });

  test('a next link not followed says "one page of"; --all follows it (limit max) to the end', async () => {
    const link = { link: '<https://petstore.example/v1/things?limit=5&page=2>; rel="next"', 'content-type': 'application/json' };
    const one = fakeClientFactory();
    one.service.intercept({ method: 'GET', path: '/v1/things?limit=2' }).reply(200, page(2), { headers: link });
    await runCommand(one.f, THINGS);
    await one.close();
    expect(one.written.stderr).toBe(wrapped('warning: showing one page of 2 things; the service has more: --all fetches every page\n'));
    const all = fakeClientFactory({ globals: { json: true } });
    all.service.intercept({ method: 'GET', path: '/v1/things?limit=5' }).reply(200, page(5), { headers: link });
    all.answer('GET', '/v1/things?limit=5&page=2', 200, JSON.stringify([{ id: 6, label: 't6' }]));
    await runCommand(all.f, THINGS, { flags: { all: true } });
    await all.close();
    expect(all.written.stdout).toBe(
      '[{"id":1,"label":"t1"},{"id":2,"label":"t2"},{"id":3,"label":"t3"},{"id":4,"label":"t4"},{"id":5,"label":"t5"},{"id":6,"label":"t6"}]\n',
    );
    expect(all.written.stderr).toBe('');
  });

  test('a record its keyOf saw on an earlier page is printed once, and the repeats are said in the noun', async () => {
    const link = { link: '<https://petstore.example/v1/things?limit=5&page=2>; rel="next"', 'content-type': 'application/json' };
    const fake = fakeClientFactory();
    fake.service.intercept({ method: 'GET', path: '/v1/things?limit=5' }).reply(200, page(5), { headers: link });
    fake.answer(
      'GET',
      '/v1/things?limit=5&page=2',
      200,
      JSON.stringify([
        { id: 5, label: 't5' },
        { id: 6, label: 't6' },
      ]),
    );
    await runCommand(fake.f, THINGS, { flags: { all: true } });
    await fake.close();
    expect(fake.written).toEqual({
      stdout: '1\tt1\n2\tt2\n3\tt3\n4\tt4\n5\tt5\n6\tt6\n',
      stderr: wrapped(
        'warning: left out 1 thing already printed: the store changed while it was read (anything added or removed meanwhile may be missing)\n',
      ),
    });
  });

  test('--limit is checked against the bounds before any request, naming the flag', async () => {
    expect(await parseCommand(newThingsCommand, ['things', 'list', '--limit', '6'])).toEqual(
      refusedBeforeRun('invalid value for --limit: "6": must be a whole number from 1 to 5'),
    );
    expect((await parseCommand(newThingsCommand, ['things', 'list', '--all'])).reached).toEqual([
      { options: { limit: 5, all: true }, output: { format: 'tsv' } },
    ]);
  });
});

describe("the fake client's terminal", () => {
  test("types each answer when its prompt starts reading: add's three prompts, then the POST", async () => {
    const fake = fakeClientFactory({ terminal: { answers: ['Rex', '7', ''] } });
    fake.answer('POST', '/v1/pets', 201, '{"id":1,"name":"Rex","categoryId":7,"status":"available"}');
    await runCommand(fake.f, ADD);
    await fake.close();
    expect(fake.requests).toEqual([{ method: 'POST', path: '/v1/pets', authorization: 'Bearer test-key' }]);
    expect(stripAnsi(fake.written.stderr)).toMatch(/Name Rex[\s\S]*Category id \(an int64\) 7[\s\S]*Status available/);
    expect(fake.written.stdout).toBe('id:         1\nname:       Rex\ncategoryId: 7\nstatus:     available\n');
  });
});
