// add --file --failed F --resolve-unknown (issue 29 item 6): the store's ids recorded before the first POST, unknown items settled
// against a listing at the end (a new pet with their fields) or sent again; given only on a rerun, only exact answers; kill -9 between
// the first listing and the end, then the same command.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, type TestContext, test } from 'vitest';
import { type Faults, type PetService, type PetServiceOptions, type Step, startPetService } from '../sandbox/pet-service.mjs';
import { BIN, readNdjson, run, startChild, until, wrapped, unwrapped } from './helpers.js';

// The tests run at once (describe.concurrent), each with its own service: most of their time is the settling's wait for answers still
// on their way (two --timeouts after the last send), which they share nothing to spend.

/** A sandbox for this test alone, closed when it ends. */
async function open(options: PetServiceOptions, onTestFinished: TestContext['onTestFinished']): Promise<PetService> {
  const server = await startPetService(options);
  onTestFinished(() => server.close());
  return server;
}

const env = (server: PetService) => ({ PATH: process.env.PATH, PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' });
const methods = (server: PetService) => server.requests.map((r) => `${r.method} ${r.url.replace(/cursor=[^&]+/, 'cursor=…')}`);
const posts = (server: PetService) => server.requests.filter((r) => r.method === 'POST').length;
/** Each stored pet's name, category id and status with how many times it is stored. */
const stored = (server: PetService) => {
  const counts: Record<string, number> = {};
  for (const pet of server.pets.values()) {
    const key = `${pet.name}/${pet.categoryId}/${pet.status ?? '-'}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
};

/** Faults by POST: the n-th POST (from 1) takes `steps[n]`; every other request is served. */
function byPost(steps: Record<number, Step>): Extract<Faults, (...args: never[]) => unknown> {
  let n = 0;
  return (request) => (request.method === 'POST' ? steps[++n] : undefined);
}

function folder(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-resolve-'));
}

const pets = (...items: Array<[string, number]>) =>
  items.map(([name, categoryId]) => `{"name":"${name}","categoryId":${categoryId},"status":"available"}\n`).join('');

async function add(server: PetService, args: string[]) {
  const { code, stdout, stderr } = await run(['add', ...args], { env: env(server) });
  return { code, stdout, stderr };
}

describe.concurrent('--resolve-unknown from the start of a load', () => {
  test('an answer dropped after storing settles as created, a connection reset before storing is sent again; a pet identical to one already in the store is created once more', async ({
    expect,
    onTestFinished,
  }) => {
    const server = await open({ key: 'k', faults: byPost({ 2: { serveThenDestroy: true }, 3: { destroy: true } }) }, onTestFinished);
    const dir = folder();
    const input = path.join(dir, 'pets.ndjson');
    fs.writeFileSync(input, pets(['Rex', 1], ['A', 2], ['B', 3], ['C', 4]));
    const failed = path.join(dir, 'failed.ndjson');
    const args = ['--file', input, '--failed', failed, '--resolve-unknown', '--concurrency', '1', '--timeout', '1000', '--json'];
    const r = await add(server, args);
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').map((line) => (line ? JSON.parse(line) : line))).toEqual([
      { info: 'listing the store before the first pet is sent (--resolve-unknown)', code: 'listing_store' },
      {
        info: `the store holds 4 pets before this load; their ids are in ${failed}.store-ids`,
        code: 'store_listed',
        pets: 4,
        file: `${failed}.store-ids`,
      },
      { info: 'settling 2 unknown items against the store (--resolve-unknown)', code: 'settling', unknown: 2 },
      { info: 'settled: line 2 "A" was created: pet 6', code: 'settled_created', line: 2, source: input, id: 6 },
      { info: 'sending again: line 3 "B": no pet in the store is it', code: 'resending', line: 3 },
      {
        info: 'created 4 of 4 pets; 0 failed; unknown outcomes settled: 1 created, 1 sent again, 0 left unknown',
        code: 'summary',
        read: 4,
        created: 4,
        failed: 0,
        unknown: 0,
        notSent: 0,
        skipped: 0,
        settled: { created: 1, resent: 1, unknown: 0, others: 0 },
      },
      '',
    ]);
    // Every created pet on stdout once, the settled one as listed.
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id)
        .sort(),
    ).toEqual([5, 6, 7, 8]);
    expect(stored(server)).toEqual({
      'Rex/1/available': 2,
      'Tom/2/pending': 1,
      'Bella/1/available': 1,
      'Goldie/3/sold': 1,
      'A/2/available': 1,
      'B/3/available': 1,
      'C/4/available': 1,
    });
    // The listing came before the first POST; one listing more to settle; B sent twice (reset before storing), nothing else.
    expect(methods(server)).toEqual([
      'GET /v1/pets?limit=100',
      ...Array(4).fill('POST /v1/pets'),
      'GET /v1/pets?limit=100',
      'POST /v1/pets',
    ]);
    expect(fs.readFileSync(failed, 'utf8')).toBe('');
    expect(fs.readFileSync(`${failed}.store-ids`, 'utf8')).toMatch(
      /^\{"petstore_store_ids":1,"journal":"[^"]+","listed":"[^"]+"\}\n1\n2\n3\n4\n\{"count":4\}\n$/,
    );
    // The settled outcome is journaled before B is sent again.
    const journal = fs.readFileSync(`${failed}.journal`, 'utf8');
    expect(journal.indexOf('{"c":1,"id":"6"}')).toBeGreaterThan(-1);
    expect(journal.indexOf('{"c":1,"id":"6"}')).toBeLessThan(journal.lastIndexOf('{"i":2,'));
    // Run again: finished, nothing sent.
    const again = await add(
      server,
      args.filter((a) => a !== '--json'),
    );
    expect(again).toMatchObject({ code: 0, stdout: '' });
    expect(unwrapped(again.stderr)).toMatch(/^this load of .*pets\.ndjson finished at .*the pets created are not sent again/);
    expect(posts(server)).toBe(5);
  });

  test("another writer's new pet is reported, never claimed; an answer dropped for every send ends unknown after two idle rounds", async ({
    expect,
    onTestFinished,
  }) => {
    let n = 0;
    // Every POST of "Lost" resets its connection before storing; the first POST also brings another writer's pet.
    const server = await open(
      {
        key: 'k',
        seed: false,
        faults: (request) => {
          if (request.method !== 'POST') return undefined;
          if (++n === 1) server.pets.set(100n, { id: 100n, name: 'Other', categoryId: 9n, status: 'sold' });
          return request.body.includes('"Lost"') ? { destroy: true } : undefined;
        },
      },
      onTestFinished,
    );
    const dir = folder();
    const input = path.join(dir, 'pets.ndjson');
    fs.writeFileSync(input, pets(['A', 1], ['Lost', 2]));
    const failed = path.join(dir, 'failed.ndjson');
    const r = await add(server, ['--file', input, '--failed', failed, '--resolve-unknown', '--concurrency', '1', '--timeout', '1000']);
    expect(r.code).toBe(1);
    const lines = unwrapped(r.stderr).split('\n');
    expect(lines.slice(2)).toEqual([
      'settling 1 unknown item against the store (--resolve-unknown)',
      'sending again: line 2 "Lost": no pet in the store is it',
      'sending again: line 2 "Lost": no pet in the store is it',
      expect.stringMatching(/^unknown: line 2 "Lost": the connection to 127\.0\.0\.1:\d+ closed before its answer came .*; not settled$/),
      "warning: 1 pet that this load did not create and no unknown item matches appeared in the store during the load (another writer's), not claimed: 100",
      `created 1 of 2 pets; 0 failed, 1 unknown (written to ${failed}); unknown outcomes settled: 0 created, 2 sent again, 1 left unknown`,
      'error: 1 of 2 pets may not have been created: its outcome is unknown',
      '',
    ]);
    expect(readNdjson(failed).map((record) => [record.item.name, record.outcome])).toEqual([['Lost', 'unknown']]);
    expect(posts(server)).toBe(4);
    expect(stored(server)).toEqual({ 'A/1/available': 1, 'Other/9/sold': 1 });
  });
});

describe.concurrent('--resolve-unknown given only on a later run', () => {
  test('the same command: an item no pet carries is sent and created once; one whose fields a pet carries stays unknown with its id, never sent', async ({
    expect,
    onTestFinished,
  }) => {
    const server = await open(
      {
        key: 'k',
        seed: false,
        faults: byPost({ 1: { serveThenDestroy: true }, 2: { destroy: true } }),
      },
      onTestFinished,
    );
    const dir = folder();
    const input = path.join(dir, 'pets.ndjson');
    fs.writeFileSync(input, pets(['A', 1], ['B', 2], ['C', 3]));
    const failed = path.join(dir, 'failed.ndjson');
    const args = ['--file', input, '--failed', failed, '--concurrency', '1', '--timeout', '1000'];
    expect((await add(server, args)).code).toBe(1);
    expect(readNdjson(failed).map((record) => record.outcome)).toEqual(['unknown', 'unknown']);
    const r = await add(server, [...args, '--resolve-unknown']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('3\tB\t2\tavailable\n');
    expect(unwrapped(r.stderr).split('\n').slice(1)).toEqual([
      'settling 2 unknown items against the store (--resolve-unknown)',
      'unknown: line 1 "A": not settled: sent before the store was first listed, and pet 1 in the store carries its name, categoryId and status; see whether it is it',
      'sending again: line 2 "B": no pet in the store is it',
      `created 2 of 3 pets; 0 failed, 1 unknown (written to ${failed}); unknown outcomes settled: 0 created, 1 sent again, 1 left unknown`,
      'error: 1 of 3 pets may not have been created: its outcome is unknown',
      '',
    ]);
    expect(readNdjson(failed).map((record) => [record.item.name, record.outcome, record.store_ids])).toEqual([['A', 'unknown', ['1']]]);
    expect(stored(server)).toEqual({ 'A/1/available': 1, 'B/2/available': 1, 'C/3/available': 1 });
    // Once more: A stays unknown, nothing is sent.
    const third = await add(server, [...args, '--resolve-unknown']);
    expect(third.code).toBe(1);
    expect(third.stderr).toContain('pet 1 in the store carries its name');
    expect(posts(server)).toBe(4);
  });

  test('a --failed rerun: its unknown lines are settled exactly, the rest sent', async ({ expect, onTestFinished }) => {
    const server = await open(
      { key: 'k', seed: false, faults: byPost({ 1: { serveThenDestroy: true }, 2: { destroy: true } }) },
      onTestFinished,
    );
    const dir = folder();
    const input = path.join(dir, 'pets.ndjson');
    fs.writeFileSync(input, pets(['A', 1], ['B', 2]));
    const failed = path.join(dir, 'failed.ndjson');
    expect((await add(server, ['--file', input, '--failed', failed, '--concurrency', '1'])).code).toBe(1);
    const again = path.join(dir, 'failed2.ndjson');
    const r = await add(server, ['--file', failed, '--failed', again, '--resolve-unknown', '--concurrency', '1']);
    expect(r.code).toBe(1);
    expect(unwrapped(r.stderr)).toContain(
      'unknown: line 1 of pets.ndjson "A": not settled: sent before the store was first listed, and pet 1 in the store carries',
    );
    expect(r.stderr).toContain('sending again: line 2 of pets.ndjson "B": no pet in the store is it');
    expect(readNdjson(again).map((record) => [record.line, record.item.name, record.store_ids])).toEqual([[1, 'A', ['1']]]);
    expect(stored(server)).toEqual({ 'A/1/available': 1, 'B/2/available': 1 });
  });
});

/**
 * Faults of a store listed newest first in pages of two by `offset`, where another writer adds a pet ("Other", from id 1000) as the
 * first POST arrives and while the first page of each listing after it is read, so that the next page repeats the last pet of that
 * one; POSTs by `byPost`. `store` gives the service they act on.
 */
function frontInserts(store: () => PetService, steps: Record<number, Step>): Faults {
  const post = byPost(steps);
  let posted = false;
  let otherId = 1000n;
  return (request, index) => {
    const addOther = () => {
      store().pets.set(otherId, { id: otherId, name: 'Other', categoryId: 9n, status: 'sold' });
      otherId += 1n;
    };
    if (request.method === 'POST') {
      if (!posted) addOther();
      posted = true;
      return post(request, index);
    }
    const url = new URL(request.url, 'http://sandbox');
    if (!posted || request.method !== 'GET' || url.pathname !== '/v1/pets') return undefined;
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const newestFirst = [...store().pets.values()].sort((a, b) => (a.id < b.id ? 1 : -1));
    const page = newestFirst.slice(offset, offset + 2);
    const more = offset + 2 < newestFirst.length;
    if (offset === 0) addOther();
    return { status: 200, json: page, headers: more ? { link: `</v1/pets?limit=100&offset=${offset + 2}>; rel="next"` } : {} };
  };
}

describe.concurrent('a listing that shows a pet twice (issue 38 item 1)', () => {
  test('two identical lines, one stored with its answer dropped, one never stored: the stored pet settles one of them, the other is sent again', async ({
    expect,
    onTestFinished,
  }) => {
    // Old1 and Old2 are in the store before the load; a third pet, Other, comes from another writer during the load.
    const server = await open(
      {
        key: 'k',
        seed: [
          { name: 'Old1', categoryId: 5n, status: 'sold' },
          { name: 'Old2', categoryId: 5n, status: 'sold' },
        ],
        faults: frontInserts(() => server, { 1: { serveThenDestroy: true }, 2: { hang: true } }),
      },
      onTestFinished,
    );
    const dir = folder();
    const input = path.join(dir, 'twins.ndjson');
    fs.writeFileSync(input, pets(['Twin', 1], ['Twin', 1]));
    const failed = path.join(dir, 'failed.ndjson');
    const args = ['--file', input, '--failed', failed, '--resolve-unknown', '--concurrency', '1', '--timeout', '1000'];
    const r = await add(server, args);
    const lines = unwrapped(r.stderr).split('\n');
    // The settling's listing shows, newest first: Other 1000, Twin 3, then (Other 1001 added meanwhile) Twin 3 again and Old2, then Old1.
    expect(lines.slice(2)).toEqual([
      'settling 2 unknown items against the store (--resolve-unknown)',
      "warning: the store's listing showed 1 pet more than once (the store changed while it was read); each pet settled one unknown item at most",
      'settled: line 1 "Twin" was created: pet 3',
      'sending again: line 2 "Twin": no pet in the store is it',
      // Other 1001, added at the front after the first page, is never shown: offset pages move past it.
      "warning: 1 pet that this load did not create and no unknown item matches appeared in the store during the load (another writer's), not claimed: 1000",
      'created 2 of 2 pets; 0 failed; unknown outcomes settled: 1 created, 1 sent again, 0 left unknown',
      '',
    ]);
    expect(r.code).toBe(0);
    expect(stored(server)).toEqual({ 'Old1/5/sold': 1, 'Old2/5/sold': 1, 'Twin/1/available': 2, 'Other/9/sold': 2 });
  });

  test('given only on a later run, two identical unknown lines and one pet with their fields: one stays unknown naming it, the other, which no pet can be, is sent again', async ({
    expect,
    onTestFinished,
  }) => {
    const server = await open(
      { key: 'k', seed: false, faults: byPost({ 1: { serveThenDestroy: true }, 2: { destroy: true } }) },
      onTestFinished,
    );
    const dir = folder();
    const input = path.join(dir, 'twins.ndjson');
    fs.writeFileSync(input, pets(['Twin', 1], ['Twin', 1]));
    const failed = path.join(dir, 'failed.ndjson');
    const args = ['--file', input, '--failed', failed, '--concurrency', '1', '--timeout', '1000'];
    expect((await add(server, args)).code).toBe(1);
    const r = await add(server, [...args, '--resolve-unknown']);
    expect(unwrapped(r.stderr).split('\n').slice(1)).toEqual([
      'settling 2 unknown items against the store (--resolve-unknown)',
      'unknown: line 1 "Twin": not settled: sent before the store was first listed, and pet 1 in the store carries its name, categoryId and status; see whether it is it',
      'sending again: line 2 "Twin": no pet in the store is it',
      `created 1 of 2 pets; 0 failed, 1 unknown (written to ${failed}); unknown outcomes settled: 0 created, 1 sent again, 1 left unknown`,
      'error: 1 of 2 pets may not have been created: its outcome is unknown',
      '',
    ]);
    expect(r.code).toBe(1);
    expect(stored(server)).toEqual({ 'Twin/1/available': 2 });
  });
});

describe.concurrent('--resolve-unknown: flags', () => {
  test.for([
    [
      ['--file', '-', '--resolve-unknown'],
      "--resolve-unknown goes with --failed: the journal and the store's ids are kept beside that file",
    ],
    [
      ['--file', '-', '--failed', 'f.ndjson', '--resolve-unknown', '--retry-unknown'],
      '--resolve-unknown cannot be combined with --retry-unknown: it sends again only the unknown items not stored',
    ],
    [['--name', 'x', '--category-id', '1', '--resolve-unknown'], '--resolve-unknown goes with --file'],
  ] as const)('%j: exit 2, nothing sent', async ([args, message], { expect, onTestFinished }) => {
    const server = await open({ key: 'k' }, onTestFinished);
    expect(await add(server, [...args])).toEqual({ code: 2, stdout: '', stderr: wrapped(`error: ${message}\n`) });
    expect(server.requests).toEqual([]);
  });
});

test.concurrent('kill -9 between the first listing and the end, then the same command: every pet stored once, none unknown', async ({
  expect,
  onTestFinished,
}) => {
  // Answers come late: the load dies with POSTs in flight, whose pets the service stores after it died (a POST that had not
  // reached it yet is sent again).
  const server = await open(
    {
      key: 'k',
      faults: (request) => (request.method === 'POST' ? { serve: true, delayMs: 150 } : undefined),
    },
    onTestFinished,
  );
  const dir = folder();
  const input = path.join(dir, 'pets.ndjson');
  fs.writeFileSync(input, pets(...Array.from({ length: 12 }, (_, i): [string, number] => [`p${i}`, i])));
  const failed = path.join(dir, 'failed.ndjson');
  const args = ['--file', input, '--failed', failed, '--resolve-unknown', '--concurrency', '3', '--timeout', '1000'];
  const child = startChild(process.execPath, [BIN, 'add', ...args], {
    env: env(server),
    stdio: ['ignore', 'ignore', 'ignore'],
    onTestFinished,
  });
  await until(() => posts(server) >= 4 || child.exited);
  child.kill('SIGKILL');
  await child.done;
  // The ids were on disk before the first POST left.
  expect(methods(server)[0]).toBe('GET /v1/pets?limit=100');
  expect(fs.readFileSync(`${failed}.store-ids`, 'utf8')).toMatch(/\n1\n2\n3\n4\n\{"count":4\}\n$/);
  const r = await add(server, args);
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/settled: line \d+ "p\d+" was created: pet \d+\n/);
  expect(unwrapped(r.stderr)).toMatch(/; unknown outcomes settled: [1-9]\d* created, \d+ sent again, 0 left unknown\n$/);
  const counts = stored(server);
  expect(Object.keys(counts).length).toBe(16);
  expect(Object.values(counts).every((count) => count === 1)).toBe(true);
  expect(fs.readFileSync(failed, 'utf8')).toBe('');
});
