// The load journal (F.journal beside --failed F): after kill -9 at any point,
// the same command resumes; nothing is created twice, nothing is lost.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { dropEvery, type Faults, type PetService, startPetService } from '../sandbox/pet-service.mjs';
import { BIN, readNdjson, run, startChild, until, unwrapped } from './helpers.js';

// The in-process loads reach only the service each test starts on 127.0.0.1.

let server: PetService | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** How long the service started without faults waits before each answer, in milliseconds: 20 while a load to be killed runs, so that kill -9 finds it mid-load. */
let paceMs = 0;

const start = async (faults?: Faults) => {
  server = await startPetService({ key: 'k', seed: false, faults: faults ?? (() => ({ serve: true, delayMs: paceMs })) });
  return server;
};
const env = () => ({ PATH: process.env.PATH, PETSTORE_BASE_URL: server!.baseUrl, PETSTORE_API_KEY: 'k' });
const posts = () => server!.requests.filter((r) => r.method === 'POST').length;
/** Names of the stored pets, each with how many times it is stored. */
const stored = () => {
  const counts = new Map<string, number>();
  for (const pet of server!.pets.values()) counts.set(pet.name, (counts.get(pet.name) ?? 0) + 1);
  return counts;
};

const names = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);
const ndjson = (all: string[]) => all.map((name, i) => `{"name":"${name}","categoryId":${i}}\n`).join('');
const array = (all: string[]) =>
  JSON.stringify(
    all.map((name, i) => ({ name, categoryId: i })),
    null,
    2,
  );

/**
 * Runs `add` with `args` in-process to its end, feeding `stdin`: the runs that are not killed (the journal they
 * read is a file, whoever wrote it); exit code and output.
 */
async function add(args: string[], stdin?: string) {
  const { code, stdout, stderr } = await run(['add', ...args], { env: env(), stdin });
  return { code, stdout, stderr };
}

/** Starts `add` with `args`, feeds `stdin`, and kills it with SIGKILL once the service has seen `posts` POSTs. */
async function killAfter(args: string[], count: number, stdin?: string) {
  paceMs = 20;
  try {
    const child = startChild(process.execPath, [BIN, 'add', ...args], {
      env: env(),
      input: stdin ?? '',
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    await until(() => posts() >= count || child.exited);
    child.kill('SIGKILL');
    await child.done;
  } finally {
    paceMs = 0;
  }
}

describe('kill -9, then the same command', () => {
  test.each([
    ['an NDJSON file', 'pets.ndjson', ndjson, false],
    ['a pretty-printed JSON array', 'pets.json', array, false],
    ['standard input piped again', 'pets.ndjson', ndjson, true],
  ] as const)(
    '%s: killed twice, resumed: every pet stored once, none lost; F as one run writes it plus the unknown',
    async (_, name, make, piped) => {
      await start();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-journal-'));
      const all = names(120);
      const content = make(all);
      fs.writeFileSync(path.join(dir, name), content);
      const failed = path.join(dir, 'failed.ndjson');
      const args = [...(piped ? ['--file', '-'] : ['--file', path.join(dir, name)]), '--failed', failed, '--concurrency', '4'];
      await killAfter(args, 20, content);
      await killAfter(args, 60, content);
      const again = await add(args, content);
      expect(unwrapped(again.stderr)).toMatch(
        /^resuming the load started at \S+ \(journal .*failed\.ndjson\.journal\): of its first \d+ pets, \d+ created, 0 failed, \d+ unknown/,
      );
      const counts = stored();
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      const unknown = readNdjson(failed);
      expect(unknown.every((line) => line.outcome === 'unknown')).toBe(true);
      // At most --concurrency items per death are unknown; every other pet was created.
      expect(unknown.length).toBeLessThanOrEqual(8);
      const created = all.filter((pet) => counts.has(pet));
      expect(created.length + unknown.filter((line) => !counts.has(line.item.name)).length).toBe(120);
      expect(again.code).toBe(unknown.length ? 1 : 0);
      // The rerun of the finished load sends nothing, reads the input again and exits 0 only if every pet was created.
      const before = posts();
      const finished = await add(args, content);
      expect(finished.code).toBe(unknown.length ? 1 : 0);
      expect(unwrapped(finished.stderr)).toMatch(
        /^this load of .* finished at \S+ \(journal .*\): of its 120 pets, \d+ created, 0 failed, \d+ unknown; the input is read again to check it is the same; the pets created are not sent again\. --restart loads it anew\n/,
      );
      expect(finished.stderr).toContain(`created ${120 - unknown.length} of 120 pets; 0 failed`);
      expect(posts()).toBe(before);
    },
  );

  test('kill -9 while answers are dropped after the pet was stored: each pet stored at most once', async () => {
    await start(dropEvery(3));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-journal-'));
    const input = path.join(dir, 'pets.ndjson');
    fs.writeFileSync(input, ndjson(names(60)));
    const args = ['--file', input, '--failed', path.join(dir, 'failed.ndjson'), '--concurrency', '4', '--timeout', '2000'];
    await killAfter(args, 15);
    const again = await add(args);
    expect(again.code).toBe(1);
    expect([...stored().values()].every((n) => n === 1)).toBe(true);
  });
});

describe('the input must be the one the load started with', () => {
  test('an edited line: exit 2 naming it, nothing sent; --restart discards the journal and loads it all', async () => {
    await start();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-journal-'));
    const input = path.join(dir, 'pets.ndjson');
    fs.writeFileSync(input, ndjson(names(60)));
    const failed = path.join(dir, 'failed.ndjson');
    const args = ['--file', input, '--failed', failed, '--concurrency', '2'];
    await killAfter(args, 20);
    fs.writeFileSync(input, ndjson(names(60)).replace('"p5"', '"p5-edited"'));
    const before = posts();
    const edited = await add(args);
    expect(edited).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^resuming the load started at .*\n/),
    });
    expect(unwrapped(edited.stderr).split('\n').slice(1).join('\n')).toBe(
      `error: the input differs from the one the journal ${fs.realpathSync(dir)}/failed.ndjson.journal records, at line 5; nothing was sent by this run\n` +
        'Add --restart to discard the journal and load this input from the start, or give another --failed.\n',
    );
    expect(posts()).toBe(before);
    const restarted = await add([...args, '--restart']);
    expect(restarted.code).toBe(0);
    expect(posts()).toBe(before + 60);
    expect(stored().get('p5-edited')).toBe(1);
  });

  test('--restart without --failed: exit 2, nothing sent', async () => {
    await start();
    // A flag check: in-process.
    const r = await run(['add', '--file', '-', '--restart'], { env: env(), stdin: ndjson(names(1)) });
    expect(r).toMatchObject({ code: 2, stderr: 'error: --restart goes with --failed: the journal is kept beside that file\n' });
    expect(posts()).toBe(0);
  });
});

describe('a load that stops while resuming', () => {
  test('a stop while a 503 waits for its Retry-After: that item is not_sent, and the same command sends it', async () => {
    let refused = false;
    await start((request) => {
      if (request.method !== 'POST' || refused) return { serve: true };
      refused = true;
      return { status: 503, headers: { 'retry-after': '30' }, json: { code: 'busy', message: 'busy', status: 503 } };
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-journal-'));
    const input = path.join(dir, 'pets.ndjson');
    fs.writeFileSync(input, ndjson(names(3)));
    const failed = path.join(dir, 'failed.ndjson');
    const args = ['--file', input, '--failed', failed, '--concurrency', '1'];
    // --verbose says when the 503 came: the load then waits 30 s to send p1 again.
    const child = startChild(process.execPath, [BIN, 'add', ...args, '--verbose'], { env: env(), stdio: ['ignore', 'ignore', 'pipe'] });
    await child.waitForText('< HTTP 503');
    child.kill('SIGTERM');
    const { code, stderr } = await child.done;
    expect(code).toBe(143);
    expect(unwrapped(stderr)).toMatch(/\nterminated: created 0 of 3 pets; 0 failed, 3 not sent \(written to .*failed\.ndjson\)\n$/);
    expect(posts()).toBe(1);
    expect(readNdjson(failed).map((line) => [line.item.name, line.outcome])).toEqual([
      ['p1', 'not_sent'],
      ['p2', 'not_sent'],
      ['p3', 'not_sent'],
    ]);
    const again = await add(args);
    expect(again.code).toBe(0);
    expect([...stored().entries()]).toEqual([
      ['p1', 1],
      ['p2', 1],
      ['p3', 1],
    ]);
  });

  test('a 401 while resuming: the pets an earlier run created are never written to --failed as not sent', async () => {
    let mode: 'first' | 'refuse' | 'serve' = 'first';
    await start((request, index) => {
      if (request.method !== 'POST' || mode === 'serve') return { serve: true };
      if (mode === 'refuse') return { status: 401, delayMs: 200, json: { code: 'invalid_api_key', message: 'no', status: 401 } };
      return index < 2 ? { hang: true } : { serve: true };
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-journal-'));
    const input = path.join(dir, 'pets.ndjson');
    fs.writeFileSync(input, ndjson(names(40)));
    const failed = path.join(dir, 'failed.ndjson');
    const args = ['--file', input, '--failed', failed, '--retry-unknown', '--timeout', '60000'];
    // p1 and p2 hang in two slots while the third creates pets, until kill -9.
    await killAfter([...args, '--concurrency', '3'], 30);
    mode = 'refuse';
    // One slot: p1 is sent again and refused; p2 waits for the slot, so the load stops before it reads the pets after it.
    const refused = await add([...args, '--concurrency', '1']);
    expect(refused.code).toBe(4);
    const counts = stored();
    const listed = readNdjson(failed);
    // p2, sent by the first run with no answer, is not sent again: it stays unknown.
    expect(listed.slice(0, 2).map((line) => [line.item.name, line.outcome])).toEqual([
      ['p1', 'failed'],
      ['p2', 'unknown'],
    ]);
    // Created pets are not listed; one sent without an answer recorded stays unknown (never not_sent), stored or not.
    expect(listed.filter((line) => line.outcome !== 'unknown' && counts.has(line.item.name))).toEqual([]);
    expect(listed.length + counts.size - listed.filter((line) => counts.has(line.item.name)).length).toBe(40);
    const unknown = listed.filter((line) => line.outcome === 'unknown').map((line) => line.item.name);
    mode = 'serve';
    const again = await add([...args, '--concurrency', '1']);
    expect(again.code).toBe(1);
    // p1's 401 is its answer: failed, as one run records it; the unknown are not sent again.
    expect(readNdjson(failed).map((line) => [line.item.name, line.outcome])).toEqual([
      ['p1', 'failed'],
      ...unknown.map((name) => [name, 'unknown']),
    ]);
    expect(stored().size + 1 + unknown.filter((name) => !counts.has(name)).length).toBe(40);
    expect([...stored().values()].every((n) => n === 1)).toBe(true);
  });
});

test('--retry-unknown stopped by a 401: the unknown items it did not send again stay unknown, never not_sent', async () => {
  await start((request) =>
    request.method === 'POST' ? { status: 401, delayMs: 200, json: { code: 'invalid_api_key', message: 'no', status: 401 } } : undefined,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-journal-'));
  const earlier = path.join(dir, 'failed.ndjson');
  const unknown = (name: string, line: number) =>
    JSON.stringify({
      line,
      source: '/pets.ndjson',
      outcome: 'unknown',
      item: { name, categoryId: 1 },
      error: { code: 'x', message: 'x', status: null },
    });
  fs.writeFileSync(earlier, `${unknown('u1', 3)}\n${unknown('u2', 9)}\n`);
  const again = path.join(dir, 'failed2.ndjson');
  const r = await add(['--file', earlier, '--failed', again, '--retry-unknown', '--concurrency', '1']);
  expect(r.code).toBe(4);
  expect(posts()).toBe(1);
  expect(readNdjson(again).map((line) => [line.item.name, line.line, line.outcome])).toEqual([
    ['u1', 3, 'failed'],
    ['u2', 9, 'unknown'],
  ]);
});
