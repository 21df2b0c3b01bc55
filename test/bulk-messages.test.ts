// Issue 30, items 7 and 9: a bulk load's messages say what happened ("of N" counts what was read and says so, "nothing after line
// N was read" only when something was left unread, a finished rerun keeps every count), and bad input fails alone.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { InterruptedError } from '../src/errors.js';
import { readNdjson, run, until, wrapped, unwrapped } from './helpers.js';
import { sandboxPerTest } from './support/sandbox.js';

const sandbox = sandboxPerTest('petstore-messages-');
const { start, env, posts, storedNames, tempDir } = sandbox;
// Names of one width: every line is as long as the next.
const pets = (n: number) => Array.from({ length: n }, (_, i) => `{"name":"p${String(i + 1).padStart(5, '0')}","categoryId":1}\n`);

/** Runs `add args`, answering no POST, and presses Ctrl-C twice once the first POST has reached the service. */
async function twoCtrlCs(args: string[]) {
  await start(() => ({ hang: true }));
  const stop = new AbortController();
  const halt = new AbortController();
  const result = run(['add', ...args, '--concurrency', '1'], { env: env(), signal: stop.signal, halt: halt.signal });
  await until(() => posts() === 1);
  stop.abort(new InterruptedError('SIGINT'));
  halt.abort(new InterruptedError('SIGINT'));
  return result;
}

const STOPPING =
  'stopping: no more pets are sent; waiting for 1 answer in flight, at most 30s (--timeout); Ctrl-C again stops at once\n' +
  'unknown: line 1 "p00001": sent, then the load was stopped before the service answered\n';

describe('a second Ctrl-C', () => {
  test('before the input is read to its end: "of N" says only N were read, and where the reading stopped', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'pets.ndjson');
    fs.writeFileSync(file, pets(40_000).join(''));
    const failed = path.join(dir, 'failed.ndjson');
    const r = await twoCtrlCs(['--file', file, '--failed', failed]);
    const read = readNdjson(failed).length;
    expect(read).toBeLessThan(40_000);
    expect(r).toMatchObject({
      code: 130,
      stdout: '',
      stderr: wrapped(
        STOPPING +
          `interrupted: created 0 of ${read} pets read so far; 0 failed, 1 unknown, ${read - 1} not sent (written to ${failed}); ` +
          `nothing after line ${read} was read\n`,
      ),
    });
    expect(posts()).toBe(1);
  });

  test('after every line of a file was read: no "read so far", no "nothing after line 80 was read"', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'pets.ndjson');
    fs.writeFileSync(file, pets(80).join(''));
    const failed = path.join(dir, 'failed.ndjson');
    const r = await twoCtrlCs(['--file', file, '--failed', failed]);
    expect(r).toMatchObject({
      code: 130,
      stdout: '',
      stderr: wrapped(`${STOPPING}interrupted: created 0 of 80 pets; 0 failed, 1 unknown, 79 not sent (written to ${failed})\n`),
    });
    expect(readNdjson(failed).map((line) => line.line)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
  });
});

test('a stopped load resumed says how many of the items it saw were invalid or skipped, not only those it sent', async () => {
  let hang = true;
  await start((request) => (hang && request.body.includes('p00002') ? { hang: true } : undefined));
  const dir = tempDir();
  const file = path.join(dir, 'pets.ndjson');
  fs.writeFileSync(file, `{"x":1}\n${pets(3).join('')}`);
  const failed = path.join(dir, 'failed.ndjson');
  const stop = new AbortController();
  const halt = new AbortController();
  const first = run(['add', '--file', file, '--failed', failed, '--concurrency', '1'], {
    env: env(),
    signal: stop.signal,
    halt: halt.signal,
  });
  await until(() => posts() === 2);
  stop.abort(new InterruptedError('SIGINT'));
  halt.abort(new InterruptedError('SIGINT'));
  expect((await first).code).toBe(130);
  hang = false;
  const again = await run(['add', '--file', file, '--failed', failed], { env: env() });
  const started = again.stderr.match(/started at (\S+) /)?.[1];
  expect(again.code).toBe(1);
  expect(again.stderr).toBe(
    wrapped(
      `resuming the load started at ${started} (journal ${failed}.journal): of its first 3 pets, 1 created, 0 failed, 1 unknown, ` +
        '1 invalid or skipped; the items left are sent once the input proves the same\n' +
        'failed: line 1 (no name): item.name: required field missing\n' +
        `created 2 of 4 pets; 1 failed, 1 unknown (written to ${failed})\n` +
        'error: 2 of 4 pets were not created or are of unknown outcome\n',
    ),
  );
  // p00002 hung unanswered (never stored) and stays unknown: not sent again without --retry-unknown.
  expect(storedNames()).toEqual(['p00001', 'p00003']);
});

test('a finished load run again says how many items of unknown outcome it skipped', async () => {
  await start((request) => (request.body.includes('p00002') ? { serveThenDestroy: true } : undefined));
  const dir = tempDir();
  const file = path.join(dir, 'pets.ndjson');
  fs.writeFileSync(file, pets(3).join(''));
  const [f1, f2] = [path.join(dir, 'f1.ndjson'), path.join(dir, 'f2.ndjson')];
  expect((await run(['add', '--file', file, '--failed', f1, '--retries', '0'], { env: env() })).code).toBe(1);
  const skip = ['add', '--file', f1, '--failed', f2];
  expect((await run(skip, { env: env() })).code).toBe(1);
  const again = await run(skip, { env: env() });
  expect(again.code).toBe(1);
  const finished = unwrapped(again.stderr).match(/finished at (\S+) /)?.[1];
  expect(again.stderr).toBe(
    wrapped(
      `this load of ${f1} finished at ${finished} (journal ${f2}.journal): of its 1 pet, 0 created, 0 failed, 0 unknown, ` +
        '1 of unknown outcome skipped; the input is read again to check it is the same; the pets created are not sent again. ' +
        '--restart loads it anew\n' +
        `created 0 of 1 pet; 0 failed, 1 of unknown outcome skipped (written to ${f2})\n` +
        'warning: 1 item of unknown outcome (sent before, perhaps created) not sent again; --retry-unknown sends them\n' +
        'error: 1 of 1 pet may not have been created: its outcome is unknown\n',
    ),
  );
  expect(posts()).toBe(3);
});

describe('bad input fails alone', () => {
  test('an item nested 2,500 deep is failed with its line number; the items after it are created', async () => {
    await start();
    const dir = tempDir();
    const file = path.join(dir, 'pets.ndjson');
    const deep = `${'['.repeat(2500)}${']'.repeat(2500)}`;
    const [first, , third] = pets(3);
    fs.writeFileSync(file, `${first}${deep}\n${third}`);
    const failed = path.join(dir, 'failed.ndjson');
    const r = await run(['add', '--file', file, '--failed', failed], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      wrapped(
        `failed: line 2 (no name): nested deeper than 1000 levels: ${'['.repeat(60)}…\n` +
          `created 2 of 3 pets; 1 failed (written to ${failed})\n` +
          'error: 1 of 3 pets was not created\n',
      ),
    );
    expect(storedNames()).toEqual(['p00001', 'p00003']);
    expect(readNdjson(failed)).toMatchObject([{ line: 2, outcome: 'failed', item: null, error: { code: 'invalid_input' } }]);
  });

  test.each([
    ['NDJSON', (lines: string[]) => lines.join(''), ''],
    ['a JSON array', (lines: string[]) => `[${lines.map((line) => line.trim()).join(',\n')}]\n`, ' (item 1)'],
  ])(
    '%s: an item over 16 MiB is failed with its line number, the rest of it passed over; the items after it are created',
    async (_, format, item) => {
      await start();
      const dir = tempDir();
      const file = path.join(dir, 'pets.ndjson');
      const [first, , third] = pets(3);
      const long = `{"name":"${'x'.repeat(17 * 1024 * 1024)}","categoryId":1}\n`;
      fs.writeFileSync(file, format([first!, long, third!]));
      const failed = path.join(dir, 'failed.ndjson');
      const r = await run(['add', '--file', file, '--failed', failed], { env: env() });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        wrapped(
          `failed: line 2${item} (no name): longer than 16 MiB: {"name":"${'x'.repeat(51)}…\n` +
            `created 2 of 3 pets; 1 failed (written to ${failed})\n` +
            'error: 1 of 3 pets was not created\n',
        ),
      );
      expect(storedNames()).toEqual(['p00001', 'p00003']);
      expect(readNdjson(failed)).toMatchObject([{ line: 2, outcome: 'failed', item: null, error: { code: 'invalid_input' } }]);
    },
  );

  test('binary input over 16 MiB (a NUL byte, as /dev/zero): failed, and the input is not read beyond it', async () => {
    await start();
    const dir = tempDir();
    const file = path.join(dir, 'pets.bin');
    fs.writeFileSync(file, Buffer.concat([Buffer.from(pets(1)[0]!), Buffer.alloc(17 * 1024 * 1024), Buffer.from(`\n${pets(2)[1]}`)]));
    const failed = path.join(dir, 'failed.ndjson');
    const r = await run(['add', '--file', file, '--failed', failed], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      wrapped(
        'failed: line 2 (no name): longer than 16 MiB, and not JSON text (a NUL byte); the input is not read beyond it\n' +
          `created 1 of 2 pets read so far; 1 failed (written to ${failed}); nothing after line 2 was read\n` +
          'error: 1 of 2 pets read so far was not created\n',
      ),
    );
    expect(storedNames()).toEqual(['p00001']);
  });
});
