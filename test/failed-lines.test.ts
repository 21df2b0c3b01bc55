// What a bulk load tells of the pets it did not create: the original line and
// input of each, through any number of --failed reruns; the line as a field of
// every --json failure line; the --failed hint when there is no --failed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { type PetService, startPetService } from '../sandbox/pet-service.mjs';
import { readNdjson, run } from './helpers.js';

let service: PetService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** A service that rejects with 400 every pet whose name starts with "bad". */
async function start(): Promise<PetService> {
  service = await startPetService({
    key: 'k',
    seed: false,
    faults: (request) =>
      request.method === 'POST' && request.body.includes('"bad')
        ? { status: 400, json: { code: 'invalid', message: 'rejected', status: 400 } }
        : undefined,
  });
  return service;
}

const folder = () => fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-failed-lines-'));
const pet = (name: string, categoryId = 1) => `{"name":"${name}","categoryId":${categoryId}}`;

/** petstore in-process with `env`, in the folder `cwd` when given (this process's working folder until it ends): exit code, stdout, stderr. */
async function petstore(args: string[], env: NodeJS.ProcessEnv, cwd?: string) {
  const before = process.cwd();
  if (cwd) process.chdir(cwd);
  try {
    const { code, stdout, stderr } = await run(args, { env });
    return { code, stdout, stderr };
  } finally {
    process.chdir(before);
  }
}

test('--failed lines keep the original line and input over two reruns, and so do the messages', async () => {
  const s = await start();
  const dir = folder();
  const input = path.join(dir, 'pets.ndjson');
  fs.writeFileSync(input, [pet('a'), pet('bad1'), pet('b'), pet('c'), pet('d'), pet('e'), pet('bad7'), ''].join('\n'));
  const env = { PETSTORE_BASE_URL: s.baseUrl, PETSTORE_API_KEY: 'k' };
  const args = (file: string, failed: string) => ['add', '--file', file, '--failed', failed, '--concurrency', '1'];
  const first = await petstore(args(input, path.join(dir, 'f1.ndjson')), env);
  expect(first.code).toBe(1);
  expect(first.stderr).toContain('failed: line 7 "bad7": rejected (HTTP 400)\n');
  const expected = [
    {
      line: 2,
      source: input,
      outcome: 'failed',
      item: { name: 'bad1', categoryId: 1 },
      error: { code: 'invalid', message: 'rejected', status: 400 },
    },
    {
      line: 7,
      source: input,
      outcome: 'failed',
      item: { name: 'bad7', categoryId: 1 },
      error: { code: 'invalid', message: 'rejected', status: 400 },
    },
  ];
  expect(readNdjson(path.join(dir, 'f1.ndjson'))).toEqual(expected);
  // Reruns from another folder, through a relative path: the first input stays named.
  for (const [from, to] of [
    ['f1.ndjson', 'f2.ndjson'],
    ['f2.ndjson', 'f3.ndjson'],
  ] as const) {
    const again = await petstore(args(from, to), env, dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      'failed: line 2 of pets.ndjson "bad1": rejected (HTTP 400)\n' +
        'failed: line 7 of pets.ndjson "bad7": rejected (HTTP 400)\n' +
        `created 0 of 2 pets; 2 failed (written to ${to})\n` +
        'error: 2 of 2 pets were not created\n',
    );
    expect(readNdjson(path.join(dir, to))).toEqual(expected);
  }
});

test('--json: every failure line on stderr carries line (and source) as fields', async () => {
  const s = await start();
  const dir = folder();
  const input = path.join(dir, 'pets.ndjson');
  fs.writeFileSync(input, [pet('a'), pet('bad2'), 'not json', ''].join('\n'));
  const r = await run(['add', '--file', input, '--json', '--concurrency', '1'], {
    env: { PETSTORE_BASE_URL: s.baseUrl, PETSTORE_API_KEY: 'k' },
  });
  expect(r.code).toBe(1);
  const lines = r.stderr
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  // Reported as they happen: a rejection may come after the next line was checked.
  const failures = lines.filter((line) => line.code === 'failed').sort((a, b) => a.line - b.line);
  expect(failures).toEqual([
    {
      info: 'failed: line 2 "bad2": rejected (HTTP 400)',
      code: 'failed',
      line: 2,
      source: input,
      error: { code: 'invalid', message: 'rejected', status: 400 },
    },
    {
      info: 'failed: line 3 (no name): malformed JSON: not json',
      code: 'failed',
      line: 3,
      source: input,
      error: { code: 'invalid_input', message: 'malformed JSON: not json', status: null },
    },
  ]);
});

test('without --failed, a load that leaves pets not created ends with the hint that --failed keeps them', async () => {
  const s = await start();
  const r = await run(['add', '--file', '-'], {
    env: { PETSTORE_BASE_URL: s.baseUrl, PETSTORE_API_KEY: 'k' },
    stdin: `${pet('a')}\n${pet('bad')}\n`,
  });
  expect(r).toMatchObject({
    code: 1,
    stdout: '1\ta\t1\t-\n',
    stderr:
      'failed: line 2 "bad": rejected (HTTP 400)\n' +
      'created 1 of 2 pets; 1 failed\n' +
      'error: 1 of 2 pets was not created\n' +
      '--failed FILE keeps the pets not created, to load them again\n',
  });
  // With --failed, no hint: the summary names the file.
  const dir = folder();
  const withFile = await run(['add', '--file', '-', '--failed', path.join(dir, 'f.ndjson')], {
    env: { PETSTORE_BASE_URL: s.baseUrl, PETSTORE_API_KEY: 'k' },
    stdin: `${pet('bad')}\n`,
  });
  expect(withFile.stderr).not.toContain('--failed FILE keeps');
  expect(readNdjson(path.join(dir, 'f.ndjson'))).toMatchObject([{ line: 1, source: '-', outcome: 'failed' }]);
});
