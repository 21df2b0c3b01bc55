// Colour of data at a terminal and beyond (issue 21 item 8): --no-color,
// NO_COLOR, FORCE_COLOR, TERM=dumb, and gh's CLICOLOR=0 and CLICOLOR_FORCE=1.
// Precedence: docs/terminal.md. list's run through the fake client; --no-color through main.
import { expect, test } from 'vitest';
import { LIST } from '../src/commands/list/run.js';
import { runCommand } from '../src/commands/runner.js';
import { PET } from './helpers.js';
import { fakeClientFactory } from './support/fake-client.js';

const PLAIN = [
  '┌────┬──────┬─────────────┬───────────┐',
  '│ ID │ NAME │ CATEGORY ID │ STATUS    │',
  '├────┼──────┼─────────────┼───────────┤',
  '│ 1  │ Rex  │ 2           │ available │',
  '└────┴──────┴─────────────┴───────────┘',
  '',
].join('\n');

const COLOURED = [
  '┌────┬──────┬─────────────┬───────────┐',
  '│ \u001b[1mID\u001b[22m │ \u001b[1mNAME\u001b[22m │ \u001b[1mCATEGORY ID\u001b[22m │ \u001b[1mSTATUS\u001b[22m    │',
  '├────┼──────┼─────────────┼───────────┤',
  '│ 1  │ Rex  │ 2           │ \u001b[32mavailable\u001b[39m │',
  '└────┴──────┴─────────────┴───────────┘',
  '',
].join('\n');

const TTY = true;
const PIPE = false;

test.each<[string, NodeJS.ProcessEnv, boolean, string]>([
  ['a terminal', { TERM: 'xterm' }, TTY, COLOURED],
  ['a pipe', {}, PIPE, PLAIN],
  ['CLICOLOR=0 at a terminal', { TERM: 'xterm', CLICOLOR: '0' }, TTY, PLAIN],
  ['CLICOLOR=1 at a terminal', { TERM: 'xterm', CLICOLOR: '1' }, TTY, COLOURED],
  ['CLICOLOR=1 piped (it allows colour, it does not force it)', { CLICOLOR: '1' }, PIPE, PLAIN],
  ['CLICOLOR_FORCE=1 piped', { CLICOLOR_FORCE: '1' }, PIPE, COLOURED],
  ['CLICOLOR_FORCE=0 piped', { CLICOLOR_FORCE: '0' }, PIPE, PLAIN],
  ['TERM=dumb at a terminal', { TERM: 'dumb' }, TTY, PLAIN],
  ['CLICOLOR_FORCE=1 with TERM=dumb', { TERM: 'dumb', CLICOLOR_FORCE: '1' }, TTY, COLOURED],
  ['CLICOLOR_FORCE=1 over CLICOLOR=0', { CLICOLOR: '0', CLICOLOR_FORCE: '1' }, PIPE, COLOURED],
  ['FORCE_COLOR=1 over CLICOLOR=0', { TERM: 'xterm', CLICOLOR: '0', FORCE_COLOR: '1' }, TTY, COLOURED],
  ['FORCE_COLOR=0 over CLICOLOR_FORCE=1', { FORCE_COLOR: '0', CLICOLOR_FORCE: '1' }, PIPE, PLAIN],
  ['NO_COLOR=1 over CLICOLOR_FORCE=1', { NO_COLOR: '1', CLICOLOR_FORCE: '1' }, PIPE, PLAIN],
  ['NO_COLOR=1 over FORCE_COLOR=1', { NO_COLOR: '1', FORCE_COLOR: '1' }, PIPE, PLAIN],
])('list --format table, %s', async (_name, env, tty, stdout) => {
  // color: true is the program's default, without --no-color.
  const fake = fakeClientFactory({ env, tty, globals: { color: true }, output: { format: 'table' } });
  fake.answer('GET', '/v1/pets?limit=20', 200, JSON.stringify([PET]));
  await runCommand(fake.f, LIST);
  expect(fake.written).toEqual({ stdout, stderr: '' });
});

test('list --format table, --no-color over CLICOLOR_FORCE=1 (through main, which reads the flag)', async () => {
  const fake = fakeClientFactory({ env: { CLICOLOR_FORCE: '1' } });
  fake.answer('GET', '/v1/pets?limit=20', 200, JSON.stringify([PET]));
  expect(await fake.main(['list', '--format', 'table', '--no-color'])).toEqual({ code: 0, stdout: PLAIN, stderr: '', unmatched: [] });
});
