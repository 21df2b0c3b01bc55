// A --jq expression that never ends, or whose output grows without end, can
// be stopped (jq runs in a worker thread): Ctrl-C exits 130, SIGTERM 143
// (the built bin, or PETSTORE_E2E_BIN, as a child process), --timeout and the
// memory limit exit 1 with a message (in-process); add --file stops its load.
// All against the fake service on a random loopback port.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, type TestContext, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { MEMORY_LIMIT_MB } from '../src/output/jq-thread.js';
import { type Child, petstoreInvocation, run, type RunSetup, startChild, tempConfigHome } from './helpers.js';

// Every test has its own service, and all run at once (describe.concurrent): their waits (a --timeout, jq's CPU time)
// overlap. Each closes its service by its own onTestFinished, hands it to a child it starts, and asserts with its own
// expect, all from its context.

/** A service with no pets (or `options`), closed when `test` finishes. */
async function startService(
  { onTestFinished }: TestContext,
  options: Parameters<typeof startPetService>[0] = { key: 'k', seed: false },
): Promise<PetService> {
  const service = await startPetService(options);
  onTestFinished(() => service.close());
  return service;
}

/** A service that holds every answer until `release()`: see {@link jqRunning}. */
async function startGatedService(test: TestContext): Promise<{ service: PetService; release: () => void }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const service = await startService(test, { key: 'k', seed: false, faults: () => ({ serve: true, until: gate }) });
  return { service, release };
}

function env(service: PetService): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, XDG_CONFIG_HOME: tempConfigHome(), PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k' };
}

/** Runs petstore in-process with `args` against `service`, feeding `stdin`: exit code, stdout and stderr. */
async function petstore(service: PetService, args: string[], setup: RunSetup & { jqMemoryLimitMb?: number } = {}) {
  const { code, stdout, stderr } = await run(args, { env: { PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k' }, ...setup });
  return { code, stdout, stderr };
}

/** What add --file of one pet prints when `error` stopped jq on the created pet: exit 1, the pet counted, not printed. */
function oneStoppedLoad(error: string) {
  const stderr = `warning: --jq was stopped: 1 created pet was not printed\nstopped: created 1 of 1 pet; 0 failed\nerror: ${error}\n`;
  return { code: 1, stdout: '', stderr };
}

/** Starts petstore with `args` as a child process against `service`, feeding `stdin`; killed when `test` finishes. */
function startPetstore(test: TestContext, service: PetService, args: string[], stdin = ''): Child {
  const { command, prefix } = petstoreInvocation();
  return startChild(command, [...prefix, ...args], { env: env(service), input: stdin, onTestFinished: test.onTestFinished });
}

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** The CPU time (user and system, in milliseconds) each thread of process `pid` has used, by thread id (Linux: /proc). */
function threadTimes(pid: number): Map<string, number> {
  const times = new Map<string, number>();
  let tasks: string[] = [];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return times; // it has exited
  }
  for (const task of tasks) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      // After "pid (name) ": state, then utime and stime are the 12th and 13th fields.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.set(task, (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return times;
}

/** CPU time a thread must use after the answer came to count as jq's: more than any other thread spends on one answer. */
const BUSY_MS = 100;

/**
 * Waits until jq runs in `child`: once the service holds the request, the CPU
 * time of the child's threads is noted and the answer let go; jq then runs on
 * it in a worker thread (never the main one), which keeps a core busy.
 * Resolves with that thread's id.
 */
async function jqRunning(child: Child, { service, release }: { service: PetService; release: () => void }): Promise<string> {
  await child.waitFor(() => service.requests.length > 0, 'the request reached the service');
  const before = threadTimes(child.pid);
  release();
  let jq: string | undefined;
  await child.waitFor(() => {
    jq = [...threadTimes(child.pid)].find(([task, ms]) => task !== String(child.pid) && ms - (before.get(task) ?? 0) >= BUSY_MS)?.[0];
    return jq !== undefined;
  }, "jq's thread was busy");
  return jq!;
}

/** Signals closer together than this count as one (SIGNAL_ECHO_MS of src/entry.ts). */
const SIGNAL_ECHO_MS = 150;

describe.concurrent('add --file: a --jq run that never ends', () => {
  const pet = '{"name":"Rex","categoryId":1}\n';

  test('--timeout (of each run) stops the load: the created pet not printed is counted, exit 1', async (context) => {
    const { expect } = context;
    const service = await startService(context);
    const r = await petstore(service, ['add', '--file', '-', '--timeout', '2000', '--jq', 'repeat(1)'], { stdin: pet });
    expect(r).toEqual(oneStoppedLoad('--jq timed out after 2000 ms (--timeout)'));
    expect(service.pets.size).toBe(1);
  });

  test('the first Ctrl-C lets the run go on (as requests in flight), the second ends it: exit 130', async (context) => {
    const { expect } = context;
    const gated = await startGatedService(context);
    const child = startPetstore(context, gated.service, ['add', '--file', '-', '--jq', 'repeat(1)'], pet);
    const jq = await jqRunning(child, gated);
    child.kill('SIGINT');
    await child.waitForText('stopping: ');
    // jq goes on after the first Ctrl-C was answered, for longer than SIGNAL_ECHO_MS (src/entry.ts): a
    // thread's CPU time cannot outgrow the time that passed, so the second Ctrl-C is not taken for its echo.
    const answered = threadTimes(child.pid).get(jq)!;
    await child.waitFor(() => {
      const used = threadTimes(child.pid).get(jq);
      if (used === undefined) throw new Error("jq's thread ended at the first Ctrl-C");
      return used - answered > SIGNAL_ECHO_MS;
    }, 'jq ran on');
    expect(child.exitCode).toBeNull();
    child.kill('SIGINT');
    expect(await child.done).toEqual({
      code: 130,
      stdout: '',
      stderr:
        'stopping: no more pets are sent; Ctrl-C again stops at once\n' +
        'warning: --jq was stopped: 1 created pet was not printed\ninterrupted: created 1 of 1 pet; 0 failed\n',
    });
  });
});

// --timeout is the whole command's deadline, the start of jq's thread and the request included: the tests' --timeout
// leaves room for those on a loaded machine, so that jq's endless run is what it ends.
describe.concurrent('a --jq run that never ends', () => {
  test.for(['repeat(1)', 'def f: f; f'])('--timeout ends %s: exit 1 naming --timeout', async (expression, context) => {
    const { expect } = context;
    const r = await petstore(await startService(context), ['list', '--timeout', '2000', '--jq', expression]);
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: --jq timed out after 2000 ms (--timeout)\n' });
  });

  test('with --json the timeout is one JSON line', async (context) => {
    const { expect } = context;
    const r = await petstore(await startService(context), ['list', '--json', '--timeout', '2000', '--jq', 'repeat(1)']);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: '{"code":"timeout","message":"--jq timed out after 2000 ms (--timeout)","status":null}\n',
    });
  });

  test.for([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s ends it: exit %i, nothing printed', async ([signal, code], context) => {
    const { expect } = context;
    const gated = await startGatedService(context);
    const child = startPetstore(context, gated.service, ['list', '--jq', 'repeat(1)']);
    await jqRunning(child, gated);
    child.kill(signal);
    expect(await child.done).toEqual({ code, stdout: '', stderr: '' });
  });

  test('a normal run is unchanged: results, then exit 0, with the thread left idle', async (context) => {
    const { expect } = context;
    const service = await startService(context, {
      key: 'k',
      seed: [
        { name: 'Rex', categoryId: 1 },
        { name: 'Tom', categoryId: 2 },
      ],
    });
    const r = await petstore(service, ['list', '--limit', '100', '--jq', '.[] | "\\(.id) \\(.name)"']);
    expect(r).toEqual({ code: 0, stdout: '1 Rex\n2 Tom\n', stderr: '' });
  });
});

describe.concurrent('a --jq run out of memory', () => {
  test('output past the limit ends the run: exit 1, nothing printed', async (context) => {
    const { expect } = context;
    const r = await petstore(await startService(context), ['list', '--timeout', '60000', '--jq', 'range(1e9) | "x" * 1000000'], {
      jqMemoryLimitMb: 64,
    });
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: --jq ran out of memory: the run used more than 64 MiB\n' });
  });

  test('add --file: output past the limit stops the load; the created pet not printed is counted', async (context) => {
    const { expect } = context;
    const service = await startService(context);
    const r = await petstore(service, ['add', '--file', '-', '--timeout', '60000', '--jq', 'range(1e9) | "x" * 1000000'], {
      stdin: '{"name":"Rex","categoryId":1}\n',
      jqMemoryLimitMb: 64,
    });
    expect(r).toEqual(oneStoppedLoad('--jq ran out of memory: the run used more than 64 MiB'));
    expect(service.pets.size).toBe(1);
  });

  test('the limit a user gets is 1 GiB', ({ expect }) => {
    expect(MEMORY_LIMIT_MB).toBe(1024);
  });

  // One string larger than jq's heap: jq aborts at its allocation, as when [range(1e8)] fills the heap bit by bit.
  test("jq's own heap full: exit 1", async (context) => {
    const { expect } = context;
    const r = await petstore(await startService(context), ['list', '--jq', '"x" * 300000000']);
    expect(r).toEqual({ code: 1, stdout: '', stderr: "error: --jq ran out of memory: jq's heap holds at most 256 MiB\n" });
  });
});
