// Issue 38 item 2: the lock of --failed is a lease. A load paused past it (SIGSTOP, a frozen container) sends and records nothing
// more once it runs again, exits 1 saying so, and removes only a lock that is still its own, so that a second load that took over
// goes on; a load that cannot name itself in the lock (a full disk at the start) removes the lock it made. The built bin runs with
// PETSTORE_TEST_LOCK_STALE_MS=3000 (docs/testing.md): its lease lasts 2 s, renewed every second.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { BIN, run, startChild, until, wrapped, unwrapped } from './helpers.js';
import { sandboxPerTest } from './support/sandbox.js';

const sandbox = sandboxPerTest('petstore-lease-');
// The in-process loads reach only the sandbox on 127.0.0.1.
const STALE_MS = 3000;
const names = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);
const ndjson = (all: string[]) => all.map((name, i) => `{"name":"${name}","categoryId":${i}}\n`).join('');
const childEnv = () => ({ PATH: process.env.PATH, ...sandbox.env(), PETSTORE_TEST_LOCK_STALE_MS: String(STALE_MS) });

/** How often each name is stored. */
function storedCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of sandbox.storedNames()) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

/** Whether the lock folder at `folder` has gone unrenewed for longer than the stale time: another load may take it over now. */
const staleNow = (folder: string) => {
  const found = fs.statSync(folder, { throwIfNoEntry: false });
  return found !== undefined && Date.now() - found.mtimeMs > STALE_MS + 100;
};

/** A load of `input` into `failed` (--resolve-unknown, so that what a paused load had in flight is settled), as a child process. */
function startLoad(input: string, failed: string) {
  const args = ['add', '--file', input, '--failed', failed, '--concurrency', '2', '--timeout', '1000', '--resolve-unknown'];
  return startChild(process.execPath, [BIN, ...args], { env: childEnv() });
}

/** How long the sandbox of {@link pausedPastItsLease} waits before each answer, in milliseconds: 100 until the paused load has exited, so that it is stopped mid-load and a load that took over is still sending when it runs again. */
let paceMs = 100;

/** A load of 30 pets stopped (SIGSTOP) after six POSTs, until its lock is stale: the load, its files, and the POSTs sent then. */
async function pausedPastItsLease() {
  paceMs = 100;
  await sandbox.start(() => ({ serve: true, delayMs: paceMs }));
  const dir = sandbox.tempDir();
  const input = path.join(dir, 'pets.ndjson');
  const all = names(30);
  fs.writeFileSync(input, ndjson(all));
  const failed = path.join(dir, 'failed.ndjson');
  const a = startLoad(input, failed);
  await a.waitFor(() => sandbox.posts() >= 6, 'six POSTs');
  a.kill('SIGSTOP');
  const sentByA = sandbox.posts();
  await until(() => staleNow(`${failed}.lock`));
  return { input, failed, all, a, sentByA };
}

describe('a load paused past its lease (SIGSTOP), then resumed (SIGCONT)', () => {
  test('a second identical load took over meanwhile: the first sends nothing more, exits 1 saying so, and leaves the second its lock; every pet stored once', async () => {
    const { input, failed, all, a, sentByA } = await pausedPastItsLease();
    const b = startLoad(input, failed);
    await b.waitFor(() => sandbox.posts() > sentByA, 'the second load sending');
    a.kill('SIGCONT');
    const first = await a.done;
    paceMs = 0;
    const second = await b.done;
    expect(first.code).toBe(1);
    expect(unwrapped(first.stderr)).toMatch(
      new RegExp(
        `stopping: (the lock of --failed ${failed} went \\d+ s without renewal \\(this process was paused, too busy, or could not renew it\\), past the 2 s its lease lasts; no more pets are sent and nothing more is recorded|another process took over the lock of --failed ${failed}; no more pets are sent)\\n`,
      ),
    );
    // Joined as wrapped: at a temporary folder's length, "went N s" ends a line, so the raw text never matched the first reason.
    expect(unwrapped(first.stderr)).toMatch(
      /\nerror: (the lock of --failed .* went \d+ s without renewal|another process took over the lock of --failed)/,
    );
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/^resuming the load started at /);
    expect(second.stderr).toContain('created 30 of 30 pets; 0 failed');
    // Each pet stored once: the first load sent nothing after it ran again, and no pet was sent by both.
    expect([...storedCounts().entries()].sort()).toEqual(all.map((name) => [name, 1]).sort());
    expect(sandbox.posts()).toBe(30);
    // The second load's lock was not removed by the first: it released it itself at its end. The same command is not refused.
    expect(fs.existsSync(`${failed}.lock`)).toBe(false);
    const again = await run(['add', '--file', input, '--failed', failed], { env: childEnv() });
    expect(again.code).toBe(0);
    expect(unwrapped(again.stderr)).toMatch(/^this load of .* finished at /);
    expect(sandbox.posts()).toBe(30);
  }, 60_000);

  test('no other load came: it stops all the same (exit 1, saying so), removes its own lock, and the same command resumes at once', async () => {
    const { input, failed, all, a, sentByA } = await pausedPastItsLease();
    a.kill('SIGCONT');
    const first = await a.done;
    paceMs = 0;
    expect(first.code).toBe(1);
    expect(unwrapped(first.stderr)).toMatch(
      new RegExp(
        `stopping: the lock of --failed ${failed} went \\d+ s without renewal \\(this process was paused, too busy, or could not renew it\\), past the 2 s its lease lasts; no more pets are sent and nothing more is recorded\\n`,
      ),
    );
    expect(unwrapped(first.stderr)).toMatch(
      new RegExp(
        `\\nerror: the lock of --failed ${failed} went \\d+ s without renewal .*, so another load may take it over; this load stopped sending\\n` +
          'Run the same command again: it resumes the load from its journal, or is refused while another load holds the lock.\\n$',
      ),
    );
    expect(sandbox.posts()).toBe(sentByA);
    expect(fs.existsSync(`${failed}.lock`)).toBe(false);
    // Not refused: no lock is left to wait out.
    const again = await run(['add', '--file', input, '--failed', failed, '--timeout', '1000', '--resolve-unknown'], { env: childEnv() });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/^resuming the load started at /);
    expect([...storedCounts().entries()].sort()).toEqual(all.map((name) => [name, 1]).sort());
  }, 60_000);
});

describe('the owner file', () => {
  test('a full disk at the start: exit 2 naming the owner file, nothing sent, no lock left; with room, the same command runs at once', async (context) => {
    const dir = sandbox.tempDir();
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
    if (mounted.status !== 0) {
      console.log(`skipped: cannot mount a tmpfs here (${mounted.stderr.toString().trim()})`);
      context.skip();
    }
    try {
      await sandbox.start();
      // Fill the disk: a file written until no byte more fits.
      const filler = path.join(dir, 'filler');
      const fd = fs.openSync(filler, 'w');
      try {
        for (;;) fs.writeSync(fd, Buffer.alloc(4096));
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
      } finally {
        fs.closeSync(fd);
      }
      const failed = path.join(dir, 'failed.ndjson');
      const args = ['add', '--file', '-', '--failed', failed];
      const full = await run(args, { env: childEnv(), stdin: ndjson(names(3)) });
      expect(full).toMatchObject({
        code: 2,
        stderr: wrapped(
          `error: cannot lock --failed ${failed}: cannot write its owner file ${failed}.lock/owner: ENOSPC; the lock was removed again and nothing was sent\n`,
        ),
      });
      expect(fs.readdirSync(dir).sort()).toEqual(['filler']);
      expect(sandbox.posts()).toBe(0);
      fs.rmSync(filler);
      const again = await run(args, { env: childEnv(), stdin: ndjson(names(3)) });
      expect(again.code).toBe(0);
      expect(sandbox.storedNames()).toEqual(names(3));
    } finally {
      execFileSync('umount', [dir]);
    }
  });

  test('rewritten in place to name another load (the lock folder unchanged, so no renewal sees it): the load stops at its next act, exit 1', async () => {
    let answerThird: () => void = () => undefined;
    const third = new Promise<void>((resolve) => {
      answerThird = resolve;
    });
    await sandbox.start((_, index) => (index === 2 ? { until: third, serve: true } : undefined));
    const dir = sandbox.tempDir();
    const input = path.join(dir, 'pets.ndjson');
    fs.writeFileSync(input, ndjson(names(10)));
    const failed = path.join(dir, 'failed.ndjson');
    const load = run(['add', '--file', input, '--failed', failed, '--concurrency', '1'], { env: childEnv() });
    await until(() => sandbox.posts() === 3);
    const owner = path.join(`${failed}.lock`, 'owner');
    const { mtime } = fs.statSync(`${failed}.lock`);
    fs.writeFileSync(owner, JSON.stringify({ pid: 1, boot: 'another-boot', pidns: 'pid:[1]', host: 'h', token: 'theirs' }));
    expect(fs.statSync(`${failed}.lock`).mtime).toEqual(mtime);
    answerThird();
    const r = await load;
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      wrapped(
        `stopping: another process took over the lock of --failed ${failed}; no more pets are sent\n` +
          'stopped: created 3 of 10 pets; 0 failed, 7 not sent\n' +
          'warning: the outcomes of these input lines were not recorded: 4-10\n' +
          `error: another process took over the lock of --failed ${failed} (its owner file names another load); this load stopped sending\n` +
          'Run the same command again: it resumes the load from its journal, or is refused while another load holds the lock.\n',
      ),
    );
    expect(sandbox.posts()).toBe(3);
    // Another load's lock is left as it is.
    expect(JSON.parse(fs.readFileSync(owner, 'utf8'))).toMatchObject({ token: 'theirs' });
  });
});
