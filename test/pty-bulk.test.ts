// add --file on a real terminal: the progress line (created, failed, rate;
// for a file, the share taken and the time left) never shares a line with a
// row or a message, and is not drawn while the user types the input at the
// same terminal.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { runInPty, tempDir, type ScreenLine } from './pty.js';

let server: PetService | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A service that answers each request after `delayMs` (at least), with no pets to start with. */
async function slowService(delayMs: number): Promise<NodeJS.ProcessEnv> {
  server = await startPetService({ key: 'k', seed: false, faults: () => ({ serve: true, delayMs }) });
  return { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' };
}

/** NDJSON of `n` pets named Pet0…, the seventh of each ten without a categoryId (failed, not sent). */
function petsFile(n: number): string {
  const file = path.join(tempDir(), 'pets.ndjson');
  const line = (i: number) => JSON.stringify(i % 10 === 6 ? { name: `Pet${i}` } : { name: `Pet${i}`, categoryId: i % 5, status: 'sold' });
  fs.writeFileSync(file, Array.from({ length: n }, (_, i) => `${line(i)}\n`).join(''));
  return file;
}

const ROW = /^\d+ +Pet\d+ +\d +sold$/;
const FAILED = /^failed: line \d+ "Pet\d+": item\.categoryId: required field missing$/;
const PROGRESS = /created \d+, failed \d+, \d+\/s/;
/** The last line of a load without --failed that left pets not created. */
const HINT = '--failed FILE keeps the pets not created, to load them again';

/** Every line on the screen is whole: a row, a message or the summary; never a row or a message run into the progress line. */
function expectCleanLines(screen: ScreenLine[], summary: string) {
  const lines = screen.map((l) => l.text);
  const unclean = lines.filter((line) => !(ROW.test(line) || FAILED.test(line) || line === summary));
  expect(unclean).toEqual([]);
  expect(screen.filter((l) => l.wrapped)).toEqual([]);
}

describe('add --file from a terminal against a slow service', () => {
  test('300 pets from a file: the progress line shows the share read and the time left; rows and messages each have their own line', async () => {
    const env = await slowService(40);
    const file = petsFile(300);
    const run = runInPty(['add', '--file', file, '--concurrency', '4'], { env, cols: 100, rows: 30 });
    // 300 requests of at least 40 ms, 4 at a time: three seconds at least, so the line has time to estimate.
    await run.waitFor(/created \d+, failed \d+, \d+\/s, \d+% read, about \d+s left/);
    expect(await run.exited).toBe(1);
    const screen = await run.screen();
    const summary = 'created 270 of 300 pets; 30 failed';
    expect(screen.at(-3)!.text).toBe(summary);
    expect(screen.at(-2)!.text).toBe('error: 30 of 300 pets were not created');
    expect(screen.at(-1)!.text).toBe(HINT);
    expectCleanLines(screen.slice(0, -2), summary);
    expect(screen.filter((l) => ROW.test(l.text))).toHaveLength(270);
    expect(screen.filter((l) => FAILED.test(l.text))).toHaveLength(30);
    // The progress line was drawn, and erased at the end.
    expect(run.output()).toMatch(PROGRESS);
    expect(screen.some((l) => PROGRESS.test(l.text))).toBe(false);
  });

  test('the same file as standard input (< pets.ndjson) is of known size too', async () => {
    const env = await slowService(40);
    const file = petsFile(120);
    const run = runInPty(['add', '--file', '-', '--concurrency', '2'], { env, shell: `exec $PETSTORE < ${file}` });
    await run.waitFor(/\d+% read, about \d+s left/);
    expect(await run.exited).toBe(1);
    expect((await run.text()).slice(-3)).toEqual(['created 108 of 120 pets; 12 failed', 'error: 12 of 120 pets were not created', HINT]);
  });

  test('rows to a file, progress on the terminal: the terminal shows only the progress line, then the summary', async () => {
    const env = await slowService(40);
    const dir = tempDir();
    const out = path.join(dir, 'created.tsv');
    const run = runInPty(['add', '--file', petsFile(40), '--concurrency', '2'], { env, shell: `exec $PETSTORE > ${out}` });
    await run.waitFor(PROGRESS);
    expect(await run.exited).toBe(1);
    expect(fs.readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(36);
    expectCleanLines((await run.screen()).slice(0, -2), 'created 36 of 40 pets; 4 failed');
  });
});

describe('typing the input at the terminal (add --file -)', () => {
  test('a hint, no progress line over what is typed; each created row on its own line; Ctrl-D ends the input', async () => {
    const env = await slowService(300);
    const run = runInPty(['add', '--file', '-'], { env });
    await run.waitFor('Ctrl-D ends the input');
    run.type('{"name":"Typed","categoryId":1}\r');
    await run.waitFor(/1\tTyped\t1\t-/);
    run.type('{"name":"Second","categoryId":2}\r');
    await run.waitFor(/2\tSecond\t2\t-/);
    run.type('\u0004');
    expect(await run.exited).toBe(0);
    expect(run.output()).not.toMatch(PROGRESS);
    expect(await run.text()).toEqual([
      'reading pets from the terminal, one JSON object per line; Ctrl-D ends the input',
      '{"name":"Typed","categoryId":1}',
      '1       Typed   1       -',
      '{"name":"Second","categoryId":2}',
      '2       Second  2       -',
      'created 2 of 2 pets; 0 failed',
    ]);
  });
});
