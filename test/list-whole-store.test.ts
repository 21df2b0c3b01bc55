// Reading a whole store (issue 29): list --all and api --paginate against the sandbox, with no page cap, pages of 100 by default,
// the guard against empty pages linked forever, --timeout per page, and what a listing that fails partway prints and reports.
import { afterEach, describe, expect, test } from 'vitest';
import { type PetService, type PetServiceOptions, pageFault, startPetService } from '../sandbox/pet-service.mjs';
import { InterruptedError } from '../src/errors.js';
import { run, until, wrapped, unwrapped } from './helpers.js';

let service: PetService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function sandbox(options: Omit<PetServiceOptions, 'key'>) {
  service = await startPetService({ key: 'k', ...options });
  return { service, env: { PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k' } };
}

const FAIL_500 = { status: 500, json: { code: 'internal', message: 'the page broke', status: 500 } };
const idsOf = (ndjson: string) =>
  ndjson
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line).id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const cursorOf = (id: number) => Buffer.from(String(id)).toString('base64url');

describe('list --all reads the whole store', () => {
  test('Ctrl-C while the next page is on its way (asked for while this one printed): what was printed stays, exit 130', async () => {
    const { service, env } = await sandbox({ seed: 250, faults: pageFault(2, { hang: true }) });
    const stop = new AbortController();
    const result = run(['list', '--all', '--format', 'ndjson'], { env, signal: stop.signal });
    await until(() => service.requests.length === 2);
    stop.abort(new InterruptedError('SIGINT'));
    const r = await result;
    expect(r.code).toBe(130);
    expect(idsOf(r.stdout)).toEqual(range(1, 100));
    // Ctrl-C ends a listing quietly, with exit 130 (the real binary prints nothing either).
    expect(r.stderr).toBe('');
    expect(service.requests.map((request) => request.url)).toEqual(['/v1/pets?limit=100', `/v1/pets?limit=100&cursor=${cursorOf(100)}`]);
  });

  test('Ctrl-C while a table is read: the rows read are drawn, and stderr says the table is not the whole listing, exit 130', async () => {
    const { service, env } = await sandbox({ seed: 250, faults: pageFault(2, { hang: true }) });
    const stop = new AbortController();
    const result = run(['list', '--all', '--format', 'table'], { env, signal: stop.signal });
    await until(() => service.requests.length === 2);
    stop.abort(new InterruptedError('SIGINT'));
    const r = await result;
    expect(r.code).toBe(130);
    const rows = r.stdout.split('\n').filter((line) => /^│ \d/.test(line));
    expect(rows).toHaveLength(100);
    expect(r.stderr).toBe('interrupted: the table holds only the first 100 pets of the listing\n');
  });

  test('without --limit it asks for pages of 100; a --limit given keeps its value; plain list keeps 20', async () => {
    const { service, env } = await sandbox({ seed: 250 });
    const whole = await run(['list', '--all', '--format', 'ndjson'], { env });
    expect(whole).toMatchObject({ code: 0, stderr: '' });
    expect(idsOf(whole.stdout)).toEqual(range(1, 250));
    expect(service.requests.map((r) => r.url)).toEqual([
      '/v1/pets?limit=100',
      `/v1/pets?limit=100&cursor=${cursorOf(100)}`,
      `/v1/pets?limit=100&cursor=${cursorOf(200)}`,
    ]);
    service.requests.length = 0;
    const fifty = await run(['list', '--all', '--limit', '50', '--format', 'ndjson'], { env });
    expect(idsOf(fifty.stdout)).toEqual(range(1, 250));
    expect(service.requests).toHaveLength(5);
    expect(service.requests.every((r) => r.url.startsWith('/v1/pets?limit=50'))).toBe(true);
    service.requests.length = 0;
    await run(['list', '--format', 'ndjson'], { env });
    expect(service.requests.map((r) => r.url)).toEqual(['/v1/pets?limit=20']);
  });

  test('a service that links empty pages forever: exit 1 after 3 of them, every pet printed once', async () => {
    const { service, env } = await sandbox({ seed: 5, links: 'endless' });
    const r = await run(['list', '--all', '--limit', '2', '--format', 'ndjson'], { env });
    expect(r.code).toBe(1);
    expect(idsOf(r.stdout)).toEqual(range(1, 5));
    // Pages 1-3 hold the pets, 4-6 are empty: 3 pages past the last pet.
    expect(service.requests).toHaveLength(6);
    expect(r.stderr).toBe(
      wrapped(
        `error: stopped at page 6, after 5 pets: 3 pages in a row were empty yet linked a next page (${service.baseUrl}/pets?limit=2&cursor=${cursorOf(8)})\n`,
      ),
    );
  });

  test('empty pages that end, or that are not in a row, are no loop', async () => {
    let index = 0;
    const link = (n: number) => ({ link: `</v1/pets?page=${n}>; rel="next"` });
    const pages = [[], [], { id: 1, name: 'a', categoryId: 1 }, [], [], []];
    const { env } = await sandbox({
      faults: () => {
        const n = index++;
        const json = Array.isArray(pages[n]) ? pages[n] : [pages[n]];
        return { status: 200, json, headers: n < pages.length - 1 ? link(n + 2) : {} };
      },
    });
    const r = await run(['list', '--all', '--format', 'ndjson'], { env });
    expect(r).toMatchObject({ code: 0, stdout: '{"id":1,"name":"a","categoryId":1}\n', stderr: '' });
  });

  describe('page 30 answers 500: pages 1-29 printed, exit 1, the count and the next link', () => {
    const next = (base: string) => `${base}/pets?limit=1&cursor=${cursorOf(29)}`;

    test('--format ndjson, the message', async () => {
      const { service, env } = await sandbox({ seed: 40, faults: pageFault(30, FAIL_500) });
      const r = await run(['list', '--all', '--limit', '1', '--format', 'ndjson'], { env });
      expect(r.code).toBe(1);
      expect(idsOf(r.stdout)).toEqual(range(1, 29));
      expect(r.stderr).toBe(
        wrapped(
          'error: the listing stopped at page 30, after 29 pets: the page broke (HTTP 500, code internal)\n' +
            `the rest of the listing starts at the page that failed: ${next(service.baseUrl)}\n`,
        ),
      );
    });

    test('--json: the array stays unclosed (jq fails too); the error object carries "next" and "printed"', async () => {
      const { service, env } = await sandbox({ seed: 40, faults: pageFault(30, FAIL_500) });
      const r = await run(['list', '--all', '--limit', '1', '--json'], { env });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^\[\{"id":1,.*\{"id":29,"name":"pet-29","categoryId":1,"status":"pending"\}$/);
      expect(() => JSON.parse(r.stdout)).toThrow();
      expect(JSON.parse(r.stderr)).toEqual({
        code: 'internal',
        message: 'the page broke',
        status: 500,
        hint: `the rest of the listing starts at the page that failed: ${next(service.baseUrl)}`,
        printed: 29,
        next: next(service.baseUrl),
      });
    });

    test('a table at a terminal prints the rows it had read, then the error', async () => {
      const { env } = await sandbox({ seed: 40, faults: pageFault(30, FAIL_500) });
      const r = await run(['list', '--all', '--limit', '1'], { env, stdoutIsTTY: true, columns: 100 });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('│ 29 │ pet-29');
      expect(r.stdout).not.toContain('pet-30');
      expect(r.stderr).toContain('error: the listing stopped at page 30, after 29 pets');
    });

    test('--json --jq: jq does not run on a part of the listing', async () => {
      const { env } = await sandbox({ seed: 40, faults: pageFault(30, FAIL_500) });
      const r = await run(['list', '--all', '--limit', '1', '--jq', 'length'], { env });
      expect(r).toMatchObject({ code: 1, stdout: '' });
      expect(r.stderr).toMatch(/^error: the listing stopped at page 30, after 0 pets: the page broke/);
    });
  });

  test('a dropped connection on a later page, after its retries: what was read stays', async () => {
    const { service, env } = await sandbox({ seed: 10, faults: pageFault(3, { destroy: true }) });
    const r = await run(['list', '--all', '--limit', '2', '--format', 'tsv', '--retries', '1'], { env, random: () => 0 });
    expect(r.code).toBe(1);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(4);
    // Page 3 was sent twice (one retry).
    expect(service.requests).toHaveLength(4);
    expect(unwrapped(r.stderr)).toMatch(
      /^error: the listing stopped at page 3, after 4 pets: the connection to 127\.0\.0\.1:\d+ closed before its answer came/,
    );
  });

  test('--timeout bounds each page: a page that never answers ends the listing, what was read stays', async () => {
    const { service, env } = await sandbox({ seed: 10, faults: pageFault(2, { hang: true }) });
    const r = await run(['list', '--all', '--limit', '2', '--format', 'ndjson', '--timeout', '300', '--retries', '0'], { env });
    expect(r.code).toBe(1);
    expect(idsOf(r.stdout)).toEqual([1, 2]);
    expect(r.stderr).toContain(`timed out after 300 ms (--timeout)`);
    expect(unwrapped(r.stderr)).toContain(
      `the rest of the listing starts at the page that failed: ${service.baseUrl}/pets?limit=2&cursor=${cursorOf(2)}`,
    );
  });

  test('--timeout bounds each page, not the whole listing: pages that take longer together than --timeout all arrive', async () => {
    // 7 pages of 200 ms each: 1,400 ms in all, more than --timeout 1000, each page far within it (a loaded CI machine).
    const { env } = await sandbox({ seed: 13, faults: () => ({ serve: true, delayMs: 200 }) });
    const r = await run(['list', '--all', '--limit', '2', '--format', 'ndjson', '--timeout', '1000'], { env });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(idsOf(r.stdout)).toEqual(range(1, 13));
  });
});
