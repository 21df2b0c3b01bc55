// get of many ids as a process (issue 37 items 2 and 4): output from a pipe that starts before its input ends, and Ctrl-C
// (exit 130, whole records, a JSON array still valid, what was printed of how many read on stderr).
import fs from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, test } from 'vitest';
import { type PetService, startPetService, toJson } from '../sandbox/pet-service.mjs';
import { petstoreInvocation, startChild } from './helpers.js';

let service: PetService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const env = () => ({
  PATH: process.env.PATH,
  PETSTORE_BASE_URL: service!.baseUrl,
  PETSTORE_API_KEY: 'k',
  PETSTORE_NO_DEPRECATION_WARNING: '1',
});
/** petstore `get` with `args`, its stdin a pipe left open for the test to write to. */
function getFromPipe(args: string[]) {
  const { command, prefix } = petstoreInvocation();
  return startChild(command, [...prefix, 'get', ...args], { env: env(), input: null });
}
const json = (id: number) => toJson(service!.pets.get(BigInt(id)));

describe('get - as a process', () => {
  test('from a pipe, the pets print as their ids come: output before the input ends', async () => {
    service = await startPetService({ key: 'k', seed: 10 });
    const child = getFromPipe(['-', '--format', 'ndjson']);
    child.write('3\n1\n');
    await child.waitForText(`${json(3)}\n${json(1)}\n`, 'stdout');
    expect(child.exited).toBe(false);
    child.end('2\n');
    expect(await child.done).toEqual({ code: 0, stdout: `${json(3)}\n${json(1)}\n${json(2)}\n`, stderr: '' });
  });

  test.each([
    ['--format', 'ndjson'],
    ['--json', '--json'],
  ])('Ctrl-C (%s): exit 130, whole records printed, how many of how many read on stderr', async (_, flag) => {
    // Each answer waits a little, so that the run is still going when Ctrl-C comes.
    service = await startPetService({ key: 'k', seed: 400, faults: () => ({ serve: true, delayMs: 20 }) });
    const child = getFromPipe(['-', ...(flag === '--json' ? ['--json'] : ['--format', 'ndjson']), '--concurrency', '2']);
    child.write(`${Array.from({ length: 400 }, (_, i) => i + 1).join('\n')}\n`);
    await child.waitFor(() => child.stdout.length > 400, 'some pets printed');
    child.kill('SIGINT');
    const { code, stdout, stderr } = await child.done;
    expect(code).toBe(130);
    const pets: Array<{ id: number }> =
      flag === '--json'
        ? JSON.parse(stdout)
        : stdout
            .trimEnd()
            .split('\n')
            .map((line) => JSON.parse(line));
    expect(pets.map((pet) => pet.id)).toEqual(Array.from({ length: pets.length }, (_, i) => i + 1));
    expect(pets.length).toBeLessThan(400);
    if (flag === '--json') {
      expect(JSON.parse(stderr)).toEqual({
        code: 'interrupted',
        message: `interrupted: ${pets.length} pets printed of 400 ids read`,
        status: null,
        printed: pets.length,
        read: 400,
      });
    } else expect(stderr).toBe(`interrupted: ${pets.length} pets printed of 400 ids read\n`);
  });
});

describe('standard input that is a directory (`< /tmp`), which Node would read as empty', () => {
  test.each([
    [['get', '-'], 'error: get - cannot read standard input: it is a directory (EISDIR)\n'],
    [['add', '--file', '-'], 'error: cannot read --file -: standard input is a directory (EISDIR)\n'],
  ])('petstore %j < a directory: exit 2, named, nothing sent', async (args, stderr) => {
    service = await startPetService({ key: 'k', seed: 3 });
    const directory = fs.openSync(os.tmpdir(), 'r');
    try {
      const { command, prefix } = petstoreInvocation();
      const child = startChild(command, [...prefix, ...args], { env: env(), stdio: [directory, 'pipe', 'pipe'] });
      expect(await child.done).toEqual({ code: 2, stdout: '', stderr });
    } finally {
      fs.closeSync(directory);
    }
    expect(service.requests).toEqual([]);
  });
});
