// What a user reads at 80 and 60 columns, run in-process (a terminal of that
// width, or stderr piped: 80): every message, hint and help line fits,
// broken between words and never inside one; a hint's command stands on a
// line of its own, continued with ` \` at a space where it is too wide (so that
// what is copied runs as one command); "(default: 8)" is never split and help puts no two
// brackets in a row; with --json a message stays one JSON line however long.
// One style for a mistyped command and a mistyped flag, long or short.
// (The pseudo-terminal's own checks: pty-width.test.ts, pty-add-prompt.test.ts.)
import nock from 'nock';
import { describe, expect, test } from 'vitest';
import { GET_DEPRECATION_JSON, GET_DEPRECATION_WARNING, SILENCE_HINT } from '../src/commands/get/deprecation.js';
import { columnsOf } from '../src/terminal/wrap.js';
import { BASE, errorBody, run, serviceEnv, tempConfigHome, unwrapped, wrapped } from './helpers.js';

/** The words of text, whatever its line breaks. */
const words = (text: string) => text.split(/\s+/).filter(Boolean);

/** Every line of `text` fits `width` columns. */
function expectFits(text: string, width: number) {
  for (const line of text.split('\n')) expect(columnsOf(line), line).toBeLessThanOrEqual(width);
}

/** The commands of a hint, each as one line: its ` \` continuations joined, as the shell joins them when they are pasted. */
const commandsOf = (text: string) =>
  text
    .replace(/ \\\n {6}(?=\S)/g, ' ')
    .split('\n')
    .filter((line) => line.startsWith('  petstore '));

/** Runs `argv` with stdout and stderr a terminal of `columns`, or piped (`columns` undefined). */
const at = (argv: string[], columns: number | undefined, env: NodeJS.ProcessEnv = {}) =>
  run(argv, { env, ...(columns === undefined ? {} : { stdoutIsTTY: true, columns }) });

describe.each([
  ['a terminal of 80 columns', 80, 80],
  ['a terminal of 60 columns', 60, 60],
  ['stderr piped (80 columns)', undefined, 80],
])('at %s', (_where, columns, width) => {
  test('a hint names its command on a line of its own, continued with " \\" where too long (a long URL or environment name); every line fits', async () => {
    const r = await at(['list'], columns, { PETSTORE_ENV: 'staging', PETSTORE_BASE_URL: 'https://api.petstore.test/v1' });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(
      'error: no API key for environment "staging"\nLog in (or set PETSTORE_API_KEY):\n  petstore auth login --env staging\n',
    );
    const home = tempConfigHome();
    const login = await run(['auth', 'login', '--with-token', '--skip-verify'], {
      configHome: home,
      env: { PETSTORE_BASE_URL: 'https://api.petstore.test/v1' },
      stdin: 'key\n',
    });
    expect(login.code).toBe(0);
    const tty = columns === undefined ? {} : { stdoutIsTTY: true, columns };
    // A long base URL, or the sandbox's at 60 columns: the command continues with " \\" between words.
    for (const url of ['https://other.petstore.test/v1', 'https://petstore-staging.internal.example.com/v1', 'http://127.0.0.1:4010/v1']) {
      const other = await run(['list', '--base-url', url], { configHome: home, ...tty });
      expect(other.code).toBe(4);
      expectFits(other.stderr, width);
      // Each command of the hint, its continuations joined: what a user copies runs as it is.
      expect(commandsOf(other.stderr)).toEqual([
        `  petstore auth login --base-url ${url}/`,
        `  petstore config set base-url ${url}/ --env <name>`,
        '  petstore auth login --env <name>',
      ]);
    }
    const env = 'my-very-long-environment-name-for-testing';
    const unknown = await run(['list', '--env', env], { configHome: home, ...tty });
    expect(unknown.code).toBe(2);
    expectFits(unknown.stderr, width);
    expect(commandsOf(unknown.stderr)).toEqual([`  petstore config set base-url <url> --env ${env}`]);
  });

  test("--help's exit codes: each code on the line of its meaning; --verbose's prose wrapped at a terminal, one line when piped", async () => {
    const help = await at(['--help'], columns);
    expectFits(help.stdout, width);
    for (const line of ['  129  hung up (SIGHUP)', '  130  interrupted (Ctrl-C)', '  143  terminated (SIGTERM)'])
      expect(help.stdout.split('\n')).toContain(line);
    const origin = 'https://petstore-staging.internal.example.com';
    nock(origin).get('/v1/pets').query({ limit: 20 }).reply(200, []);
    const verbose = await at(['list', '--verbose'], columns, { PETSTORE_BASE_URL: `${origin}/v1`, PETSTORE_API_KEY: 'key' });
    expect(verbose.code).toBe(0);
    const prose = `* environment production, base URL ${origin}/v1/ (from PETSTORE_BASE_URL), key from environment variable`;
    if (columns === undefined) expect(verbose.stderr.split('\n')).toContain(prose);
    else {
      // A request's lines (`> GET https://...`) stay as sent, as curl -v prints them.
      expectFits(verbose.stderr.replace(/^[<>].*\n/gm, ''), width);
      expect(unwrapped(verbose.stderr)).toContain(prose);
    }
  });

  test("get's deprecation warning and a 401's hint: broken between words, the error's words the same as with --json", async () => {
    nock(BASE)
      .get('/v1/pets/1')
      .reply(401, errorBody(401, 'unauthorized', 'the key is not valid for this store'));
    const r = await at(['get', '1'], columns, serviceEnv());
    expect(r.code).toBe(4);
    expectFits(r.stderr, width);
    nock(BASE)
      .get('/v1/pets/1')
      .reply(401, errorBody(401, 'unauthorized', 'the key is not valid for this store'));
    const json = await at(['get', '1', '--json'], columns, serviceEnv());
    const [warning, error] = json.stderr
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    // The --json lines are one line each, however long.
    expect(json.stderr.trimEnd().split('\n')).toHaveLength(2);
    expect(json.stderr.split('\n')[0]!.length).toBeGreaterThan(width);
    expect(words(r.stderr)).toEqual(
      words(`warning: ${GET_DEPRECATION_WARNING} ${SILENCE_HINT} error: ${error.message} (HTTP 401, code unauthorized) ${error.hint}`),
    );
    // The warning's JSON line is its short form, within 100 columns (issue 37, item 5).
    expect(warning).toEqual({ ...GET_DEPRECATION_JSON, code: 'deprecated_operation' });
    expect(r.stderr).toContain('\n  petstore auth login\n');
  });

  test('a mistyped command and a mistyped flag, long or short, in one style: the suggestion, then the help to run', async () => {
    const expected = {
      lisst: 'error: unknown command "lisst" for "petstore"; did you mean "list"?\nFor its commands, run:\n  petstore --help\n',
      '--stauts':
        'error: unknown flag "--stauts" for "petstore list"; did you mean "--status"?\nFor its flags, run:\n  petstore list --help\n',
      '-s': 'error: unknown flag "-s" for "petstore list"; did you mean "--status"?\nFor its flags, run:\n  petstore list --help\n',
    };
    for (const [argv, message] of [
      [['lisst', '--status', 'available'], expected.lisst],
      [['list', '--stauts', 'available'], expected['--stauts']],
      [['list', '--stauts=available'], expected['--stauts']],
      [['list', '-s', 'available'], expected['-s']],
    ] as const) {
      const r = await at([...argv], columns);
      expect(r.code, argv.join(' ')).toBe(2);
      expectFits(r.stderr, width);
      expect(words(r.stderr), argv.join(' ')).toEqual(words(message));
    }
  });

  test('--limit above 100 points to --all; help keeps "(default: 8)" whole and puts no bracket after another', async () => {
    const limit = await at(['list', '--limit', '1000'], columns);
    expect(limit.code).toBe(2);
    expectFits(limit.stderr, width);
    expect(words(limit.stderr)).toEqual(
      words(
        'error: invalid value for --limit: "1000": must be a whole number from 1 to 100, the most one page holds; --all lists every page',
      ),
    );
    const help = await at(['add', '--help'], columns);
    expectFits(help.stdout, width);
    expect(help.stdout).toMatch(/\(default: 8\)/);
    expect(help.stdout).not.toMatch(/\(default:\n/);
    expect(help.stdout.replace(/\s+/g, ' ')).not.toMatch(/\) \(/);
  });
});

describe('short flags', () => {
  test.each([
    [['add', '-c', '1'], 'add', '; did you mean "--category-id" or "--concurrency"?'],
    [['api', '-x', 'GET', '/pets'], 'api', '; did you mean "-X"?'],
    [['list', '-q'], 'list', ''],
  ])('%j: the flags it may stand for, or none', async (argv, command, meant) => {
    expect(await run(argv)).toMatchObject({
      code: 2,
      stdout: '',
      stderr: wrapped(
        `error: unknown flag "${argv[1]}" for "petstore ${command}"${meant}\nFor its flags, run:\n  petstore ${command} --help\n`,
      ),
    });
  });

  test('with --json the unknown flag is one JSON line, its hint the command to run', async () => {
    const r = await run(['list', '-s', 'available', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(JSON.parse(r.stderr)).toEqual({
      code: 'unknown_flag',
      message: 'unknown flag "-s" for "petstore list"; did you mean "--status"?',
      status: null,
      hint: 'For its flags, run:\n  petstore list --help',
    });
  });
});
