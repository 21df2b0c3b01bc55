// Any width, on a real terminal of 60 columns: help, the man-page-free
// help of each command, tables of records (config list, auth status) and
// messages wrap at word boundaries; the terminal never has to wrap a line
// (which would split a word), and no value is cut.
import { afterEach, expect, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { run, tempConfigHome } from './helpers.js';
import { runInPty } from './pty.js';

let server: PetService | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The words of help text; a wrapped shell comment repeats its "#" on each line, a wrapped example ends its lines in "\\": neither is a word of it. */
const words = (lines: string[]) =>
  lines
    .join(' ')
    .split(/\s+/)
    .filter((word) => word !== '' && word !== '#' && word !== '\\');

test.each([[['--help']], [['add', '--help']], [['api', '--help']], [['config', '--help']], [['auth', 'login', '--help']]])(
  '%j at 60 columns: no line wider than the terminal, the same words as at 200',
  async (args) => {
    const narrow = runInPty(args, { cols: 60, rows: 50 });
    expect(await narrow.exited).toBe(0);
    // The words themselves, from the help printed in-process at 200 columns.
    const wide = await run(args, { stdoutIsTTY: true, columns: 200, env: { NO_COLOR: '1' } });
    expect(wide.code).toBe(0);
    const screen = await narrow.screen();
    expect(screen.filter((line) => line.wrapped)).toEqual([]);
    expect(words(screen.map((line) => line.text))).toEqual(words(wide.stdout.split('\n')));
  },
);

test('config list at 60 columns: the base URL wraps inside its cell, whole', async () => {
  const home = tempConfigHome();
  const env = { XDG_CONFIG_HOME: home };
  // Stored in-process: the config file is the same whoever writes it.
  expect((await run(['config', 'set', 'base-url', 'https://petstore-staging.example.com/v1', '--env', 'staging'], { env })).code).toBe(0);
  const listed = runInPty(['config', 'list'], { env, cols: 60 });
  expect(await listed.exited).toBe(0);
  const screen = await listed.screen();
  expect(screen.filter((line) => line.wrapped)).toEqual([]);
  expect(screen.map((line) => line.text)).toEqual([
    '┌─────────────┬──────────────────────┬─────────┬─────────┐',
    '│ ENVIRONMENT │ BASE URL             │ API KEY │ API KEY │',
    '│             │                      │ STORED  │ ORIGIN  │',
    '├─────────────┼──────────────────────┼─────────┼─────────┤',
    '│ production  │ -                    │ false   │ -       │',
    '├─────────────┼──────────────────────┼─────────┼─────────┤',
    '│ staging     │ https://petstore-    │ false   │ -       │',
    '│             │ staging.example.com/ │         │         │',
    '│             │ v1/                  │         │         │',
    '└─────────────┴──────────────────────┴─────────┴─────────┘',
  ]);
});

test('auth status as a table at 60 columns: key/value lines, nothing cut', async () => {
  server = await startPetService({ key: 'k' });
  const env = { XDG_CONFIG_HOME: tempConfigHome(), PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' };
  const run = runInPty(['auth', 'status', '--format', 'table'], { env, cols: 60 });
  expect(await run.exited).toBe(0);
  const screen = await run.screen();
  expect(screen.filter((line) => line.wrapped)).toEqual([]);
  expect(screen.map((line) => line.text)).toEqual([
    'Environment:        production',
    'Environment source: default',
    `Base URL:           ${server.baseUrl}/`,
    'Base URL source:    PETSTORE_BASE_URL',
    'API key:            set',
    'API key source:     PETSTORE_API_KEY',
    'API key origin:     any (PETSTORE_API_KEY)',
    'Check:              valid',
  ]);
});

test('a message at 60 columns wraps at a space, its next line indented, the command of its hint on a line of its own; typos followed by flags are named', async () => {
  const run = runInPty(['config', 'st', 'base-url', 'x'], { cols: 60 });
  expect(await run.exited).toBe(2);
  const screen = await run.screen();
  expect(screen.filter((line) => line.wrapped)).toEqual([]);
  expect(screen.map((line) => line.text)).toEqual([
    'error: unknown command "st" for "petstore config"; did you',
    '  mean "set"?',
    'For its commands, run:',
    '  petstore config --help',
  ]);
  const flag = runInPty(['list', '--status', 'availble'], { cols: 60 });
  expect(await flag.exited).toBe(2);
  expect(await flag.text()).toEqual([
    'error: invalid value for --status: "availble": allowed',
    '  values: available, pending, sold; did you mean',
    '  "available"?',
  ]);
});
