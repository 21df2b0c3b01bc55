// `echo KEY | petstore auth login` without --with-token (in-process, standard
// input a pipe, not a terminal): the key is not read from the pipe; the message says to add --with-token
// (as gh does), never to pipe it; exit 2, nothing sent, nothing stored.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { run, tempConfigHome, wrapped } from './helpers.js';

let server: PetService | undefined;
/** petstore in-process with `env`, `stdin` on a standard input that is not a terminal: exit code, stdout, stderr. */
async function petstore(args: string[], env: NodeJS.ProcessEnv, stdin: string) {
  const { code, stdout, stderr } = await run(args, { env, stdin });
  return { code, stdout, stderr };
}
afterEach(async () => {
  await server?.close();
  server = undefined;
});

test('a piped key without --with-token: exit 2, add --with-token, nothing sent or stored', async () => {
  server = await startPetService({ key: 'demo' });
  const home = tempConfigHome();
  const env = { XDG_CONFIG_HOME: home };
  const r = await petstore(['auth', 'login', '--base-url', server.baseUrl], env, 'demo\n');
  expect(r).toEqual({
    code: 2,
    stdout: '',
    stderr: wrapped(
      'error: standard input is not a terminal, so there is no prompt for the key\n' +
        `To read the key from standard input, add --with-token:\n  petstore auth login --base-url ${server.baseUrl} --with-token\n`,
    ),
  });
  expect(r.stderr).not.toMatch(/pipe/i);
  expect(server.requests).toEqual([]);
  expect(fs.existsSync(path.join(home, 'petstore', 'config.json'))).toBe(false);
  // The same key with --with-token is read, checked and stored.
  const ok = await petstore(['auth', 'login', '--base-url', server.baseUrl, '--with-token'], env, 'demo\n');
  expect(ok.code).toBe(0);
  expect(fs.existsSync(path.join(home, 'petstore', 'config.json'))).toBe(true);
});

test('the command it suggests keeps the --env given', async () => {
  server = await startPetService({ key: 'demo' });
  const env = { XDG_CONFIG_HOME: tempConfigHome(), PETSTORE_BASE_URL: server.baseUrl };
  const r = await petstore(['auth', 'login', '--env', 'local'], env, 'demo\n');
  expect(r.code).toBe(2);
  expect(r.stderr.split('\n').slice(1, 3)).toEqual([
    'To read the key from standard input, add --with-token:',
    '  petstore auth login --env local --with-token',
  ]);
  expect(server.requests).toEqual([]);
});
