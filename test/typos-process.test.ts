// Mistyped commands followed by flags, with the built bin against a local
// service: at every level the unknown word is named as a command, with the
// closest suggested; exit 2 and nothing reaches the service.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { spawnPetstore, tempConfigHome } from './helpers.js';

let server: PetService;
beforeAll(async () => {
  server = await startPetService({ key: 'k' });
});
afterAll(() => server.close());

test.each([
  [['lisst', '--status', 'available'], 'unknown command "lisst" for "petstore"; did you mean "list"?', 'petstore'],
  [
    ['config', 'st', 'base-url', 'http://127.0.0.1:1/v1'],
    'unknown command "st" for "petstore config"; did you mean "set"?',
    'petstore config',
  ],
  [['auth', 'logn', '--with-token'], 'unknown command "logn" for "petstore auth"; did you mean "login"?', 'petstore auth'],
])('%j: exit 2, the command named, nothing sent', async (args, message, parent) => {
  const env = { PATH: process.env.PATH, XDG_CONFIG_HOME: tempConfigHome(), PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' };
  const r = await spawnPetstore(args, env, 'k\n');
  expect(r).toEqual({ code: 2, stdout: '', stderr: `error: ${message}\nRun "${parent} --help" for the commands.\n` });
  const json = await spawnPetstore([...args, '--json'], env, 'k\n');
  expect(json.code).toBe(2);
  expect(JSON.parse(json.stderr)).toEqual({
    code: 'unknown_command',
    message,
    status: null,
    hint: `Run "${parent} --help" for the commands.`,
  });
  expect(server.requests).toEqual([]);
});
