// `petstore __complete <words…>`, in-process: what the completion scripts are
// told for each command line. Candidates one a line (a tab before a
// description), then `:4` (no file names) or `:0` (file names).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { COMMANDS } from '../src/commands/registry.js';
import { run, tempConfigHome } from './helpers.js';

/** The whole answer: exit 0, nothing on stderr, no request. */
async function complete(words: string[], configHome?: string): Promise<string> {
  const r = await run(['__complete', ...words], { configHome });
  expect(r).toMatchObject({ code: 0, stderr: '', unmatched: [] });
  return r.stdout;
}

describe('__complete', () => {
  test.each([
    // commands and subcommands, with their descriptions
    [['add'], 'add\tAdd an animal (createPet), or many from a file\n:4\n'],
    [
      ['auth', 'lo'],
      'login\tCheck an API key against the service and store it for the selected environment\n' +
        'logout\tRemove the stored key of the selected environment\n:4\n',
    ],
    [['--env', 'staging', '--timeout', '5', 'ver'], 'version\tPrint the version of petstore\n:4\n'],
    [['help', 'config', 'p'], 'path\tPrint the path of the config file\n:4\n'],
    [['help', 'config'], 'config\tShow or change settings: base-url per environment\n:4\n'],
    // help topics besides commands; a config key, the one operand with fixed values (it completed to nothing)
    [['help', 'm'], 'man\n:4\n'],
    [['config', 'set', ''], 'base-url\n:4\n'],
    [['config', 'unset', 'b'], 'base-url\n:4\n'],
    [['--env', 'local', 'config', 'get', ''], 'base-url\n:4\n'],
    [['config', 'set', 'base-url', ''], ':4\n'],
    [['config', 'set', 'x'], ':4\n'],
    // flags: long ones, short ones on "-", the global ones after a command
    [['list', '--st'], '--status\tonly animals with this status\n:4\n'],
    [['api', '-X'], '-X\tthe HTTP method\n:4\n'],
    [
      ['get', '--v'],
      // --version is the root's alone: help does not list it under a command.
      '--verbose\tlog requests (key redacted) to stderr, and the stack trace of an unexpected failure\n:4\n',
    ],
    [['list', '--status', 'sold', '--li'], '--limit\tanimals per page, 1 to 100\n:4\n'],
    // what only looks like a flag of this run is a word to complete
    [['--help', '--version', '--json', 'li'], 'list\tList animals (listPets)\n:4\n'],
    // flag values: fixed ones, after a space or "="
    [['list', '--status', ''], 'available\npending\nsold\n:4\n'],
    [['add', '--status=s'], 'sold\n:4\n'],
    [['api', '-X', 'P'], 'POST\nPUT\nPATCH\n:4\n'],
    [['get', '--format', ''], 'table\nkv\ntsv\njson\nndjson\n:4\n'],
    // a file name: the shell's own file completion
    [['add', '--file', 'pe'], ':0\n'],
    [['api', '/pet', '--input='], ':0\n'],
    // free text, an operand, after "--", an unknown command, a hidden one, a flag that is not there: nothing
    [['list', '--limit', ''], ':4\n'],
    [['get', ''], ':4\n'],
    [['list', '--', ''], ':4\n'],
    [['list', '--', '--st'], ':4\n'],
    [['lisst', ''], ':4\n'],
    [['lisst', '--st'], ':4\n'],
    [['__'], ':4\n'],
    [['list', '--bogus=x'], ':4\n'],
    [['help', '--'], ':4\n'],
  ])('%j', async (words, expected) => {
    expect(await complete(words)).toBe(expected);
  });

  // The command lines the shells' scripts were tried on (test/completion.test.ts): the candidates, descriptions cut,
  // then the directive. (Those shells keep a few of them, to prove each script wires Tab to __complete.)
  describe('the candidate words, in order', () => {
    // The top-level commands, as help lists them: the registry's, without the hidden ones, then help.
    const ROOT = [...COMMANDS.map((c) => c.name).filter((name) => !name.startsWith('__')), 'help'];
    const LIST_FLAGS = [
      '--status',
      '--limit',
      '--all',
      '--format',
      '--jq',
      '--help',
      '--env',
      '--base-url',
      '--json',
      '--no-color',
      '--timeout',
      '--retries',
      '--verbose',
    ];
    // A configured environment, local, besides the built-in ones.
    let home: string;
    beforeAll(async () => {
      home = tempConfigHome();
      expect((await run(['config', 'set', 'base-url', 'http://127.0.0.1:9/v1', '--env', 'local'], { configHome: home })).code).toBe(0);
    });

    test.each([
      [['li'], ['list']],
      [[''], ROOT],
      // A prefix several commands share: each of them, in help's order (a new command of that prefix joins them).
      [['a'], ROOT.filter((name) => name.startsWith('a'))],
      [['help', 'c'], ROOT.filter((name) => name.startsWith('c'))],
      [['list', '--status', 'p'], ['pending']],
      // bash splits "--status=p" at "="; its script joins the words again
      [
        ['list', '--status='],
        ['available', 'pending', 'sold'],
      ],
      [['list', '--status=p'], ['pending']],
      [
        ['list', '--format', ''],
        ['table', 'kv', 'tsv', 'json', 'ndjson'],
      ],
      [['add', '--format', 'n'], ['ndjson']],
      [
        ['list', '--env', ''],
        ['production', 'staging', 'local'],
      ],
      [['--env', 'l'], ['local']],
      [['--env', 'local', 'li'], ['list']],
      [['--timeout', '100', 'g'], ['get']],
      [['list', ''], LIST_FLAGS],
      [['get', '--f'], ['--format']],
      [
        ['auth', ''],
        ['login', 'status', 'token', 'logout', 'help'],
      ],
      [['auth', 'login', '--w'], ['--with-token']],
      [
        ['config', ''],
        ['list', 'get', 'set', 'unset', 'path', 'help'],
      ],
      [['config', 's'], ['set']],
      [
        ['completion', ''],
        ['bash', 'zsh', 'fish', 'powershell', 'help'],
      ],
      // The commands, then the help topics.
      [
        ['help', ''],
        [...ROOT.filter((name) => name !== 'help'), 'man'],
      ],
      [
        ['help', 'auth', ''],
        ['login', 'status', 'token', 'logout'],
      ],
      [
        ['auth', 'help', 'l'],
        ['login', 'logout'],
      ],
    ])('%j: %j', async (words, expected) => {
      const lines = (await complete(words, home)).split('\n').filter(Boolean);
      expect(lines.map((line) => line.split('\t')[0])).toEqual([...expected, ':4']);
    });

    test('--failed, like --file, completes file names (the shell lists them)', async () => {
      expect(await complete(['add', '--failed', '/tmp/o'])).toBe(':0\n');
    });
  });

  test('a command with neither subcommands nor operands offers its flags on a bare Tab, as its help lists them', async () => {
    expect(await complete(['auth', 'logout', ''])).toBe(
      [
        '--help\tshow help',
        '--env\tenvironment: production (default), staging, or one you configured',
        '--base-url\tbase URL of the service, ending in /v1 (overrides the config)',
        '--json\tprint JSON: exactly what the service sent; messages on stderr as JSON lines',
        '--no-color\tdisable colour',
        '--timeout\tdeadline in milliseconds: of the command, of each page of a whole listing, of each request of add --file',
        '--retries\tretries of a GET on network errors, 408, 429, 502, 503, 504, and of a bulk POST refused with 429 or 503 and Retry-After',
        '--verbose\tlog requests (key redacted) to stderr, and the stack trace of an unexpected failure',
        ':4\n',
      ].join('\n'),
    );
  });

  test('--env: the built-in environments, then the configured ones', async () => {
    const home = tempConfigHome();
    expect((await run(['config', 'set', 'base-url', 'http://127.0.0.1:9/v1', '--env', 'local'], { configHome: home })).code).toBe(0);
    expect(await complete(['--env', ''], home)).toBe('production\nstaging\nlocal\n:4\n');
    expect(await complete(['list', '--env=l'], home)).toBe('local\n:4\n');
    expect(await complete(['--env', 'l'])).toBe(':4\n');
  });

  test('--env with a config that cannot be read: the built-in environments, quietly', async () => {
    const home = tempConfigHome();
    fs.mkdirSync(path.join(home, 'petstore'), { mode: 0o700 });
    fs.writeFileSync(path.join(home, 'petstore', 'config.json'), '{ not json', { mode: 0o600 });
    expect(await complete(['--env', ''], home)).toBe('production\nstaging\n:4\n');
  });

  test('is hidden from help', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('__complete');
  });
});
