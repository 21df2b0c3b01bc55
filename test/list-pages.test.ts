// list --all (RFC 8288 Link rel="next") and the machine formats of list.
import nock from 'nock';
import { describe, expect, test } from 'vitest';
import { type Step, startPetService } from '../sandbox/pet-service.mjs';
import { BASE, run, serviceEnv, wrapped } from './helpers.js';

const pet = (id: number) => ({ id, name: `p${id}`, categoryId: 1, status: 'available' });

function threePages() {
  nock(BASE)
    .get('/v1/pets')
    .query({ limit: '2' })
    .reply(200, [pet(1), pet(2)], {
      link: `<${BASE}/v1/pets?limit=2&cursor=b>; rel="next", <${BASE}/v1/pets?limit=2>; rel="first"`,
    })
    .get('/v1/pets')
    .query({ limit: '2', cursor: 'b' })
    .reply(200, [pet(3), pet(4)], {
      link: '</v1/pets?limit=2&cursor=a>; rel="prev", </v1/pets?limit=2&cursor=c>; rel="next"',
    })
    .get('/v1/pets')
    .query({ limit: '2', cursor: 'c' })
    .reply(200, [pet(5)], { link: '</v1/pets?limit=2&cursor=b>; rel="prev"' });
}

describe('list --all', () => {
  test('follows rel="next" over several pages, ignoring other relations', async () => {
    threePages();
    const r = await run(['list', '--all', '--limit', '2', '--json'], { env: serviceEnv() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((p: { id: number }) => p.id)).toEqual([1, 2, 3, 4, 5]);
  });

  test('--json streams one array across pages, the same bytes as one page would print, int64 ids exact', async () => {
    const big = '{"id":9007199254740993,"name":"big","categoryId":1,"status":"available"}';
    nock(BASE)
      .get('/v1/pets')
      .query({ limit: '2' })
      .reply(200, `[${big},${JSON.stringify(pet(2))}]`, {
        'content-type': 'application/json',
        link: '</v1/pets?limit=2&cursor=b>; rel="next"',
      })
      .get('/v1/pets')
      .query({ limit: '2', cursor: 'b' })
      .reply(200, [], { link: '</v1/pets?limit=2&cursor=c>; rel="next"' })
      .get('/v1/pets')
      .query({ limit: '2', cursor: 'c' })
      .reply(200, [pet(3)]);
    const r = await run(['list', '--all', '--limit', '2', '--json'], { env: serviceEnv() });
    expect(r).toEqual({ code: 0, stdout: `[${big},${JSON.stringify(pet(2))},${JSON.stringify(pet(3))}]\n`, stderr: '', unmatched: [] });
  });

  test('--json of no pets at all is []', async () => {
    nock(BASE).get('/v1/pets').query({ limit: '2' }).reply(200, []);
    const r = await run(['list', '--all', '--limit', '2', '--json'], { env: serviceEnv() });
    expect(r).toEqual({ code: 0, stdout: '[]\n', stderr: '', unmatched: [] });
  });

  test.each<[string, Step, (next: string) => unknown]>([
    [
      'an error status',
      { status: 503, json: { code: 'busy', message: 'come back later', status: 503 } },
      (next) => ({
        code: 'busy',
        message: 'come back later',
        status: 503,
        hint: `the rest of the listing starts at the page that failed: ${next}`,
        printed: 2,
        next,
      }),
    ],
    [
      'a dropped connection',
      { destroy: true },
      (next) => ({
        code: 'connection_closed',
        message: expect.stringContaining('closed'),
        status: null,
        hint: expect.any(String),
        printed: 2,
        next,
      }),
    ],
  ])(
    'a page failing midway (%s): the JSON written so far stays, cut there; exit 1, the count and the next link',
    async (_, fault, report) => {
      const link = { link: '</v1/pets?limit=2&cursor=b>; rel="next"' };
      const server = await startPetService({ key: 'k', faults: [{ status: 200, headers: link, json: [pet(1), pet(2)] }, fault] });
      const r = await run(['list', '--all', '--limit', '2', '--json', '--retries', '0'], {
        env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' },
      });
      await server.close();
      expect(server.requests.map((q) => q.url)).toEqual(['/v1/pets?limit=2', '/v1/pets?limit=2&cursor=b']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe(`[${JSON.stringify(pet(1))},${JSON.stringify(pet(2))}`);
      expect(r.stderr.endsWith('\n')).toBe(true);
      expect(JSON.parse(r.stderr)).toEqual(report(`${server.baseUrl}/pets?limit=2&cursor=b`));
    },
  );

  test('--format ndjson prints one pet per line across pages', async () => {
    threePages();
    const r = await run(['list', '--all', '--limit', '2', '--format', 'ndjson'], { env: serviceEnv() });
    expect(r.stdout).toBe([1, 2, 3, 4, 5].map((id) => `${JSON.stringify(pet(id))}\n`).join(''));
  });

  test('--format tsv prints rows across pages', async () => {
    threePages();
    const r = await run(['list', '--all', '--limit', '2', '--format', 'tsv'], { env: serviceEnv(), stdoutIsTTY: true });
    expect(r.stdout).toBe([1, 2, 3, 4, 5].map((id) => `${id}\tp${id}\t1\tavailable\n`).join(''));
  });

  test('without --all only the first page is fetched', async () => {
    nock(BASE)
      .get('/v1/pets')
      .query({ limit: '2' })
      .reply(200, [pet(1)], { link: `<${BASE}/v1/pets?cursor=b>; rel="next"` });
    const r = await run(['list', '--limit', '2', '--format', 'ndjson'], { env: serviceEnv() });
    expect(r.stdout).toBe(`${JSON.stringify(pet(1))}\n`);
  });

  test('a next link to another origin is refused, exit 1', async () => {
    nock(BASE)
      .get('/v1/pets')
      .query(true)
      .reply(200, [pet(1)], { link: '<https://evil.example/v1/pets?page=2>; rel="next"' });
    const r = await run(['list', '--all', '--format', 'ndjson'], { env: serviceEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`${JSON.stringify(pet(1))}\n`);
    expect(r.stderr).toBe(wrapped('error: refusing to follow the next page link to another origin: https://evil.example\n'));
  });

  test('no page cap: 1,050 pages of one pet are all read, exit 0', async () => {
    const server = await startPetService({ key: 'k', seed: 1050, pageSize: 1, record: true });
    const r = await run(['list', '--all', '--format', 'ndjson'], { env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' } });
    await server.close();
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const ids = r.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).id);
    expect(ids).toEqual(Array.from({ length: 1050 }, (_, i) => i + 1));
    expect(server.requests).toHaveLength(1050);
  }, 60_000);
});

describe('list formats', () => {
  test('--format json equals --json; --format table draws a table even when piped', async () => {
    nock(BASE)
      .get('/v1/pets')
      .query(true)
      .twice()
      .reply(200, [pet(1)]);
    const json = await run(['list', '--format', 'json'], { env: serviceEnv() });
    expect(json.stdout).toBe(`[${JSON.stringify(pet(1))}]\n`);
    const table = await run(['list', '--format', 'table'], { env: serviceEnv() });
    expect(table.stdout).toContain('│ 1  │ p1   │ 1           │ available │');
  });

  test('rejects an unknown format and a conflict with --json, exit 2, nothing sent', async () => {
    const bad = await run(['list', '--format', 'xml'], { env: serviceEnv() });
    expect(bad).toEqual({
      code: 2,
      stdout: '',
      stderr: wrapped('error: invalid value for --format: "xml": allowed values: table, kv, tsv, json, ndjson\n'),
      unmatched: [],
    });
    const conflict = await run(['list', '--json', '--format', 'tsv'], { env: serviceEnv() });
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toContain('--json and --format tsv ask for different formats');
  });
});

describe('a full last page is never a silent cut', () => {
  const pets = (n: number) => Array.from({ length: n }, (_, i) => pet(i + 1));

  test('one full page of the default 20 without a next link: rows on stdout, a warning suggesting --limit', async () => {
    nock(BASE).get('/v1/pets').query({ limit: '20' }).reply(200, pets(20));
    const r = await run(['list'], { env: serviceEnv() });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toHaveLength(21);
    expect(r.stderr).toBe(
      wrapped('warning: showing 20 pets, as many as --limit 20 asks for; the service may have more: try --limit 100\n'),
    );
  });

  test('a first page with a next link, without --all: the warning suggests --all', async () => {
    nock(BASE)
      .get('/v1/pets')
      .query({ limit: '20' })
      .reply(200, pets(20), { link: `<${BASE}/v1/pets?limit=20&cursor=b>; rel="next"` });
    const r = await run(['list'], { env: serviceEnv() });
    expect(r.stderr).toBe(wrapped('warning: showing one page of 20 pets; the service has more: --all fetches every page\n'));
  });

  test('counts are worded for one: --limit 1', async () => {
    nock(BASE).get('/v1/pets').query({ limit: '1' }).reply(200, pets(1));
    const r = await run(['list', '--limit', '1'], { env: serviceEnv() });
    expect(r.stderr).toBe(wrapped('warning: showing 1 pet, as many as --limit 1 asks for; the service may have more: try --limit 100\n'));
  });

  test('a repeated next link stops the listing with exit 1', async () => {
    nock(BASE)
      .get('/v1/pets')
      .query({ limit: '2' })
      .reply(200, pets(2), { link: `<${BASE}/v1/pets?limit=2&cursor=b>; rel="next"` })
      .get('/v1/pets')
      .query({ limit: '2', cursor: 'b' })
      .reply(200, [pet(3), pet(4)], { link: `<${BASE}/v1/pets?limit=2&cursor=b>; rel="next"` });
    const r = await run(['list', '--all', '--limit', '2', '--format', 'ndjson'], { env: serviceEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toHaveLength(4);
    expect(r.stderr).toBe(
      wrapped(`error: stopped at page 2: the next page link repeats a page already fetched (${BASE}/v1/pets?limit=2&cursor=b)\n`),
    );
  });

  test('--all whose last page is full and has no next link, after pages that linked on: the end, no warning', async () => {
    nock(BASE)
      .get('/v1/pets')
      .query({ limit: '2' })
      .reply(200, pets(2), { link: `<${BASE}/v1/pets?limit=2&cursor=b>; rel="next"` })
      .get('/v1/pets')
      .query({ limit: '2', cursor: 'b' })
      .reply(200, [pet(3), pet(4)]);
    const r = await run(['list', '--all', '--limit', '2', '--json'], { env: serviceEnv() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(4);
    expect(r.stderr).toBe('');
  });

  test('a full page of 100 cannot be raised', async () => {
    nock(BASE).get('/v1/pets').query({ limit: '100' }).reply(200, pets(100));
    const r = await run(['list', '--all', '--limit', '100', '--format', 'ndjson'], { env: serviceEnv() });
    expect(r.stdout.split('\n')).toHaveLength(101);
    expect(r.stderr).toBe(
      wrapped('warning: the last page held 100 pets, the most one page holds; the service may have more but sent no next-page link\n'),
    );
  });

  test('a page shorter than --limit is everything: no warning', async () => {
    nock(BASE).get('/v1/pets').query({ limit: '20' }).reply(200, pets(19));
    const r = await run(['list', '--json'], { env: serviceEnv() });
    expect(r).toMatchObject({ code: 0, stderr: '' });
  });
});
