// Issue 30, item 1: a load whose lock of --failed is taken over mid-load stops sending at once and exits 1, and never writes over
// the new owner's --failed. proper-lockfile reports the take-over (its renewal finds the lock folder changed) at most every 15 s; the
// report is made here at once, through the library's own onCompromised callback.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { type PetService, startPetService } from '../sandbox/pet-service.mjs';
import { run, until } from './helpers.js';

const lock = vi.hoisted(() => ({ compromise: undefined as ((error: Error) => void) | undefined }));

vi.mock('proper-lockfile', async (importOriginal) => {
  const real = ((await importOriginal()) as { default: typeof import('proper-lockfile') }).default;
  const take: typeof real.lock = (file, options) => {
    lock.compromise = options?.onCompromised;
    return real.lock(file, options);
  };
  return { default: { ...real, lock: take } };
});

let server: PetService | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

test('the lock taken over while the third POST is in flight: nothing more is sent, exit 1, the new owner keeps --failed', async () => {
  let answerThird: () => void = () => undefined;
  const third = new Promise<void>((resolve) => {
    answerThird = resolve;
  });
  server = await startPetService({ key: 'k', seed: false, faults: (_, index) => (index === 2 ? { until: third } : undefined) });
  const posts = () => server!.requests.filter((r) => r.method === 'POST').length;
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-lock-lost-')));
  const file = path.join(dir, 'pets.ndjson');
  fs.writeFileSync(file, Array.from({ length: 10 }, (_, i) => `{"name":"p${i + 1}","categoryId":1}\n`).join(''));
  const failed = path.join(dir, 'failed.ndjson');
  // The new owner's --failed, as it stands when this load learns of the take-over.
  fs.writeFileSync(failed, 'theirs\n');
  const load = run(['add', '--file', file, '--failed', failed, '--concurrency', '1'], {
    env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' },
  });
  await until(() => posts() === 3);
  const error = Object.assign(new Error('Unable to update lock within the stale threshold'), { code: 'ECOMPROMISED' });
  lock.compromise!(error);
  answerThird();
  const r = await load;
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('1\tp1\t1\t-\n2\tp2\t1\t-\n3\tp3\t1\t-\n');
  expect(r.stderr).toBe(
    'stopped: created 3 of 10 pets; 0 failed, 7 not sent\n' +
      'warning: the outcomes of these input lines were not recorded: 4-10\n' +
      `error: another process took over the lock of --failed ${failed} (ECOMPROMISED); this load stopped sending\n`,
  );
  expect(posts()).toBe(3);
  expect(fs.readFileSync(failed, 'utf8')).toBe('theirs\n');
  expect(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
});
