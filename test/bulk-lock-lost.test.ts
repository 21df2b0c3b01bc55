// Issue 30, item 1: a load whose lock of --failed is taken over mid-load stops sending at once and exits 1, and never writes over
// the new owner's --failed, nor removes the new owner's lock. The lock's stale time is 2 s here (the Factory's seam; 30 s in a real
// run), so that proper-lockfile's renewal, every second here, finds the lock folder changed within a second.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { type PetService, startPetService } from '../sandbox/pet-service.mjs';
import { run, until, wrapped } from './helpers.js';

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
  server = await startPetService({
    key: 'k',
    seed: false,
    faults: (_, index) => (index === 2 ? { until: third, serve: true } : undefined),
  });
  const posts = () => server!.requests.filter((r) => r.method === 'POST').length;
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-lock-lost-')));
  const file = path.join(dir, 'pets.ndjson');
  fs.writeFileSync(file, Array.from({ length: 10 }, (_, i) => `{"name":"p${i + 1}","categoryId":1}\n`).join(''));
  const failed = path.join(dir, 'failed.ndjson');
  // The new owner's --failed, as it stands when this load learns of the take-over.
  fs.writeFileSync(failed, 'theirs\n');
  let stderr = '';
  const load = run(['add', '--file', file, '--failed', failed, '--concurrency', '1'], {
    env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' },
    lockStaleMs: 2000,
    onStderr: (text) => {
      stderr += text;
    },
  });
  await until(() => posts() === 3);
  // Another load, in another PID namespace, names itself the owner: the folder's mtime changes under this one.
  const owner = path.join(`${failed}.lock`, 'owner');
  fs.writeFileSync(`${owner}.new`, JSON.stringify({ pid: 1, boot: 'another-boot', pidns: 'pid:[1]', host: 'container' }));
  fs.renameSync(`${owner}.new`, owner);
  await until(() => stderr.includes('stopping: another process took over the lock'));
  answerThird();
  const r = await load;
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('1\tp1\t1\t-\n2\tp2\t1\t-\n3\tp3\t1\t-\n');
  expect(r.stderr).toBe(
    wrapped(
      `stopping: another process took over the lock of --failed ${failed}; no more pets are sent\n` +
        'stopped: created 3 of 10 pets; 0 failed, 7 not sent\n' +
        'warning: the outcomes of these input lines were not recorded: 4-10\n' +
        `error: another process took over the lock of --failed ${failed} (its lock folder was renewed by another process); this load stopped sending\n` +
        'Run the same command again: it resumes the load from its journal, or is refused while another load holds the lock.\n',
    ),
  );
  expect(posts()).toBe(3);
  expect(fs.readFileSync(failed, 'utf8')).toBe('theirs\n');
  // Its release leaves the new owner's lock as it is: the owner file still names the other load.
  expect(JSON.parse(fs.readFileSync(owner, 'utf8'))).toMatchObject({ boot: 'another-boot', host: 'container' });
  expect(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
});
