// The lock of --failed held through a long load: proper-lockfile renews it
// every 10 seconds by the lock folder's mtime, which the owner file
// inside that folder must not disturb (a renewal that finds another mtime
// reads the lock as taken over).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { FailedFile } from '../src/bulk/failed-file.js';

afterEach(() => {
  vi.useRealTimers();
});

const turn = () => new Promise((resolve) => setImmediate(resolve));

test('a load longer than the lock renewal keeps its lock, refuses a second load, and commits --failed', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-lock-')), 'failed.ndjson');
  const failed = await FailedFile.open(file);
  const folder = `${file}.lock`;
  for (let renewal = 0; renewal < 3; renewal += 1) {
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(10_000);
    // The library stats the folder, sets a new mtime and only then plans the next renewal: wait for that plan.
    while (vi.getTimerCount() === 0) await turn();
  }
  await expect(FailedFile.open(file)).rejects.toThrow(
    `--failed ${fs.realpathSync(path.dirname(file))}/failed.ndjson is being written by another petstore add --file; give each load its own file`,
  );
  const record = {
    line: 1,
    source: '-',
    outcome: 'failed' as const,
    item: null,
    text: 'x',
    error: { code: 'c', message: 'm', status: null },
  };
  failed.write(record);
  await failed.commit();
  expect(fs.readFileSync(file, 'utf8')).toBe(`${JSON.stringify(record)}\n`);
  expect(fs.existsSync(folder)).toBe(false);
});
