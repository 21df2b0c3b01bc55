// list --all (RFC 8288 Link rel="next") and the machine formats of list: list's run through the fake client, its flags through
// parseCommand.
import { errors } from 'undici';
import { describe, expect, test } from 'vitest';
import { newListCommand } from '../src/commands/list/list.js';
import { LIST } from '../src/commands/list/run.js';
import { type Given, runCommand } from '../src/commands/runner.js';
import type { ListingCutError } from '../src/errors.js';
import { parseCommand, refusedBeforeRun, wrapped } from './helpers.js';
import { FAKE_ORIGIN, type FakeClientOptions, fakeClientFactory, thrownBy } from './support/fake-client.js';

const BASE = FAKE_ORIGIN;
const pet = (id: number) => ({ id, name: `p${id}`, categoryId: 1, status: 'available' });
const json = (value: unknown) => JSON.stringify(value);

type Fake = ReturnType<typeof fakeClientFactory>;

/** list's run on `fake` with `given`: what it wrote and what it threw. */
async function listed(fake: Fake, given: Given) {
  const error = await thrownBy(runCommand(fake.f, LIST, given));
  return { ...fake.written, error };
}

function threePages(options: FakeClientOptions = {}): Fake {
  const fake = fakeClientFactory(options);
  fake.answer('GET', '/v1/pets?limit=2', 200, json([pet(1), pet(2)]), {
    link: `<${BASE}/v1/pets?limit=2&cursor=b>; rel="next", <${BASE}/v1/pets?limit=2>; rel="first"`,
  });
  fake.answer('GET', '/v1/pets?limit=2&cursor=b', 200, json([pet(3), pet(4)]), {
    link: '</v1/pets?limit=2&cursor=a>; rel="prev", </v1/pets?limit=2&cursor=c>; rel="next"',
  });
  fake.answer('GET', '/v1/pets?limit=2&cursor=c', 200, json([pet(5)]), { link: '</v1/pets?limit=2&cursor=b>; rel="prev"' });
  return fake;
}

const ALL_BY_2 = { flags: { all: true, limit: '2' } };

describe('list --all', () => {
  test('follows rel="next" over several pages, ignoring other relations', async () => {
    const r = await listed(threePages({ globals: { json: true } }), ALL_BY_2);
    expect(r.error).toBeUndefined();
    expect(JSON.parse(r.stdout).map((p: { id: number }) => p.id)).toEqual([1, 2, 3, 4, 5]);
  });

  test('--json streams one array across pages, the same bytes as one page would print, int64 ids exact', async () => {
    const big = '{"id":9007199254740993,"name":"big","categoryId":1,"status":"available"}';
    const fake = fakeClientFactory({ globals: { json: true } });
    fake.answer('GET', '/v1/pets?limit=2', 200, `[${big},${json(pet(2))}]`, { link: '</v1/pets?limit=2&cursor=b>; rel="next"' });
    fake.answer('GET', '/v1/pets?limit=2&cursor=b', 200, '[]', { link: '</v1/pets?limit=2&cursor=c>; rel="next"' });
    fake.answer('GET', '/v1/pets?limit=2&cursor=c', 200, json([pet(3)]));
    expect(await listed(fake, ALL_BY_2)).toEqual({ stdout: `[${big},${json(pet(2))},${json(pet(3))}]\n`, stderr: '', error: undefined });
  });

  test('--json of no pets at all is []', async () => {
    const fake = fakeClientFactory({ globals: { json: true } });
    fake.answer('GET', '/v1/pets?limit=2', 200, '[]');
    expect(await listed(fake, ALL_BY_2)).toEqual({ stdout: '[]\n', stderr: '', error: undefined });
  });

  const NEXT = `${BASE}/v1/pets?limit=2&cursor=b`;
  test.each<[string, (fake: Fake) => void, unknown]>([
    [
      'an error status',
      (fake) => fake.answer('GET', '/v1/pets?limit=2&cursor=b', 503, json({ code: 'busy', message: 'come back later', status: 503 })),
      {
        code: 'busy',
        message: 'come back later',
        status: 503,
        hint: `the rest of the listing starts at the page that failed: ${NEXT}`,
        printed: 2,
        next: NEXT,
      },
    ],
    [
      // What undici throws for a connection closed before the answer (test/list-whole-store.test.ts drops a real one).
      'a dropped connection',
      (fake) =>
        fake.service
          .intercept({ method: 'GET', path: '/v1/pets?limit=2&cursor=b' })
          .replyWithError(new errors.SocketError('other side closed')),
      {
        code: 'connection_closed',
        message: expect.stringContaining('closed'),
        status: null,
        hint: expect.any(String),
        printed: 2,
        next: NEXT,
      },
    ],
  ])(
    'a page failing midway (%s): the JSON written so far stays, cut there; exit 1, the count and the next link',
    async (_, fault, report) => {
      const fake = fakeClientFactory({ globals: { json: true, retries: 0 } });
      fake.answer('GET', '/v1/pets?limit=2', 200, json([pet(1), pet(2)]), { link: '</v1/pets?limit=2&cursor=b>; rel="next"' });
      fault(fake);
      const r = await listed(fake, ALL_BY_2);
      expect(fake.requests.map((q) => q.path)).toEqual(['/v1/pets?limit=2', '/v1/pets?limit=2&cursor=b']);
      expect(r).toMatchObject({ stdout: `[${json(pet(1))},${json(pet(2))}`, stderr: '', error: { exitCode: 1 } });
      expect((r.error as ListingCutError).report()).toEqual(report);
    },
  );

  test('--format ndjson prints one pet per line across pages', async () => {
    const r = await listed(threePages({ output: { format: 'ndjson' } }), ALL_BY_2);
    expect(r.stdout).toBe([1, 2, 3, 4, 5].map((id) => `${json(pet(id))}\n`).join(''));
  });

  test('--format tsv prints rows across pages', async () => {
    const r = await listed(threePages({ output: { format: 'tsv' }, tty: true }), ALL_BY_2);
    expect(r.stdout).toBe([1, 2, 3, 4, 5].map((id) => `${id}\tp${id}\t1\tavailable\n`).join(''));
  });

  test('without --all only the first page is fetched', async () => {
    const fake = fakeClientFactory({ output: { format: 'ndjson' } });
    fake.answer('GET', '/v1/pets?limit=2', 200, json([pet(1)]), { link: `<${BASE}/v1/pets?cursor=b>; rel="next"` });
    expect((await listed(fake, { flags: { limit: '2' } })).stdout).toBe(`${json(pet(1))}\n`);
    expect(fake.requests).toHaveLength(1);
  });

  test('a next link to another origin is refused, exit 1', async () => {
    const fake = fakeClientFactory({ output: { format: 'ndjson' } });
    fake.answer('GET', '/v1/pets?limit=100', 200, json([pet(1)]), { link: '<https://evil.example/v1/pets?page=2>; rel="next"' });
    expect(await listed(fake, { flags: { all: true } })).toMatchObject({
      stdout: `${json(pet(1))}\n`,
      stderr: '',
      error: {
        exitCode: 1,
        message: 'stopped at page 1, after 1 pet: refusing to follow the next page link to another origin: https://evil.example',
        hint: undefined,
      },
    });
  });

  test('no page cap: 1,050 pages of one pet are all read, exit 0', async () => {
    const fake = fakeClientFactory({ output: { format: 'ndjson' } });
    // Page n holds pet n and links page n + 1, up to 1,050.
    fake.service
      // MockAgent matches a path with its query sorted: cursor=...&limit=100.
      .intercept({ method: 'GET', path: (path) => path.startsWith('/v1/pets?') })
      .reply(({ path }) => {
        const page = Number(/cursor=(\d+)/.exec(path)?.[1] ?? 1);
        const link = page < 1050 ? `</v1/pets?limit=100&cursor=${page + 1}>; rel="next"` : undefined;
        return {
          statusCode: 200,
          data: json([pet(page)]),
          responseOptions: { headers: { 'content-type': 'application/json', ...(link && { link }) } },
        };
      })
      .persist();
    const r = await listed(fake, { flags: { all: true } });
    expect(r).toMatchObject({ stderr: '', error: undefined });
    const ids = r.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).id);
    expect(ids).toEqual(Array.from({ length: 1050 }, (_, i) => i + 1));
    expect(fake.requests).toHaveLength(1050);
  });
});

describe('list formats', () => {
  test('--format json equals --json; --format table draws a table even when piped', async () => {
    const asJson = fakeClientFactory({ output: { format: 'json' } });
    asJson.answer('GET', '/v1/pets?limit=20', 200, json([pet(1)]));
    expect((await listed(asJson, {})).stdout).toBe(`[${json(pet(1))}]\n`);
    const table = fakeClientFactory({ output: { format: 'table' } });
    table.answer('GET', '/v1/pets?limit=20', 200, json([pet(1)]));
    expect((await listed(table, {})).stdout).toContain('│ 1  │ p1   │ 1           │ available │');
  });

  test('rejects an unknown format and a conflict with --json, exit 2, nothing sent', async () => {
    expect(await parseCommand(newListCommand, ['list', '--format', 'xml'])).toEqual(
      refusedBeforeRun('invalid value for --format: "xml": allowed values: table, kv, tsv, json, ndjson'),
    );
    const conflict = await parseCommand(newListCommand, ['list', '--json', '--format', 'tsv']);
    expect(conflict).toMatchObject({ code: 2, reached: [] });
    expect(conflict.stderr).toContain('--json and --format tsv ask for different formats');
  });
});

describe('a full last page is never a silent cut', () => {
  const pets = (n: number) => Array.from({ length: n }, (_, i) => pet(i + 1));

  /** list with `given`, its first page `path` answered `body` (with a next link, when given). */
  async function onePage(given: Given, path: string, body: unknown, next?: string, options: FakeClientOptions = {}) {
    const fake = fakeClientFactory(options);
    fake.answer('GET', path, 200, json(body), next ? { link: `<${next}>; rel="next"` } : {});
    return listed(fake, given);
  }

  test('one full page of the default 20 without a next link: rows on stdout, a warning suggesting --limit', async () => {
    const r = await onePage({}, '/v1/pets?limit=20', pets(20));
    expect(r.error).toBeUndefined();
    expect(r.stdout.split('\n')).toHaveLength(21);
    expect(r.stderr).toBe(
      wrapped('warning: showing 20 pets, as many as --limit 20 asks for; the service may have more: try --limit 100\n'),
    );
  });

  test('a first page with a next link, without --all: the warning suggests --all', async () => {
    const r = await onePage({}, '/v1/pets?limit=20', pets(20), `${BASE}/v1/pets?limit=20&cursor=b`);
    expect(r.stderr).toBe(wrapped('warning: showing one page of 20 pets; the service has more: --all fetches every page\n'));
  });

  test('counts are worded for one: --limit 1', async () => {
    const r = await onePage({ flags: { limit: '1' } }, '/v1/pets?limit=1', pets(1));
    expect(r.stderr).toBe(wrapped('warning: showing 1 pet, as many as --limit 1 asks for; the service may have more: try --limit 100\n'));
  });

  test('a repeated next link stops the listing with exit 1', async () => {
    const fake = fakeClientFactory({ output: { format: 'ndjson' } });
    fake.answer('GET', '/v1/pets?limit=2', 200, json(pets(2)), { link: `<${BASE}/v1/pets?limit=2&cursor=b>; rel="next"` });
    fake.answer('GET', '/v1/pets?limit=2&cursor=b', 200, json([pet(3), pet(4)]), {
      link: `<${BASE}/v1/pets?limit=2&cursor=b>; rel="next"`,
    });
    const r = await listed(fake, ALL_BY_2);
    expect(r.stdout.trim().split('\n')).toHaveLength(4);
    expect(r).toMatchObject({
      stderr: '',
      error: {
        exitCode: 1,
        message: `stopped at page 2, after 4 pets: the next page link repeats a page already fetched (${BASE}/v1/pets?limit=2&cursor=b)`,
        hint: undefined,
      },
    });
  });

  test('--all whose last page is full and has no next link, after pages that linked on: the end, no warning', async () => {
    const fake = fakeClientFactory({ globals: { json: true } });
    fake.answer('GET', '/v1/pets?limit=2', 200, json(pets(2)), { link: `<${BASE}/v1/pets?limit=2&cursor=b>; rel="next"` });
    fake.answer('GET', '/v1/pets?limit=2&cursor=b', 200, json([pet(3), pet(4)]));
    const r = await listed(fake, ALL_BY_2);
    expect(r.error).toBeUndefined();
    expect(JSON.parse(r.stdout)).toHaveLength(4);
    expect(r.stderr).toBe('');
  });

  test('a full page of 100 cannot be raised', async () => {
    const r = await onePage({ flags: { all: true, limit: '100' } }, '/v1/pets?limit=100', pets(100), undefined, {
      output: { format: 'ndjson' },
    });
    expect(r.stdout.split('\n')).toHaveLength(101);
    expect(r.stderr).toBe(
      wrapped('warning: the last page held 100 pets, the most one page holds; the service may have more but sent no next-page link\n'),
    );
  });

  test('a page shorter than --limit is everything: no warning', async () => {
    const r = await onePage({}, '/v1/pets?limit=20', pets(19), undefined, { globals: { json: true } });
    expect(r).toMatchObject({ stderr: '', error: undefined });
  });
});
