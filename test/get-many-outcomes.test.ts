// get of several ids against a service that misbehaves (issue 37 items 4 and 6): missing ids, other failures, a 401
// midway, refused connections, 503 and 429 with Retry-After, getPet gone (410, a route 404, PETSTORE_GET_VIA_LIST=1)
// and the one listPets pass for all the ids. Runs through main with the fake client, the sandbox's store behind it
// (test/support/fake-store.ts).
import { Readable } from 'node:stream';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { listPageOf, type Step, toJson } from '../sandbox/pet-service.mjs';
import { InterruptedError } from '../src/errors.js';
import type { PetStore } from '../sandbox/pet-store.mjs';
import { type RunSetup, unwrapped, wrapped } from './helpers.js';
import { type FakeClientOptions, fakeClientFactory } from './support/fake-client.js';
import { type FakeStoreOptions, serveStore } from './support/fake-store.js';

type Fake = ReturnType<typeof fakeClientFactory>;
let fake: Fake | undefined;
let store: PetStore | undefined;

/** The fake client with the sandbox's store of 20 generated pets (`pet-1`...) behind it, or as `options` say. */
function serve(options: FakeStoreOptions = {}, client: FakeClientOptions = {}): Fake {
  fake = fakeClientFactory({ ...client, env: { PETSTORE_NO_DEPRECATION_WARNING: '1', ...client.env } });
  store = serveStore(fake, { seed: 20, ...options });
  return fake;
}

const get = (args: string[], setup: RunSetup = {}) => fake!.main(['get', ...args], setup);
const json = (id: number | bigint) => toJson(store!.pets.get(BigInt(id)));
const row = (id: number | bigint) => {
  const pet = store!.pets.get(BigInt(id))!;
  return `${pet.id}\t${pet.name}\t${pet.categoryId}\t${pet.status}\n`;
};
const getPets = () => fake!.requests.filter((r) => /^\/v1\/pets\/\d+$/.test(r.path));
const listings = () => fake!.requests.filter((r) => r.path.startsWith('/v1/pets?'));
const lines = (text: string) => text.trimEnd().split('\n');
/** Faults: `step` for getPet of the ids in `ids` (all of them when undefined); the rest served. */
const onGetPet =
  (step: Step, ids?: readonly number[]): FakeStoreOptions['faults'] =>
  (request) => {
    const id = /^\/v1\/pets\/(\d+)$/.exec(request.url)?.[1];
    return id !== undefined && (!ids || ids.includes(Number(id))) ? step : undefined;
  };

/** A connection error as Node's net and dns modules give it, with its code. */
function systemError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

const GONE = 'warning: getPet is gone from the service: get reads listPets pages\n';
const FORCED = 'warning: PETSTORE_GET_VIA_LIST=1: get reads listPets pages, not getPet\n';

describe('missing ids and other failures', () => {
  test('missing ids are named on stderr as they come and the pets found printed; exit 3', async () => {
    serve();
    const r = await get(['1', '99999', '2', '99998']);
    expect(r).toMatchObject({ code: 3, stdout: row(1) + row(2) });
    expect(r.stderr).toBe(
      wrapped(
        'warning: id 99999: no animal with id 99999 (HTTP 404, code not_found)\n' +
          'warning: id 99998: no animal with id 99998 (HTTP 404, code not_found)\n' +
          'error: no animals with ids 99999, 99998 (2 of 4 ids; 2 pets printed)\n',
      ),
    );
  });

  test('with --json: the array of the pets found on stdout; the final error lists the missing ids, exactly', async () => {
    serve();
    const r = await get(['1', '9223372036854775807', '2', '--json']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(`[${json(1)},${json(2)}]\n`);
    const [each, error] = lines(unwrapped(r.stderr));
    expect(JSON.parse(each!)).toMatchObject({ code: 'not_found', error: { code: 'not_found', status: 404 } });
    expect(each).toContain('"id":9223372036854775807,');
    expect(error).toBe(
      '{"code":"not_found","message":"no animal with id 9223372036854775807 (1 of 3 ids; 2 pets printed)","status":null,' +
        '"read":3,"printed":2,"missing":[9223372036854775807],"notFound":1,"invalid":0,"failed":0}',
    );
  });

  test('a failure other than a missing pet (a 502 after its retries) is named; the others printed; exit 1', async () => {
    serve({ faults: onGetPet({ status: 502, json: { code: 'bad_gateway', message: 'store offline', status: 502 } }, [2]) });
    const r = await get(['1', '2', '99999', '3', '--retries', '1']);
    expect(r).toMatchObject({ code: 1, stdout: row(1) + row(3) });
    expect(r.stderr).toBe(
      wrapped(
        'warning: id 2: store offline (HTTP 502, code bad_gateway)\n' +
          'warning: id 99999: no animal with id 99999 (HTTP 404, code not_found)\n' +
          'error: 2 of 4 ids not printed (1 not found: 99999; 1 failed); 2 pets printed\n',
      ),
    );
    // The 502 was retried as get retries it (--retries 1).
    expect(getPets().filter((r) => r.path === '/v1/pets/2')).toHaveLength(2);
  });

  test.each([
    [503, 'Service Unavailable'],
    [429, 'Too Many Requests'],
  ])('a %i with Retry-After is retried as get does; every pet printed, exit 0', async (status) => {
    let refused = 0;
    serve({
      faults: (request) =>
        request.url === '/v1/pets/2' && refused++ === 0
          ? { status, headers: { 'retry-after': '0' }, json: { code: 'busy', message: 'later', status } }
          : undefined,
    });
    const r = await get(['1', '2', '3']);
    expect(r).toMatchObject({ code: 0, stdout: row(1) + row(2) + row(3), stderr: '' });
    expect(getPets().map((q) => q.path)).toEqual(expect.arrayContaining(['/v1/pets/2', '/v1/pets/2']));
    expect(getPets()).toHaveLength(4);
  });
});

describe('a run that stops', () => {
  test('a 401 midway stops at once: exit 4, the pets before it printed whole, nothing sent after the requests in flight', async () => {
    const unauthorized = { status: 401, json: { code: 'unauthorized', message: 'key revoked', status: 401 } };
    serve({ seed: 40, faults: (_request, index) => (index >= 4 ? unauthorized : undefined) });
    const ids = Array.from({ length: 40 }, (_, i) => String(i + 1));
    const r = await get([...ids, '--concurrency', '2', '--format', 'ndjson']);
    expect(r.code).toBe(4);
    // Ids 1 to 4 were answered before any 401 was: each is printed, whatever turn its answer came in.
    expect(r.stdout).toBe([1, 2, 3, 4].map(json).join('\n') + '\n');
    expect(lines(unwrapped(r.stderr))).toEqual([
      'error: key revoked (HTTP 401, code unauthorized) (stopped: 4 pets printed of 40 ids read)',
      'The key came from PETSTORE_API_KEY: check it, or unset it and log in: petstore auth login',
    ]);
    expect(fake!.requests.length).toBeLessThanOrEqual(4 + 2);
  });

  test('a pet answered in the same turn as a 401 is printed still: what was read before the stop stays printed', async () => {
    fake = fakeClientFactory({ env: { PETSTORE_NO_DEPRECATION_WARNING: '1' } });
    const pet = '{"id":1,"name":"Rex","categoryId":1,"status":"available"}';
    fake.answer('GET', '/v1/pets/1', 200, pet);
    fake.answer('GET', '/v1/pets/2', 401, JSON.stringify({ code: 'unauthorized', message: 'key revoked', status: 401 }));
    const r = await get(['1', '2', '--concurrency', '2', '--format', 'ndjson']);
    expect(r).toMatchObject({ code: 4, stdout: `${pet}\n` });
    expect(lines(unwrapped(r.stderr))[0]).toBe('error: key revoked (HTTP 401, code unauthorized) (stopped: 1 pet printed of 2 ids read)');
  });

  test('Ctrl-C with an id still on its way: the pet answered after it is printed, and the id passed over is named', async () => {
    const controller = new AbortController();
    const never = new Promise<void>(() => {});
    // 1, 2 and 3 leave at once; 4 leaves once 1 is answered, 5 once 3 is: by then the answers of 1 and 3 are read, 2 and 4 are held.
    serve({
      faults: (request) => {
        if (request.url === '/v1/pets/5') controller.abort(new InterruptedError('SIGINT'));
        return ['/v1/pets/2', '/v1/pets/4', '/v1/pets/5'].includes(request.url) ? { serve: true, until: never } : undefined;
      },
    });
    const r = await get(['1', '2', '3', '4', '5', '--concurrency', '3', '--format', 'ndjson'], { signal: controller.signal });
    expect(r.code).toBe(130);
    expect(r.stdout).toBe(`${json(1)}\n${json(3)}\n`);
    expect(lines(unwrapped(r.stderr))).toEqual([
      'warning: id 2: the run stopped before its lookup finished; not printed',
      'interrupted: 2 pets printed of 5 ids read',
    ]);
  });

  test('with --json a 401 midway leaves a valid JSON array on stdout; the error says what was printed of how many read', async () => {
    const unauthorized = { status: 401, json: { code: 'unauthorized', message: 'key revoked', status: 401 } };
    serve({ faults: (_request, index) => (index >= 2 ? unauthorized : undefined) }, { stdin: '1 2 3 4 5\n' });
    const r = await get(['-', '--json', '--concurrency', '1']);
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual([JSON.parse(json(1)), JSON.parse(json(2))]);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'unauthorized', message: 'key revoked', status: 401, printed: 2, read: 5 });
  });

  test('a service that refuses connections: one message naming the address and where the base URL comes from, exit 1', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => i + 1).join('\n');
    const refusing = fakeClientFactory({
      env: { PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1', PETSTORE_NO_DEPRECATION_WARNING: '1' },
      stdin: ids,
    });
    refusing.agent
      .get('http://127.0.0.1:9')
      .intercept({ path: () => true })
      .replyWithError(systemError('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED'))
      .persist();
    const r = await refusing.main(['get', '-']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(unwrapped(r.stderr)).toMatch(
      new RegExp(
        '^error: cannot reach 127\\.0\\.0\\.1:9: ECONNREFUSED \\(stopped: 0 pets printed of \\d+ ids read\\)\\n' +
          'Is the service running at http://127\\.0\\.0\\.1:9/v1/\\?\\nThe base URL is from PETSTORE_BASE_URL\\.\\n$',
      ),
    );
    // Each request was one that no connection took: the run stopped well before the 200 ids were all asked for.
    expect(refusing.requests.length).toBeLessThan(200);
  });
});

describe('a name that does not resolve', () => {
  test('no such host (DNS): one message naming it and where the base URL comes from, exit 1', async () => {
    const nowhere = fakeClientFactory({
      env: { PETSTORE_BASE_URL: 'https://petstore.invalid/v1', PETSTORE_NO_DEPRECATION_WARNING: '1' },
      stdin: Array.from({ length: 50 }, (_, i) => i + 1).join('\n'),
    });
    // What the resolver answers for a name under .invalid (RFC 6761): no such host.
    nowhere.agent
      .get('https://petstore.invalid')
      .intercept({ path: () => true })
      .replyWithError(systemError('getaddrinfo ENOTFOUND petstore.invalid', 'ENOTFOUND'))
      .persist();
    const r = await nowhere.main(['get', '-', '--json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('[]\n');
    expect(lines(r.stderr)).toHaveLength(1);
    expect(JSON.parse(r.stderr)).toMatchObject({
      code: 'network_error',
      message: 'cannot reach petstore.invalid: ENOTFOUND',
      printed: 0,
      hint: 'Is the service running at https://petstore.invalid/v1/?\nThe base URL is from PETSTORE_BASE_URL.',
    });
  });
});

describe('getPet gone: one listPets pass for all the ids', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test.each<[string, FakeStoreOptions['faults']]>([
    ['410', onGetPet({ status: 410, json: { code: 'gone', message: 'removed', status: 410 } })],
    ['a 404 for a route it does not have', onGetPet({ status: 404, json: { code: 'not_found', message: 'no route', status: 404 } })],
  ])('getPet answers %s: found on one pass that stops at the page of the last; printed in order', async (_, faults) => {
    serve({ seed: 300, faults }, { env: { PETSTORE_NO_DEPRECATION_WARNING: undefined } });
    const r = await get(['150', '5', '3', '5']);
    expect(r).toMatchObject({ code: 0, stdout: row(150) + row(5) + row(3) + row(5) });
    expect(r.stderr).toBe(
      wrapped(
        'warning: getPet is deprecated, removed 2030-12-05; get then reads listPets pages\n' +
          'PETSTORE_NO_DEPRECATION_WARNING=1 silences this warning\n' +
          GONE,
      ),
    );
    // The getPet requests in flight when it went (three ids), then pages 1 and 2 of one listing: 150 is on page 2.
    expect(getPets().length).toBeLessThanOrEqual(3);
    expect(listings().map((q) => q.path)).toEqual(['/v1/pets?limit=100', expect.stringMatching(/^\/v1\/pets\?limit=100&cursor=/)]);
  });

  test('PETSTORE_GET_VIA_LIST=1: no getPet at all; a missing id reads every page once, exit 3', async () => {
    serve({ seed: 250 }, { env: { PETSTORE_GET_VIA_LIST: '1' } });
    const r = await get(['2', '99999', '1', '250']);
    expect(r).toMatchObject({ code: 3, stdout: row(2) + row(1) + row(250) });
    expect(r.stderr).toBe(
      wrapped(
        `${FORCED}warning: id 99999: no animal with id 99999: none on the 3 pages of listPets (250 pets)\n` +
          'error: no animal with id 99999 (1 of 4 ids; 3 pets printed)\n',
      ),
    );
    expect(getPets()).toEqual([]);
    expect(listings()).toHaveLength(3);
  });

  test('ids above 2^53 are found exactly through listPets, with --json', async () => {
    serve({ firstId: 9007199254740993n, seed: 5 }, { env: { PETSTORE_GET_VIA_LIST: '1' } });
    const r = await get(['9007199254740997', '9007199254740993', '--json']);
    expect(r).toMatchObject({ code: 0, stdout: `[${json(9007199254740997n)},${json(9007199254740993n)}]\n` });
    expect(r.stdout).toContain('"id":9007199254740997,');
  });

  test('standard input longer than a pass holds (10,000 ids): a pass per window, each stopping where its last id is', async () => {
    serve({ seed: 10_050 }, { env: { PETSTORE_GET_VIA_LIST: '1' } });
    const ids = Array.from({ length: 10_001 }, (_, i) => i + 1);
    // One read of bytes, taken a slice at a time: the pass waits for the whole read, not for its first slice.
    const stdin = Readable.from([Buffer.from(ids.join('\n'))]);
    const r = await get(['-', '--format', 'ndjson'], { stdin });
    expect(r.code).toBe(0);
    expect(lines(r.stdout).map((line) => JSON.parse(line).id)).toEqual(ids);
    const starts = listings().filter((q) => q.path === '/v1/pets?limit=100');
    // Two passes: ids 1 to 10,000 (pages 1 to 100), then id 10,001 (pages 1 to 101).
    expect(starts).toHaveLength(2);
    expect(listings()).toHaveLength(100 + 101);
  });

  test('at a terminal, a pass longer than 2 seconds shows its progress on the status line, cleared at its end', async () => {
    // The clock moves 2 seconds while page 3 is asked for: the pass has read two pages of one pet, and found one, when its progress shows.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    serve(
      {
        seed: 5,
        pageSize: 1,
        faults: (request) => {
          if (listPageOf(request, { pageSize: 1 }) === 3) vi.advanceTimersByTime(2_000);
          return undefined;
        },
      },
      { env: { PETSTORE_GET_VIA_LIST: '1' } },
    );
    const r = await get(['5', '1', '--format', 'tsv'], { stdoutIsTTY: true });
    expect(r).toMatchObject({ code: 0, stdout: row(5) + row(1) });
    expect(r.stderr).toContain('\r\u001b[Klooking for 2 pets through listPets: page 3, 2 pets read, 1 found');
    expect(r.stderr.endsWith('\r\u001b[K')).toBe(true);
  });

  test.each([
    ['the pet found first', ['1', '250'], [1]],
    ['the pet found after an id never found', ['250', '1', '7'], [1, 7]],
  ])('a listing that fails partway stops the run: exit 1, the page named, %s still printed', async (_name, ids, printed) => {
    serve(
      {
        seed: 300,
        faults: (request) =>
          request.url.startsWith('/v1/pets?') && request.url.includes('cursor=')
            ? { status: 500, json: { code: 'internal', message: 'broke', status: 500 } }
            : undefined,
      },
      { env: { PETSTORE_GET_VIA_LIST: '1' } },
    );
    const r = await get([...ids, '--retries', '0']);
    // Page 1 (pets 1 to 100) was read before page 2 failed: the pets it held are printed, in the order given.
    expect(r).toMatchObject({ code: 1, stdout: printed.map(row).join('') });
    const pets = printed.length === 1 ? '1 pet' : `${printed.length} pets`;
    // An id passed over to print a pet after it is named as unanswered: the output is never taken for the first ids given.
    const passedOver = ids.slice(0, ids.indexOf(String(printed.at(-1)))).filter((id) => !printed.includes(Number(id)));
    expect(lines(unwrapped(r.stderr)).slice(1, 1 + passedOver.length)).toEqual(
      passedOver.map((id) => `warning: id ${id}: the run stopped before its lookup finished; not printed`),
    );
    expect(lines(unwrapped(r.stderr))[1 + passedOver.length]).toBe(
      `error: the listing stopped at page 2: broke (HTTP 500, code internal) (stopped: ${pets} printed of ${ids.length} ids read)`,
    );
  });

  test('Ctrl-C during a listPets pass: the pets its pages held so far are printed, exit 130', async () => {
    let askPageTwo = () => {};
    const pageTwoAsked = new Promise<void>((resolve) => {
      askPageTwo = resolve;
    });
    let interrupt = () => {};
    const interrupted = new Promise<void>((resolve) => {
      interrupt = resolve;
    });
    const controller = new AbortController();
    serve(
      {
        seed: 300,
        faults: (request) => {
          if (!request.url.includes('cursor=')) return undefined;
          askPageTwo();
          return { status: 500, json: { code: 'internal', message: 'late', status: 500 }, until: interrupted };
        },
      },
      { env: { PETSTORE_GET_VIA_LIST: '1' } },
    );
    const run = get(['5', '250', '9'], { signal: controller.signal });
    await pageTwoAsked;
    controller.abort(new InterruptedError('SIGINT'));
    interrupt();
    const r = await run;
    expect(r).toMatchObject({ code: 130, stdout: row(5) + row(9) });
    expect(unwrapped(r.stderr)).toContain('2 pets printed of 3 ids read');
  });
});
