// End to end: a --jq expression that never ends, or whose output grows
// without end, can be stopped (jq runs in a worker thread): Ctrl-C exits 130,
// SIGTERM 143, --timeout and the memory limit exit 1 with a message; add
// --file stops its load. The built bin (or PETSTORE_E2E_BIN) as a child
// process against the fake service on a random loopback port.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { petstoreInvocation, spawnPetstore, tempConfigHome, type ChildResult } from './helpers.js';

let service: PetService | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  // A child that outlived its test (one that failed) must not go on spinning.
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await service?.close();
  service = undefined;
});

async function startService(): Promise<PetService> {
  service = await startPetService({ key: 'k', seed: false });
  return service;
}

function env(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, XDG_CONFIG_HOME: tempConfigHome(), PETSTORE_BASE_URL: service!.baseUrl, PETSTORE_API_KEY: 'k' };
}

/** Starts petstore with `args`, feeding `stdin`; `done` settles when it has exited. */
function startPetstore(args: string[], stdin = ''): { child: ChildProcess; done: Promise<ChildResult> } {
  const { command, prefix } = petstoreInvocation();
  const child = spawn(command, [...prefix, ...args], { env: env() });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdin!.end(stdin);
  return { child, done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))) };
}

/** Waits until the service has seen `count` requests, then a while longer, so that jq runs on their answer. */
async function jqRunning(count = 1): Promise<void> {
  while (service!.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

describe('a --jq run that never ends', () => {
  test.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s ends it: exit %i, nothing printed', async (signal, code) => {
    await startService();
    const { child, done } = startPetstore(['list', '--jq', 'repeat(1)']);
    await jqRunning();
    child.kill(signal);
    expect(await done).toEqual({ code, stdout: '', stderr: '' });
  });

  test.each([['repeat(1)'], ['def f: f; f']])('--timeout ends %s: exit 1 naming --timeout', async (expression) => {
    await startService();
    const r = await spawnPetstore(['list', '--timeout', '1500', '--jq', expression], env());
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: --jq timed out after 1500 ms (--timeout)\n' });
  });

  test('with --json the timeout is one JSON line', async () => {
    await startService();
    const r = await spawnPetstore(['list', '--json', '--timeout', '1500', '--jq', 'repeat(1)'], env());
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: '{"code":"timeout","message":"--jq timed out after 1500 ms (--timeout)","status":null}\n',
    });
  });

  test('a normal run is unchanged: results, then exit 0, with the thread left idle', async () => {
    service = await startPetService({
      key: 'k',
      seed: [
        { name: 'Rex', categoryId: 1 },
        { name: 'Tom', categoryId: 2 },
      ],
    });
    const r = await spawnPetstore(['list', '--limit', '100', '--jq', '.[] | "\\(.id) \\(.name)"'], env());
    expect(r).toEqual({ code: 0, stdout: '1 Rex\n2 Tom\n', stderr: '' });
  });
});

describe('a --jq run out of memory', () => {
  test('output past 1 GiB ends the run: exit 1', { timeout: 90_000 }, async () => {
    await startService();
    const r = await spawnPetstore(['list', '--timeout', '90000', '--jq', 'range(1e9) | "x" * 1000000'], env());
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: --jq ran out of memory: the run used more than 1024 MiB\n' });
  });

  test("jq's own heap full: exit 1", async () => {
    await startService();
    const r = await spawnPetstore(['list', '--jq', '[range(1e8)] | length'], env());
    expect(r).toEqual({ code: 1, stdout: '', stderr: "error: --jq ran out of memory: jq's heap holds at most 256 MiB\n" });
  });
});

describe('add --file: a --jq run that never ends', () => {
  const pet = '{"name":"Rex","categoryId":1}\n';

  test('--timeout (of each run) stops the load: the created pet not printed is counted, exit 1', async () => {
    await startService();
    const r = await spawnPetstore(['add', '--file', '-', '--timeout', '1500', '--jq', 'repeat(1)'], env(), pet);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'warning: --jq was stopped: 1 created pet was not printed\n' +
        'stopped: created 1 of 1 pet; 0 failed\n' +
        'error: --jq timed out after 1500 ms (--timeout)\n',
    });
    expect(service!.pets.size).toBe(1);
  });

  test('the first Ctrl-C lets the run go on (as requests in flight), the second ends it: exit 130', async () => {
    await startService();
    const { child, done } = startPetstore(['add', '--file', '-', '--jq', 'repeat(1)'], pet);
    await jqRunning();
    child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(child.exitCode).toBeNull();
    child.kill('SIGINT');
    expect(await done).toEqual({
      code: 130,
      stdout: '',
      stderr:
        'stopping: no more pets are sent; Ctrl-C again stops at once\n' +
        'warning: --jq was stopped: 1 created pet was not printed\ninterrupted: created 1 of 1 pet; 0 failed\n',
    });
  });
});
