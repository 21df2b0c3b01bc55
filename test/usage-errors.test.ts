// The program's own refusals of a command line (commander's, src/commands/usage-errors.ts) in the one style of an unknown
// flag: `error: ...` naming the flag or argument and what it takes, then the help to run; exit 2, nothing on stdout; with
// --json one JSON error object with its code. And a mistyped command before --help is named as it is without it.
import { describe, expect, test } from 'vitest';
import { run, wrapped } from './helpers.js';

/** What `petstore <argv>` prints for a usage error `message`, with the help hint of `command` (`what`: "its flags", ...). */
const refused = (message: string, command: string, what: string) => ({
  code: 2,
  stdout: '',
  stderr: wrapped(`error: ${message}\nFor ${what}, run:\n  ${command} --help\n`),
  unmatched: [],
});

describe("commander's refusals, in petstore's words", () => {
  test.each([
    [['list', '--status'], 'flag "--status" for "petstore list" needs a value, one of: available, pending, sold', 'petstore list'],
    [['list', '--limit'], 'flag "--limit" for "petstore list" needs a value <n>: animals per page, 1 to 100', 'petstore list'],
    [['list', '--format'], 'flag "--format" for "petstore list" needs a value, one of: table, kv, tsv, json, ndjson', 'petstore list'],
    [
      ['add', '--file'],
      'flag "--file" for "petstore add" needs a value <path>: add every NewPet of a JSON array or NDJSON file ("-" for standard input)',
      'petstore add',
    ],
    // A global flag is the root's, wherever it stands.
    [
      ['list', '--timeout'],
      'global flag "--timeout" needs a value <ms>: deadline in milliseconds: of the command, of each page of a whole listing, of each request of add --file',
      'petstore',
    ],
  ])('%j: the flag without its value, named with what it takes (exit 2)', async (argv, message, command) => {
    expect(await run(argv)).toEqual(refused(message, command, 'its flags'));
  });

  test.each([
    [
      ['api'],
      'missing argument <path> for "petstore api": a path under the base URL (/store/orders), or a URL of its origin',
      'petstore api',
    ],
    [['config', 'set', 'base-url'], 'missing argument <value> for "petstore config set": its new value', 'petstore config set'],
  ])('%j: the missing argument, named as usage shows it, with what it is (exit 2)', async (argv, message, command) => {
    expect(await run(argv)).toEqual(refused(message, command, 'its usage'));
  });

  test.each([
    [['list', 'extra'], 'unexpected argument "extra" for "petstore list" (it takes none)', 'petstore list'],
    [['list', 'all'], 'unexpected argument "all" for "petstore list" (it takes none); did you mean "--all"?', 'petstore list'],
    [
      ['config', 'get', 'base-url', 'x', 'y'],
      'unexpected arguments "x" "y" for "petstore config get" (it takes <key>)',
      'petstore config get',
    ],
    [['auth', 'login', 'demo'], 'unexpected argument "demo" for "petstore auth login" (it takes none)', 'petstore auth login'],
    [['help', 'man', 'petstore'], 'unexpected argument "petstore" for "petstore help man" (it takes none)', 'petstore help'],
  ])('%j: the words too many, named, with what the command takes (exit 2)', async (argv, message, command) => {
    expect(await run(argv)).toEqual(refused(message, command, 'its usage'));
  });

  test('with --json, anywhere on the line, each is one JSON error object with its own code', async () => {
    const cases: [string[], string][] = [
      [['list', '--json', '--status'], 'missing_flag_value'],
      [['--json', 'api'], 'missing_argument'],
      [['list', 'extra', '--json'], 'unexpected_argument'],
    ];
    for (const [argv, code] of cases) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(JSON.parse(r.stderr)).toMatchObject({ code, status: null, hint: expect.stringMatching(/^For its \w+, run:\n {2}petstore /) });
    }
  });
});

describe('a mistyped command before --help', () => {
  test.each([
    [['lisst', '--help'], 'unknown command "lisst" for "petstore"; did you mean "list"?', 'petstore'],
    [['auth', 'logn', '--help'], 'unknown command "logn" for "petstore auth"; did you mean "login"?', 'petstore auth'],
    [['completion', 'bsh', '-h'], 'unknown command "bsh" for "petstore completion"; did you mean "bash"?', 'petstore completion'],
  ])('%j says the unknown command, exit 2, as without --help', async (argv, message, group) => {
    const r = await run(argv);
    expect(r).toEqual(refused(message, group, 'its commands'));
    expect(await run(argv.slice(0, -1))).toEqual(r);
  });

  test('--help after a command, or alone, still prints help (exit 0)', async () => {
    for (const argv of [['--help'], ['list', '--help'], ['auth', '--help'], ['auth', 'login', '--help'], ['help', 'list']]) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/^Usage: petstore/);
      expect(r.stderr).toBe('');
    }
  });
});
