// Mistyped commands followed by flags against a local service, run as the
// launcher runs them (only the declaration of the line's leading word built:
// src/launch.ts's leadingCommand, given to main in-process): at every level the
// unknown word is named as a command, with the closest suggested; exit 2 and
// nothing reaches the service.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { leadingCommand } from '../src/launch.js';
import { run, wrapped } from './helpers.js';

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
  const env = { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' };
  const petstore = async (argv: string[]) => {
    const { code, stdout, stderr } = await run(argv, { env, stdin: 'k\n', command: leadingCommand(argv) });
    return { code, stdout, stderr };
  };
  const r = await petstore(args);
  expect(r).toEqual({ code: 2, stdout: '', stderr: wrapped(`error: ${message}\nFor its commands, run:\n  ${parent} --help\n`) });
  const json = await petstore([...args, '--json']);
  expect(json.code).toBe(2);
  expect(JSON.parse(json.stderr)).toEqual({
    code: 'unknown_command',
    message,
    status: null,
    hint: `For its commands, run:\n  ${parent} --help`,
  });
  expect(server.requests).toEqual([]);
});
