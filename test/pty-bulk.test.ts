// add --file on a real terminal: the progress line (created, failed, rate;
// for a file, the share taken and the time left) never shares a line with a
// row or a message, and is not drawn while the user types the input at the
// same terminal.
import fs from 'node:fs';
import path from 'node:path';
import { describe, type ExpectStatic, type TestContext, test } from 'vitest';
import { startPetService } from '../sandbox/pet-service.mjs';
import { runInPty, tempDir, type ScreenLine } from './pty.js';

// Every test has its own service and terminal, and all run at once (describe.concurrent). Each closes its service by its
// own onTestFinished and asserts with its own expect, both from its context.

/** A service that answers each request after `delayMs` (at least), with no pets to start with; closed when `test` finishes. */
async function slowService({ onTestFinished }: TestContext, delayMs: number): Promise<NodeJS.ProcessEnv> {
  const server = await startPetService({ key: 'k', seed: false, faults: () => ({ serve: true, delayMs }) });
  onTestFinished(() => server.close());
  return { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' };
}

/**
 * A service with no pets to start with that answers the first `answered` requests at once and holds every later one until
 * `release()`: a load that has read part of its input and then waits as long as the test likes. Closed when `test` finishes.
 */
async function heldService({ onTestFinished }: TestContext, answered: number): Promise<{ env: NodeJS.ProcessEnv; release: () => void }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const server = await startPetService({
    key: 'k',
    seed: false,
    faults: (_request, index) => (index < answered ? { serve: true } : { serve: true, until: gate }),
  });
  onTestFinished(() => server.close());
  return { env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' }, release };
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
function expectCleanLines(expect: ExpectStatic, screen: ScreenLine[], summary: string) {
  const lines = screen.map((l) => l.text);
  const unclean = lines.filter((line) => !(ROW.test(line) || FAILED.test(line) || line === summary));
  expect(unclean).toEqual([]);
  expect(screen.filter((l) => l.wrapped)).toEqual([]);
}

describe.concurrent('add --file from a terminal against a slow service', () => {
  test('100 pets from a file: the progress line shows the share read and the time left; rows and messages each have their own line', async (context) => {
    const { expect } = context;
    const { env, release } = await heldService(context, 20);
    const file = petsFile(100);
    const run = runInPty(['add', '--file', file, '--concurrency', '4'], { env, cols: 100, rows: 30 });
    // 20 pets are created, then the load waits until its line estimates the time left (after a second); the other 70
    // rows and the messages then come while the line is drawn.
    await run.waitFor(/created \d+, failed \d+, \d+\/s, \d+% read, about \d+s left/);
    release();
    expect(await run.exited).toBe(1);
    const screen = await run.screen();
    const summary = 'created 90 of 100 pets; 10 failed';
    expect(screen.at(-3)!.text).toBe(summary);
    expect(screen.at(-2)!.text).toBe('error: 10 of 100 pets were not created');
    expect(screen.at(-1)!.text).toBe(HINT);
    expectCleanLines(expect, screen.slice(0, -2), summary);
    expect(screen.filter((l) => ROW.test(l.text))).toHaveLength(90);
    expect(screen.filter((l) => FAILED.test(l.text))).toHaveLength(10);
    // The progress line was drawn, and erased at the end.
    expect(run.output()).toMatch(PROGRESS);
    expect(screen.some((l) => PROGRESS.test(l.text))).toBe(false);
  });

  test('the same file as standard input (< pets.ndjson) is of known size too', async (context) => {
    const { expect } = context;
    const { env, release } = await heldService(context, 10);
    const file = petsFile(60);
    const run = runInPty(['add', '--file', '-', '--concurrency', '2'], { env, shell: `exec $PETSTORE < ${file}` });
    await run.waitFor(/\d+% read, about \d+s left/);
    release();
    expect(await run.exited).toBe(1);
    expect((await run.text()).slice(-3)).toEqual(['created 54 of 60 pets; 6 failed', 'error: 6 of 60 pets were not created', HINT]);
  });

  test('rows to a file, progress on the terminal: the terminal shows only the progress line, then the summary', async (context) => {
    const { expect } = context;
    const env = await slowService(context, 40);
    const dir = tempDir();
    const out = path.join(dir, 'created.tsv');
    const run = runInPty(['add', '--file', petsFile(40), '--concurrency', '2'], { env, shell: `exec $PETSTORE > ${out}` });
    await run.waitFor(PROGRESS);
    expect(await run.exited).toBe(1);
    expect(fs.readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(36);
    expectCleanLines(expect, (await run.screen()).slice(0, -2), 'created 36 of 40 pets; 4 failed');
  });
});

describe.concurrent('typing the input at the terminal (add --file -)', () => {
  test('a hint, no progress line over what is typed; each created row on its own line; Ctrl-D ends the input', async (context) => {
    const { expect } = context;
    const env = await slowService(context, 300);
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
