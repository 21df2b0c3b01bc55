// What an answer to a bulk load's POST proves: only a 4xx proves the pet was
// not created (failed); a 5xx proves nothing (unknown, never sent again
// without --retry-unknown); a 429 or 503 with Retry-After is the service
// refusing the request, which is sent again after the wait.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type Faults, type PetService, startPetService } from '../sandbox/pet-service.mjs';
import { readNdjson, run, unwrapped } from './helpers.js';

let server: PetService | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const posts = () => server!.requests.filter((r) => r.method === 'POST');
const env = () => ({ PETSTORE_BASE_URL: server!.baseUrl, PETSTORE_API_KEY: 'k' });

async function load(faults: Faults, extra: string[] = []) {
  server = await startPetService({ key: 'k', seed: false, faults });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-outcomes-'));
  const file = path.join(dir, 'pets.ndjson');
  fs.writeFileSync(file, '{"name":"a","categoryId":1}\n{"name":"b","categoryId":2}\n');
  const failed = path.join(dir, 'failed.ndjson');
  const r = await run(['add', '--file', file, '--failed', failed, '--concurrency', '1', ...extra], { env: env() });
  return {
    r,
    failed: () => readNdjson(failed),
    rerun: (more: string[] = []) => run(['add', '--file', failed, '--failed', path.join(dir, 'again.ndjson'), ...more], { env: env() }),
  };
}

/** The second pet's POSTs get `step`; the first is served. */
const onB =
  (step: ReturnType<Exclude<Faults, unknown[]>>): Faults =>
  (request) =>
    request.method === 'POST' && request.body.includes('"b"') ? step : undefined;

const error = (status: number) => ({ code: `e${status}`, message: `answer ${status}`, status });

describe('a bulk load tells outcomes from what the answer proves', () => {
  test.each([500, 502, 504])('%i: unknown (the pet may exist), never sent again without --retry-unknown', async (status) => {
    const { r, failed, rerun } = await load(onB({ status, json: error(status) }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`unknown: line 2 "b": answer ${status} (HTTP ${status})\n`);
    expect(failed()).toMatchObject([{ line: 2, outcome: 'unknown', error: { status } }]);
    const again = await rerun();
    expect(unwrapped(again.stderr)).toContain('1 item of unknown outcome (sent before, perhaps created) not sent again');
    expect(posts()).toHaveLength(2);
  });

  test('a 502 without an Error body (a gateway page): unknown too', async () => {
    const { r, failed } = await load(onB({ status: 502, headers: { 'content-type': 'text/html' }, body: '<h1>Bad Gateway</h1>' }));
    expect(r.code).toBe(1);
    expect(failed()).toMatchObject([{ line: 2, outcome: 'unknown', error: { status: 502 } }]);
  });

  test('a 503 without Retry-After: unknown', async () => {
    const { failed } = await load(onB({ status: 503, json: error(503) }));
    expect(failed()).toMatchObject([{ line: 2, outcome: 'unknown' }]);
  });

  test('a 400 proves nothing was created: failed, sent again by the rerun', async () => {
    const { failed } = await load(onB({ status: 400, json: error(400) }));
    expect(failed()).toMatchObject([{ line: 2, outcome: 'failed', error: { status: 400 } }]);
  });

  test('a 503 with Retry-After: 1, then served: sent again after the wait, created once', async () => {
    const times: number[] = [];
    const { r, failed } = await load((request) => {
      if (request.method !== 'POST' || !request.body.includes('"b"')) return undefined;
      times.push(Date.now());
      return times.length === 1 ? { status: 503, headers: { 'retry-after': '1' }, json: error(503) } : undefined;
    });
    expect(r).toMatchObject({ code: 0, stderr: 'created 2 of 2 pets; 0 failed\n' });
    expect(posts().map((p) => JSON.parse(p.body).name)).toEqual(['a', 'b', 'b']);
    expect([...server!.pets.values()].map((p) => p.name)).toEqual(['a', 'b']);
    // Sent again only once the second the service asked for had passed.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
    expect(failed()).toEqual([]);
  });

  test.each([429, 503])(
    'a %i with Retry-After every time: sent 1 + --retries times, then failed (sent again by a rerun)',
    async (status) => {
      const { r, failed } = await load(onB({ status, headers: { 'retry-after': '1' }, json: error(status) }), ['--retries', '1']);
      expect(r.code).toBe(1);
      expect(posts().map((p) => JSON.parse(p.body).name)).toEqual(['a', 'b', 'b']);
      expect(failed()).toMatchObject([{ line: 2, outcome: 'failed', error: { status } }]);
      // The --failed record is the service's Error as it is: no hint (the item's failure message prints none).
      expect(failed()[0].error).toEqual(error(status));
    },
  );
});

test('--failed whose folder is removed during the load: the summary names every line whose outcome is lost, exit 1', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const third = new Promise<void>((resolve) => (arrived = resolve));
  server = await startPetService({
    key: 'k',
    seed: false,
    faults: (request) => {
      if (request.method !== 'POST') return undefined;
      if (request.body.includes('"bad')) return { status: 400, json: error(400) };
      arrived();
      return { serve: true, until: gate };
    },
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-outcomes-'));
  const input = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-outcomes-')), 'pets.ndjson');
  fs.writeFileSync(input, '{"name":"bad1","categoryId":1}\n{"name":"bad2","categoryId":2}\n{"name":"ok","categoryId":3}\n');
  const running = run(['add', '--file', input, '--failed', path.join(dir, 'failed.ndjson'), '--concurrency', '1'], { env: env() });
  await third;
  fs.rmSync(dir, { recursive: true, force: true });
  release();
  const r = await running;
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('warning: the outcomes of these input lines were not recorded: 1-2\n');
  // Its lock went with the folder: the load no longer holds it, so it records nothing more (issue 38).
  expect(r.stderr).toContain('stopping: the lock of --failed ');
  expect(unwrapped(r.stderr)).toMatch(
    /error: the lock of --failed .*failed\.ndjson was removed \(its owner file is gone\); this load stopped sending\n/,
  );
});
