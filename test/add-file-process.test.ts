// add --file as a process: signals (Ctrl-C once and twice), pipes, a full
// disk, a closed stdout, and reruns on --failed that create each pet once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, type TestContext, test } from 'vitest';
import { dropEvery, startPetService, type Faults, type PetService } from '../sandbox/pet-service.mjs';
import { BIN, readNdjson, run, spawnAsync, startChild, until, wrapped, unwrapped } from './helpers.js';

// Every test has its own service, and all run at once (describe.concurrent): their children's start-ups and waits
// overlap. Each closes its service by its own onTestFinished, hands it to a child it starts, and asserts with its own
// expect, all from its context.

/** A service with no pets that does what `faults` say (default: answers after `delayMs`), closed when `test` finishes. */
async function start({ onTestFinished }: TestContext, faults?: Faults, delayMs = 0): Promise<PetService> {
  const server = await startPetService({ key: 'k', seed: false, faults: faults ?? (() => ({ serve: true, delayMs })) });
  onTestFinished(() => server.close());
  return server;
}

/**
 * Faults that answer the first `answered` requests at once and hold every later one until `release()`: a load stopped
 * by a signal while requests are in flight, released once it said it stops (no answer can outrun the signal).
 */
function answerThenHold(answered: number): { faults: Faults; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { faults: (_request, index) => (index < answered ? undefined : { serve: true, until: gate }), release };
}

const posts = (server: PetService) => server.requests.filter((r) => r.method === 'POST');
const storedNames = (server: PetService) => [...server.pets.values()].map((p) => p.name).sort();
const env = (server: PetService) => ({ PATH: process.env.PATH, PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' });
/** A child's options: `env`, and the hook of `test` that kills it if it still runs when the test ends. */
const childOf = (test: TestContext, env: NodeJS.ProcessEnv) => ({ env, onTestFinished: test.onTestFinished });
/**
 * Runs `add` with `args` in-process to its end against `server`, feeding `stdin`: for the runs no
 * signal, pipe or closed stream acts on (reruns on --failed, time-outs); exit code and output.
 */
async function add(server: PetService, args: string[], stdin?: string) {
  const { code, stdout, stderr } = await run(['add', ...args], { env: env(server), stdin });
  return { code, stdout, stderr };
}
const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bulk-'));
/** Signals closer together than this count as one (SIGNAL_ECHO_MS of src/entry.ts). */
const SIGNAL_ECHO_MS = 150;
const names = (n: number, prefix = 'p') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

/** NDJSON, one NewPet a line: the i-th named `petNames[i]`, with categoryId i. */
const petLines = (petNames: readonly string[]) => petNames.map((name, i) => `{"name":"${name}","categoryId":${i}}\n`).join('');

/** A service that never answers, and the arguments (after `add`) of a one-at-a-time load of three pets from a file with --failed, in a fresh folder. */
async function hangingLoadOfThree(test: TestContext) {
  const server = await start(test, () => ({ hang: true }));
  const dir = tempDir();
  const input = path.join(dir, 'pets.ndjson');
  fs.writeFileSync(input, petLines(names(3)));
  const failed = path.join(dir, 'failed.ndjson');
  return { server, dir, failed, args: ['--file', input, '--failed', failed, '--concurrency', '1'] };
}

describe.concurrent('signals', () => {
  test.for([
    ['SIGINT', 130, 'interrupted'],
    ['SIGTERM', 143, 'terminated'],
    ['SIGHUP', 129, 'hung up'],
  ] as const)(
    '%s in the middle of a pretty-printed JSON array: in flight finish, the rest is not_sent; one rerun creates every pet once',
    async ([signal, exit, word], context) => {
      const { expect } = context;
      const held = answerThenHold(6);
      const server = await start(context, held.faults);
      const dir = tempDir();
      const all = names(40);
      const input = path.join(dir, 'pets.json');
      fs.writeFileSync(
        input,
        JSON.stringify(
          all.map((name, i) => ({ name, categoryId: i })),
          null,
          2,
        ),
      );
      const failed = path.join(dir, 'failed.ndjson');
      const child = startChild(
        process.execPath,
        [BIN, 'add', '--file', input, '--failed', failed, '--concurrency', '4'],
        childOf(context, env(server)),
      );
      await child.waitFor(() => posts(server).length >= 6, '6 POSTs');
      child.kill(signal);
      await child.waitForText('stopping: ');
      held.release();
      const r = await child.done;
      expect(r.code).toBe(exit);
      // Said at once: what the load waits for, and how to stop at once; then the summary.
      expect(unwrapped(r.stderr)).toMatch(
        new RegExp(
          '^stopping: no more pets are sent; waiting for [1-4] answers? in flight, at most 30s \\(--timeout\\); Ctrl-C again stops at once\\n' +
            `${word}: created \\d+ of 40 pets; 0 failed, \\d+ not sent \\(written to .*failed\\.ndjson\\)\\n$`,
        ),
      );
      const lines = readNdjson(failed);
      expect(lines.every((l) => l.outcome === 'not_sent')).toBe(true);
      // Exactly the pets not created are in --failed, each once.
      expect([...lines.map((l) => l.item.name), ...storedNames(server)].sort()).toEqual([...all].sort());
      const again = await add(server, ['--file', failed, '--failed', failed]);
      expect(again.code).toBe(0);
      expect(storedNames(server)).toEqual([...all].sort());
    },
  );

  test('a second Ctrl-C stops waiting at once: requests in flight become unknown; summary and --failed are still written', async (context) => {
    const { expect } = context;
    const server = await start(context, () => ({ hang: true }));
    const dir = tempDir();
    const failed = path.join(dir, 'failed.ndjson');
    const child = startChild(process.execPath, [BIN, 'add', '--file', '-', '--failed', failed, '--concurrency', '2'], {
      ...childOf(context, env(server)),
      input: petLines(names(5)),
    });
    await child.waitFor(() => posts(server).length === 2, 'two POSTs');
    child.kill('SIGINT');
    // The first Ctrl-C is answered at once, while the two answers are still awaited.
    await child.waitForText('\n');
    const answered = performance.now();
    expect(child.stderr).toBe(
      wrapped('stopping: no more pets are sent; waiting for 2 answers in flight, at most 30s (--timeout); Ctrl-C again stops at once\n'),
    );
    expect(child.exitCode).toBeNull();
    // Signals within SIGNAL_ECHO_MS of the first are its echo: a person's second Ctrl-C comes later. The
    // child took the first's time (on the monotonic clock this process reads too) before it answered.
    await until(() => performance.now() - answered > SIGNAL_ECHO_MS);
    child.kill('SIGINT');
    const r = await child.done;
    expect(r.code).toBe(130);
    // The reading ended before the pipe's end was seen: the count says what was read.
    expect(unwrapped(r.stderr)).toMatch(
      /^stopping: [^\n]*\n(unknown: line [12] "p[01]": sent, then the load was stopped before the service answered\n){2}interrupted: created 0 of 5 pets read so far; 0 failed, 2 unknown, 3 not sent/,
    );
    expect(
      readNdjson(failed)
        .map((l) => l.outcome)
        .sort(),
    ).toEqual(['not_sent', 'not_sent', 'not_sent', 'unknown', 'unknown']);
  });

  test('one Ctrl-C is one, though the stored config loads a library that raises the signal again', async (context) => {
    const { expect } = context;
    const held = answerThenHold(12);
    const server = await start(context, held.faults);
    const home = tempDir();
    const stored = { PATH: process.env.PATH, XDG_CONFIG_HOME: home };
    // Stored in-process: the config file is the same whoever writes it.
    expect((await run(['config', 'set', 'base-url', server.baseUrl, '--env', 'slow'], { env: stored })).code).toBe(0);
    expect((await run(['auth', 'login', '--with-token', '--env', 'slow'], { env: stored, stdin: 'k\n' })).code).toBe(0);
    const input = path.join(home, 'pets.ndjson');
    fs.writeFileSync(input, petLines(names(300)));
    const failed = path.join(home, 'failed.ndjson');
    const child = startChild(
      process.execPath,
      [BIN, 'add', '--file', input, '--failed', failed, '--env', 'slow'],
      childOf(context, stored),
    );
    await child.waitFor(() => posts(server).length >= 12, '12 POSTs');
    child.kill('SIGINT');
    await child.waitForText('stopping: ');
    held.release();
    const r = await child.done;
    expect(r.code).toBe(130);
    // The requests in flight finished (none unknown), and every line not created is in --failed.
    expect(unwrapped(r.stderr)).toMatch(
      /^stopping: [^\n]*\ninterrupted: created \d+ of 300 pets; 0 failed, \d+ not sent \(written to .*\)\n$/,
    );
    expect([...readNdjson(failed).map((l) => l.item.name), ...storedNames(server)].sort()).toEqual(names(300).sort());
  });

  test('a dripping answer ends at --timeout as unknown; the load does not hang', async (context) => {
    const { expect } = context;
    // The body's 37 bytes would take nearly four seconds: --timeout ends it after a few.
    const server = await start(context, () => ({ drip: { status: 201, json: { id: 1, name: 'slow', categoryId: 1 }, intervalMs: 100 } }));
    const failed = path.join(tempDir(), 'failed.ndjson');
    const r = await add(server, ['--file', '-', '--failed', failed, '--timeout', '500'], '{"name":"slow","categoryId":1}\n');
    expect(r.code).toBe(1);
    expect(readNdjson(failed)).toMatchObject([{ line: 1, outcome: 'unknown', item: { name: 'slow' } }]);
  });
});

describe.concurrent('pipes, full disks and closed outputs', () => {
  test('cat failed.ndjson | add --file - --failed failed.ndjson: the file is read whole and replaced by the new outcomes', async (context) => {
    const { expect } = context;
    const server = await start(context, () => ({ status: 422, json: { code: 'rejected', message: 'down', status: 422 } }));
    const dir = tempDir();
    const failed = path.join(dir, 'failed.ndjson');
    // 250 lines of about 900 bytes: more than the pipe and cat's buffer hold, so cat still reads the file while
    // the load runs.
    const all = names(250).map((name) => `${name}-${'x'.repeat(800)}`);
    const lines = all.map((name, i) =>
      JSON.stringify({ line: i + 1, outcome: 'failed', item: { name, categoryId: i }, error: { code: 'x', message: 'x', status: 500 } }),
    );
    fs.writeFileSync(failed, `${lines.join('\n')}\n`);
    const r = await spawnAsync(
      'sh',
      ['-c', `cat "${failed}" | "${process.execPath}" "${BIN}" add --file - --failed "${failed}" --concurrency 16`],
      env(server),
      '',
      context,
    );
    expect(r.code).toBe(1);
    expect(unwrapped(r.stderr).split('\n').at(-3)).toBe(`created 0 of 250 pets; 250 failed (written to ${failed})`);
    const after = readNdjson(failed);
    expect(after).toHaveLength(250);
    expect(after.map((l) => l.item.name).sort()).toEqual(all.sort());
  });

  test('--failed /dev/full: refused (no journal could live beside it), exit 2, nothing sent', async (context) => {
    const { expect } = context;
    const server = await start(context, () => ({ status: 422, json: { code: 'rejected', message: 'down', status: 422 } }));
    const input = petLines(names(5));
    // In-process: a check of the flag before any request.
    const r = await add(server, ['--file', '-', '--failed', '/dev/full', '--concurrency', '1'], input);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: wrapped(
        'error: --failed /dev/full is a device; it must be a regular file, for its journal (/dev/full.journal) lets a rerun skip the pets created\n' +
          'Name a file in a folder you can write, e.g. --failed failed.ndjson.\n',
      ),
    });
    expect(posts(server)).toHaveLength(0);
  });

  test('stdout on a full disk: list ends with one line on stderr, exit 1, no stack trace', async (context) => {
    const { expect } = context;
    const server = await start(context);
    const r = await spawnAsync('sh', ['-c', `"${process.execPath}" "${BIN}" list --format json > /dev/full`], env(server), '', context);
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: cannot write to standard output: ENOSPC\n' });
    const json = await spawnAsync('sh', ['-c', `"${process.execPath}" "${BIN}" list --json > /dev/full`], env(server), '', context);
    expect(json).toEqual({
      code: 1,
      stdout: '',
      stderr: '{"code":"stdout_error","message":"cannot write to standard output: ENOSPC","status":null}\n',
    });
  });

  test('stdout on a full disk, no request: --version, -V, version, --help and completion end with one line, exit 1', async (context) => {
    const { expect } = context;
    for (const args of ['--version', '-V', 'version', '--help', 'completion bash']) {
      const r = await spawnAsync(
        'sh',
        ['-c', `"${process.execPath}" "${BIN}" ${args} > /dev/full`],
        { PATH: process.env.PATH },
        '',
        context,
      );
      expect(r, args).toEqual({ code: 1, stdout: '', stderr: 'error: cannot write to standard output: ENOSPC\n' });
    }
  });

  test('stdout on a full disk: a bulk load stops, records the rest as not_sent, exit 1', async (context) => {
    const { expect } = context;
    const server = await start(context);
    const dir = tempDir();
    const input = path.join(dir, 'pets.ndjson');
    fs.writeFileSync(input, petLines(names(300)));
    const failed = path.join(dir, 'failed.ndjson');
    const r = await spawnAsync(
      'sh',
      ['-c', `"${process.execPath}" "${BIN}" add --file "${input}" --failed "${failed}" --json > /dev/full`],
      env(server),
      '',
      context,
    );
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      '{"code":"stdout_error","message":"cannot write to standard output: ENOSPC","status":null}',
    );
    // Every pet is created or recorded, never both.
    const recorded = readNdjson(failed).map((l) => l.item.name);
    expect([...recorded, ...storedNames(server)].sort()).toEqual(names(300).sort());
    expect(readNdjson(failed).every((l) => l.outcome === 'not_sent')).toBe(true);
  });

  test('on one terminal-like stream, rows of pets created before a failure come before its message', async (context) => {
    const { expect } = context;
    const server = await start(context, (request) =>
      request.body.includes('fail')
        ? { status: 422, json: { code: 'rejected', message: 'database refused it', status: 422 } }
        : { serve: true },
    );
    const dir = tempDir();
    const input = path.join(dir, 'pets.ndjson');
    fs.writeFileSync(input, '{"name":"ok1","categoryId":1}\n{"name":"fail-me","categoryId":2}\n{"name":"ok2","categoryId":3}\n');
    const combined = path.join(dir, 'combined.txt');
    const out = fs.openSync(combined, 'w');
    const child = startChild(process.execPath, [BIN, 'add', '--file', input, '--concurrency', '1'], {
      ...childOf(context, env(server)),
      stdio: ['ignore', out, out],
    });
    fs.closeSync(out);
    expect((await child.done).code).toBe(1);
    expect(fs.readFileSync(combined, 'utf8')).toBe(
      '1\tok1\t1\t-\nfailed: line 2 "fail-me": database refused it (HTTP 422)\n2\tok2\t3\t-\ncreated 2 of 3 pets; 1 failed\nerror: 1 of 3 pets was not created\n' +
        '--failed FILE keeps the pets not created, to load them again\n',
    );
  });

  test('streams: the first pets are created before the input has ended', async (context) => {
    const { expect } = context;
    const server = await start(context);
    const child = startChild(process.execPath, [BIN, 'add', '--file', '-', '--json'], { ...childOf(context, env(server)), input: null });
    child.write('{"name":"first","categoryId":1}\n');
    await child.waitFor(() => posts(server).length === 1, 'the first POST');
    expect(child.exitCode).toBeNull();
    child.end('{"name":"second","categoryId":2}\n');
    expect(await child.done).toMatchObject({
      code: 0,
      stdout: '{"id":1,"name":"first","categoryId":1}\n{"id":2,"name":"second","categoryId":2}\n',
    });
  });
});

test.concurrent('100 pets against a service that drops one answer in ten after creating the pet: reruns create each pet at most once', async (context) => {
  const { expect } = context;
  // In-process: no signal or stream of a process acts on it; the dropped answers are the service's.
  const server = await start(context, dropEvery(10));
  const dir = tempDir();
  const all = names(100);
  const input = path.join(dir, 'pets.ndjson');
  fs.writeFileSync(input, petLines(all));
  const first = await add(server, ['--file', input, '--failed', path.join(dir, 'f1.ndjson')]);
  expect(first.code).toBe(1);
  const unknown = readNdjson(path.join(dir, 'f1.ndjson'));
  expect(unknown.length).toBeGreaterThan(0);
  expect(unknown.every((l) => l.outcome === 'unknown')).toBe(true);
  // The dropped answers' pets were created anyway: each pet is in the store once.
  expect(storedNames(server)).toEqual([...all].sort());
  const second = await add(server, ['--file', path.join(dir, 'f1.ndjson'), '--failed', path.join(dir, 'f2.ndjson')]);
  expect(second.code).toBe(1);
  expect(storedNames(server)).toEqual([...all].sort());
  expect(readNdjson(path.join(dir, 'f2.ndjson'))).toEqual(unknown);
  // --retry-unknown is the user's explicit choice to send them again (here: duplicates).
  const third = await add(server, ['--file', path.join(dir, 'f2.ndjson'), '--retry-unknown']);
  expect(third.stderr).toContain(`of ${unknown.length} pets`);
  expect(server.pets.size).toBeGreaterThan(100);
});

describe.concurrent('deaths and hang-ups', () => {
  test('SIGHUP with stdout and stderr closed (the terminal is gone): --failed is still written whole, exit 129', async (context) => {
    const { expect } = context;
    const server = await start(context, undefined, 150);
    const dir = tempDir();
    const all = names(30);
    const input = path.join(dir, 'pets.ndjson');
    fs.writeFileSync(input, petLines(all));
    const failed = path.join(dir, 'failed.ndjson');
    const child = startChild(
      process.execPath,
      [BIN, 'add', '--file', input, '--failed', failed, '--concurrency', '4'],
      childOf(context, env(server)),
    );
    await child.waitFor(() => posts(server).length >= 6, '6 POSTs');
    // Whatever it writes from now on meets a closed pipe (EPIPE).
    child.process.stdout!.destroy();
    child.process.stderr!.destroy();
    child.kill('SIGHUP');
    expect((await child.done).code).toBe(129);
    const lines = readNdjson(failed);
    expect(lines.every((l) => l.outcome === 'not_sent')).toBe(true);
    expect([...lines.map((l) => l.item.name), ...storedNames(server)].sort()).toEqual([...all].sort());
    expect(fs.readdirSync(dir).sort()).toEqual(['failed.ndjson', 'failed.ndjson.journal', 'pets.ndjson']);
  });

  test("after kill -9, the same command runs at once: the dead load's lock and temporary file are taken over", async (context) => {
    const { expect } = context;
    const { server, dir, failed, args } = await hangingLoadOfThree(context);
    const child = startChild(process.execPath, [BIN, 'add', ...args], childOf(context, env(server)));
    await child.waitFor(() => posts(server).length === 1, 'the first POST');
    expect(fs.readdirSync(dir).sort()).toEqual([
      expect.stringMatching(/^\.failed\.ndjson\.\d+\.[0-9a-f]+\.tmp$/),
      'failed.ndjson.journal',
      'failed.ndjson.lock',
      'pets.ndjson',
    ]);
    child.kill('SIGKILL');
    await child.done;
    await server.close();
    // The same command in-process: the dead child's lock and temporary file are files, whoever takes them over.
    const again = await add(await start(context), args);
    // The first pet was sent when the load died: its journal makes it unknown, never sent twice.
    expect(again.code).toBe(1);
    expect(unwrapped(again.stderr)).toMatch(
      /^resuming the load started at .*\nunknown: line 1 "p0": sent before the load stopped, .*\ncreated 2 of 3 pets; 0 failed, 1 unknown \(written to .*\)\n/,
    );
    expect(readNdjson(failed).map((line) => [line.line, line.outcome])).toEqual([[1, 'unknown']]);
    expect(fs.readdirSync(dir).sort()).toEqual(['failed.ndjson', 'failed.ndjson.journal', 'pets.ndjson']);
  });

  test('two live loads on one --failed file: the second is still refused, exit 2, nothing sent', async (context) => {
    const { expect } = context;
    const { server, dir, args } = await hangingLoadOfThree(context);
    const first = startChild(process.execPath, [BIN, 'add', ...args], childOf(context, env(server)));
    await first.waitFor(() => posts(server).length === 1, 'the first POST');
    // The second in-process: another process (this one) than the live load that holds the lock.
    const second = await add(server, args);
    expect(second).toEqual({
      code: 2,
      stdout: '',
      stderr: wrapped(
        `error: --failed ${fs.realpathSync(dir)}/failed.ndjson is being written by another petstore add --file; give each load its own file\nA load that died leaves the lock ${fs.realpathSync(dir)}/failed.ndjson.lock, taken over once it has not been renewed for 30 seconds.\n`,
      ),
    });
    expect(posts(server)).toHaveLength(1);
    first.kill('SIGKILL');
    await first.done;
  });
});

describe.concurrent('a stderr that cannot be written', () => {
  test.for([
    [
      '/dev/full',
      (failed: string, input: string) => `exec "${process.execPath}" "${BIN}" add --file "${input}" --failed "${failed}" 2>/dev/full`,
    ],
    [
      'a pipe closed early (2>&1 | head -1)',
      (failed: string, input: string) =>
        `"${process.execPath}" "${BIN}" add --file "${input}" --failed "${failed}" 2>&1 | head -c 1 >/dev/null`,
    ],
  ] as const)('%s: the load goes on and --failed is written whole', async ([, command], context) => {
    const { expect } = context;
    const server = await start(context, (request) =>
      request.body.includes('"bad') ? { status: 400, json: { code: 'x', message: 'refused', status: 400 } } : undefined,
    );
    const dir = tempDir();
    const input = path.join(dir, 'pets.ndjson');
    fs.writeFileSync(input, petLines(['bad0', 'ok1', 'bad2', 'ok3', ...names(30, 'more')]));
    const failed = path.join(dir, 'failed.ndjson');
    const r = await spawnAsync('/bin/sh', ['-c', command(failed, input)], env(server), '', context);
    expect(r.stderr).toBe('');
    const lines = readNdjson(failed);
    expect(lines.slice(0, 2).map((line) => [line.line, line.outcome])).toEqual([
      [1, 'failed'],
      [3, 'failed'],
    ]);
    // A closed stdout (the same pipe) stops the load: the rest is not_sent. Either way every pet is
    // stored or in --failed, never both: a rerun on --failed creates none twice.
    const recorded = lines.slice(2).map((line) => line.item.name);
    expect(lines.slice(2).every((line) => line.outcome === 'not_sent')).toBe(true);
    expect([...storedNames(server), ...recorded].sort()).toEqual(['ok1', 'ok3', ...names(30, 'more')].sort());
  });
});
