// How an error reaches the user (issue 21 item 8): --verbose shows the
// requests and never a stack trace for an expected failure; stack traces
// belong to PETSTORE_DEBUG=1 and to unexpected failures (bugs). What main reports, so main runs here, with the fake client.
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { main } from '../src/main.js';
import { errorBody, PET, wrapped } from './helpers.js';
import { fakeClientFactory } from './support/fake-client.js';

/** --verbose's request lines for `list`, the response time as N (it varies). */
const LIST_REQUEST_LINES =
  '* environment production, base URL https://petstore.example/v1/ (from PETSTORE_BASE_URL), key from environment variable\n' +
  '> GET https://petstore.example/v1/pets?limit=20\n' +
  '> authorization: Bearer [redacted]\n' +
  '> accept: application/json\n' +
  '> user-agent: petstore/1.2.3\n';

const KEY_HINT = 'The key came from PETSTORE_API_KEY: check it, or unset it and log in:\n  petstore auth login\n';

const withoutTimes = (stderr: string) => stderr.replace(/^< HTTP (\d+) \(\d+ ms, /gm, '< HTTP $1 (N ms, ');

/** The lines of a stack trace as petstore prints them: the error's name and message, then `    at` frames. */
function expectStack(lines: string[], header: string): void {
  expect(lines[0]).toBe(header);
  expect(lines.length).toBeGreaterThan(1);
  for (const line of lines.slice(1)) expect(line).toMatch(/^ {4}at /);
}

/** `list` (answered with one pet) whose stdout throws what no stream throws: an unexpected failure. */
async function listWithBrokenStdout(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const fake = fakeClientFactory({ env });
  fake.answer('GET', '/v1/pets?limit=20', 200, JSON.stringify([PET]));
  let stderr = '';
  const code = await main(['list', ...argv], {
    io: {
      stdout: {
        write: () => {
          throw new TypeError('boom');
        },
      },
      stderr: { write: (text: string) => (stderr += text) },
      stdin: Readable.from([]),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
    },
    env: fake.f.env,
    version: '1.2.3',
    seams: { dispatcher: fake.dispatcher },
  });
  return { code, stderr: withoutTimes(stderr) };
}

describe('stack traces', () => {
  test('--verbose on a 401: the requests, the error and its hint; no stack trace', async () => {
    const fake = fakeClientFactory();
    fake.answer('GET', '/v1/pets?limit=20', 401, JSON.stringify(errorBody(401, 'unauthorized', 'bad key')));
    const r = await fake.main(['list', '--verbose']);
    expect({ code: r.code, stdout: r.stdout, stderr: withoutTimes(r.stderr) }).toEqual({
      code: 4,
      stdout: '',
      // The --verbose lines are a log, as sent and received: never wrapped.
      stderr: `${LIST_REQUEST_LINES}< HTTP 401 (N ms, 56 bytes)\n${wrapped(`error: bad key (HTTP 401, code unauthorized)\n${KEY_HINT}`)}`,
    });
  });

  test('--verbose on a 404 of get, with --json: JSON lines only, and none is a stack', async () => {
    const fake = fakeClientFactory({ env: { PETSTORE_NO_DEPRECATION_WARNING: '1' } });
    fake.answer('GET', '/v1/pets/99', 404, JSON.stringify(errorBody(404, 'not_found', 'no animal with id 99')));
    const r = await fake.main(['get', '99', '--json', '--verbose']);
    expect(r.code).toBe(3);
    const lines = r.stderr
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.at(-1)).toEqual({ code: 'not_found', message: 'no animal with id 99', status: 404 });
    expect(lines.slice(0, -1).every((line) => Object.keys(line).join() === 'debug')).toBe(true);
  });

  test('PETSTORE_DEBUG=1 on a 401: the error, its hint, then the stack trace', async () => {
    const fake = fakeClientFactory({ env: { PETSTORE_DEBUG: '1' } });
    fake.answer('GET', '/v1/pets?limit=20', 401, JSON.stringify(errorBody(401, 'unauthorized', 'bad key')));
    const r = await fake.main(['list']);
    expect(r.code).toBe(4);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.slice(0, 3).join('\n')).toBe(wrapped(`error: bad key (HTTP 401, code unauthorized)\n${KEY_HINT.trimEnd()}`));
    expectStack(lines.slice(3), 'ServiceError: bad key (HTTP 401, code unauthorized)');
  });

  test('PETSTORE_DEBUG=1 with --json: the stack trace is one more JSON object', async () => {
    const fake = fakeClientFactory({ env: { PETSTORE_NO_DEPRECATION_WARNING: '1', PETSTORE_DEBUG: '1' } });
    fake.answer('GET', '/v1/pets/99', 404, JSON.stringify(errorBody(404, 'not_found', 'no animal with id 99')));
    const r = await fake.main(['get', '99', '--json']);
    expect(r.code).toBe(3);
    const [error, stack, ...rest] = r.stderr
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rest).toEqual([]);
    expect(error).toEqual({ code: 'not_found', message: 'no animal with id 99', status: 404 });
    expect(Object.keys(stack)).toEqual(['stack']);
    expectStack(stack.stack.split('\n'), 'ServiceError: no animal with id 99 (HTTP 404, code not_found)');
  });

  describe('an unexpected failure', () => {
    test('plain: one line and how to see more', async () => {
      expect(await listWithBrokenStdout([])).toEqual({
        code: 1,
        stderr: 'error: unexpected failure: boom\nRun again with --verbose or PETSTORE_DEBUG=1 for details.\n',
      });
    });

    test('--verbose: the requests, the line, then the stack trace', async () => {
      const r = await listWithBrokenStdout(['--verbose']);
      expect(r.code).toBe(1);
      const head = `${LIST_REQUEST_LINES}< HTTP 200 (N ms, 59 bytes)\nerror: unexpected failure: boom\n`;
      expect(r.stderr.slice(0, head.length)).toBe(head);
      expectStack(r.stderr.slice(head.length).trimEnd().split('\n'), 'TypeError: boom');
    });

    test('PETSTORE_DEBUG=1: the line, then the stack trace', async () => {
      const r = await listWithBrokenStdout([], { PETSTORE_DEBUG: '1' });
      expect(r.code).toBe(1);
      const [first, ...stack] = r.stderr.trimEnd().split('\n');
      expect(first).toBe('error: unexpected failure: boom');
      expectStack(stack, 'TypeError: boom');
    });
  });
});

describe('with --json, the error carries the hint the plain message prints', () => {
  /** Each failure: its arguments, its environment (beyond the fake client's base URL and key), the answer to its request (if any), the plain stderr. */
  const cases: Array<{ name: string; argv: string[]; env: NodeJS.ProcessEnv; reply?: [number, unknown]; code: number; plain: string }> = [
    {
      name: 'a 401',
      argv: ['list'],
      env: {},
      reply: [401, errorBody(401, 'unauthorized', 'bad key')],
      code: 4,
      plain: `error: bad key (HTTP 401, code unauthorized)\n${KEY_HINT}`,
    },
    {
      name: 'no base URL',
      argv: ['list'],
      env: { PETSTORE_BASE_URL: undefined, PETSTORE_API_KEY: undefined },
      code: 2,
      plain:
        'error: no base URL configured for environment "production"\n' +
        'Set one (or pass --base-url, or set PETSTORE_BASE_URL):\n  petstore config set base-url <url>\n',
    },
    {
      name: 'no key',
      argv: ['list', '--env', 'staging'],
      env: { PETSTORE_API_KEY: undefined },
      code: 4,
      plain: 'error: no API key for environment "staging"\nLog in (or set PETSTORE_API_KEY):\n  petstore auth login --env staging\n',
    },
    {
      name: 'an unknown flag',
      argv: ['list', '--bogus'],
      env: {},
      code: 2,
      plain: 'error: unknown flag "--bogus" for "petstore list"\nFor its flags, run:\n  petstore list --help\n',
    },
  ];

  test.each(cases)('$name', async ({ argv, env, reply, code, plain }) => {
    const fake = fakeClientFactory({ env });
    const answer = () => reply && fake.answer('GET', '/v1/pets?limit=20', reply[0], JSON.stringify(reply[1]));
    answer();
    expect(await fake.main(argv)).toEqual({ code, stdout: '', stderr: plain, unmatched: [] });
    answer();
    const json = await fake.main([...argv, '--json']);
    expect({ ...json, stderr: json.stderr.split('\n').map((line) => line && JSON.parse(line)) }).toEqual({
      code,
      stdout: '',
      stderr: [expect.objectContaining({ hint: plainHint(plain) }), ''],
      unmatched: [],
    });
  });

  /** The hint lines of a plain error: the lines after the error line, or the parenthesis that ends a usage error. */
  function plainHint(plain: string): string {
    const [first, ...rest] = plain.trimEnd().split('\n');
    return rest.length > 0 ? rest.join('\n') : (/ \((run .*)\)$/.exec(first!)?.[1] ?? '');
  }

  test('an error without a hint has no hint field', async () => {
    const fake = fakeClientFactory({ env: { PETSTORE_NO_DEPRECATION_WARNING: '1' } });
    fake.answer('GET', '/v1/pets/99', 404, JSON.stringify(errorBody(404, 'not_found', 'no animal with id 99')));
    const r = await fake.main(['get', '99', '--json']);
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr: '{"code":"not_found","message":"no animal with id 99","status":404}\n',
      unmatched: [],
    });
  });

  test('an unexpected failure: how to see more', async () => {
    expect(await listWithBrokenStdout(['--json'])).toEqual({
      code: 1,
      stderr:
        '{"code":"internal_error","message":"boom","status":null,"hint":"Run again with --verbose or PETSTORE_DEBUG=1 for details."}\n',
    });
  });
});

describe('a long Error message of the service: an excerpt in plain output, all of it with --json', () => {
  /** `words` words of the form w1 w2 …, as one message. */
  const words = (count: number) => Array.from({ length: count }, (_, i) => `w${i + 1}`).join(' ');

  async function listAnswered(message: string, json: boolean) {
    const fake = fakeClientFactory();
    fake.answer('GET', '/v1/pets?limit=20', 500, JSON.stringify(errorBody(500, 'internal', message)));
    return fake.main(['list', ...(json ? ['--json'] : [])]);
  }

  test('over 1000 characters: about the first 300, cut at a space, and how many more --json shows', async () => {
    const message = words(1000); // 4892 characters
    const shown = words(77); // 298 characters: w78 would end past the 300th
    expect(await listAnswered(message, false)).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped(`error: ${shown}… (${message.length - shown.length} more characters; --json shows all) (HTTP 500, code internal)\n`),
      unmatched: [],
    });
    expect(await listAnswered(message, true)).toEqual({
      code: 1,
      stdout: '',
      stderr: `${JSON.stringify({ code: 'internal', message, status: 500 })}\n`,
      unmatched: [],
    });
  });

  test('1000 characters, counted as characters (an emoji is one): printed whole', async () => {
    const message = `${'🐕'.repeat(500)}${'x'.repeat(500)}`;
    expect((await listAnswered(message, false)).stderr).toBe(wrapped(`error: ${message} (HTTP 500, code internal)\n`));
  });

  test('one long word: cut at 300 characters, never inside a character', async () => {
    const message = '🐕'.repeat(1001);
    expect((await listAnswered(message, false)).stderr).toBe(
      wrapped(`error: ${'🐕'.repeat(300)}… (701 more characters; --json shows all) (HTTP 500, code internal)\n`),
    );
  });
});
