// The spinner of a slow answer, on a real terminal: it shows once a request
// has waited half a second, on stderr, and is gone before anything is
// printed; never with --json (stderr is then JSON lines only) nor when stderr
// is not a terminal. The service holds each answer until the test lets it go.
// A table of a whole listing (list --all), which prints nothing before its
// last page, shows a spinner of its own after a second, with the count read.
import fs from 'node:fs';
import path from 'node:path';
import { describe, type ExpectStatic, type TestContext, test } from 'vitest';
import { pageFault, startPetService } from '../sandbox/pet-service.mjs';
import { gatedService, runInPty, tempDir, type GatedService } from './pty.js';
import { PET } from './helpers.js';

// Every test has its own services and terminals, and all run at once (describe.concurrent): each waits for a spinner's
// delay. Each closes its services by its own onTestFinished and asserts with its own expect, both from its context.

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] waiting for 127\.0\.0\.1:\d+/;
const CLEAR = '\r\u001b[K';

/** The service whose every answer waits for `release()`, and petstore's environment to reach it. */
async function slowService({ onTestFinished }: TestContext): Promise<{ env: NodeJS.ProcessEnv; service: GatedService }> {
  const service = await gatedService((method, url) => {
    if (url.startsWith('/v1/pets?')) return { status: 200, json: [PET] };
    if (url === '/v1/pets/1' || method === 'POST') return { status: method === 'POST' ? 201 : 200, json: PET };
    return { status: 404, json: { code: 'not_found', message: 'no pet 99999', status: 404 } };
  });
  onTestFinished(() => service.close());
  return { env: { PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k' }, service };
}

/**
 * Runs petstore `args` in a terminal against the slow service, lets the
 * service answer once the spinner shows, and checks it then exits 0.
 */
async function runPastSpinner(context: TestContext, args: string[], cols?: number) {
  const { expect } = context;
  const { env, service } = await slowService(context);
  const run = runInPty(args, cols === undefined ? { env } : { env, cols });
  await run.waitFor(SPINNER);
  service.release();
  expect(await run.exited).toBe(0);
  return run;
}

/**
 * Resolves once a spinner for the request the service holds would have
 * shown: another petstore, started after that request arrived, shows its
 * spinner on a terminal (its request is held too). Returns that run.
 */
async function pastTheSpinnersDelay({ env, service }: { env: NodeJS.ProcessEnv; service: GatedService }) {
  await service.arrived;
  const later = runInPty(['list'], { env });
  await later.waitFor(SPINNER);
  return later;
}

/** The spinner was drawn, and its last frame was cleared before `printed` reached the terminal. */
function expectSpinnerGoneBefore(expect: ExpectStatic, output: string, printed: string) {
  const frames = [...output.matchAll(new RegExp(SPINNER.source, 'g'))];
  expect(frames.length).toBeGreaterThan(0);
  const last = frames.at(-1)!.index;
  const cleared = output.indexOf(CLEAR, last);
  expect(cleared).toBeGreaterThan(last);
  expect(output.indexOf(printed, last)).toBeGreaterThan(cleared);
}

describe.concurrent('a slow answer shows a spinner on a terminal', () => {
  test('list: the spinner names the host, then goes before the table', async (context) => {
    const { expect } = context;
    const run = await runPastSpinner(context, ['list']);
    expectSpinnerGoneBefore(expect, run.output(), '┌');
    expect(await run.text()).toEqual([
      '┌────┬──────┬─────────────┬───────────┐',
      '│ ID │ NAME │ CATEGORY ID │ STATUS    │',
      '├────┼──────┼─────────────┼───────────┤',
      '│ 1  │ Rex  │ 2           │ available │',
      '└────┴──────┴─────────────┴───────────┘',
    ]);
  });

  test('get: the deprecation warning, then the spinner on the line below it, gone before the pet', async (context) => {
    const { expect } = context;
    const run = await runPastSpinner(context, ['get', '1'], 160);
    expectSpinnerGoneBefore(expect, run.output(), 'id:');
    expect(await run.text()).toEqual([
      'warning: getPet is deprecated, removed 2030-12-05; get then reads listPets pages',
      'PETSTORE_NO_DEPRECATION_WARNING=1 silences this warning',
      'id:         1',
      'name:       Rex',
      'categoryId: 2',
      'status:     available',
    ]);
  });

  test('add: the spinner goes before the created pet', async (context) => {
    const { expect } = context;
    const run = await runPastSpinner(context, ['add', '--name', 'Rex', '--category-id', '2']);
    expectSpinnerGoneBefore(expect, run.output(), 'id:');
    expect((await run.text())[0]).toBe('id:         1');
  });

  test('Ctrl-C while the spinner turns: exit 130, the spinner cleared, no error line', async (context) => {
    const { expect } = context;
    const { env } = await slowService(context);
    const run = runInPty(['list'], { env });
    await run.waitFor(SPINNER);
    run.type('\u0003');
    expect(await run.exited).toBe(130);
    expect(run.output().endsWith(CLEAR)).toBe(true);
    expect((await run.text()).filter((line) => line.trim() !== '^C')).toEqual([]);
  });
});

describe.concurrent('no spinner', () => {
  test('with --json: stderr is JSON lines only, the warning and then the error once (get 99 --json 2>&1 >/dev/null)', async (context) => {
    const { expect } = context;
    const slow = await slowService(context);
    const run = runInPty(['get', '99999', '--json'], { env: slow.env, cols: 200, shell: 'exec $PETSTORE 2>&1 >/dev/null' });
    const later = await pastTheSpinnersDelay(slow);
    slow.service.release();
    expect(await run.exited).toBe(3);
    await later.exited;
    expect(run.output()).not.toMatch(SPINNER);
    const lines = await run.text();
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        warning: 'getPet is removed on 2030-12-05',
        code: 'deprecated_operation',
        hint: 'see get --help',
      },
      { code: 'not_found', message: 'no pet 99999', status: 404 },
    ]);
  });

  test('when stderr is not a terminal (stdout is): nothing on stderr, the table on the terminal', async (context) => {
    const { expect } = context;
    const slow = await slowService(context);
    const errors = path.join(tempDir(), 'stderr.txt');
    const run = runInPty(['list'], { env: slow.env, shell: `exec $PETSTORE 2>${errors}` });
    const later = await pastTheSpinnersDelay(slow);
    slow.service.release();
    expect(await run.exited).toBe(0);
    await later.exited;
    expect(fs.readFileSync(errors, 'utf8')).toBe('');
    expect(run.output()).not.toMatch(SPINNER);
    expect((await run.text())[3]).toBe('│ 1  │ Rex  │ 2           │ available │');
  });
});

/**
 * The sandbox with 3 pets in pages of 2, whose page 2 waits until the returned `release()`: a whole listing that the test keeps
 * waiting as long as it likes, its first page read at once.
 */
async function secondPageHeld({ onTestFinished }: TestContext): Promise<{ env: NodeJS.ProcessEnv; release: () => void }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const store = await startPetService({
    key: 'k',
    seed: 3,
    pageSize: 2,
    faults: pageFault(2, { until: gate, serve: true }, { pageSize: 2 }),
  });
  onTestFinished(() => store.close());
  return { env: { PETSTORE_BASE_URL: store.baseUrl, PETSTORE_API_KEY: 'k' }, release };
}

const LISTING_SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] reading the whole listing: 2 pets so far/;

describe.concurrent('a table of a whole listing shows a spinner while it reads every page', () => {
  test('list --all at a terminal: after the first page, the spinner with the count (no request spinner), gone before the table', async (context) => {
    const { expect } = context;
    const { env, release } = await secondPageHeld(context);
    const run = runInPty(['list', '--all'], { env });
    await run.waitFor(LISTING_SPINNER);
    release();
    expect(await run.exited).toBe(0);
    const output = run.output();
    expect(output).not.toMatch(SPINNER);
    const frames = [...output.matchAll(new RegExp(LISTING_SPINNER.source, 'g'))];
    const cleared = output.indexOf(CLEAR, frames.at(-1)!.index);
    expect(cleared).toBeGreaterThan(frames.at(-1)!.index);
    expect(output.indexOf('┌', cleared)).toBeGreaterThan(cleared);
    const screen = await run.text();
    expect(screen.filter((line) => line.startsWith('│ ') && !line.startsWith('│ ID'))).toHaveLength(3);
  });

  test('--format kv at a terminal: each page prints as it comes, so no listing spinner; the held page has the request spinner', async (context) => {
    const { expect } = context;
    const { env, release } = await secondPageHeld(context);
    const run = runInPty(['list', '--all', '--format', 'kv'], { env, cols: 100 });
    await run.waitFor(SPINNER);
    // The first page is on the screen while the second is awaited.
    expect(run.output()).toContain('name:');
    release();
    expect(await run.exited).toBe(0);
    expect(run.output()).not.toMatch(/reading the whole listing/);
  });

  test('with --json, nothing but data: no spinner of either kind', async (context) => {
    const { expect } = context;
    const { env, release } = await secondPageHeld(context);
    const run = runInPty(['list', '--all', '--json'], { env });
    // Another petstore started after this one's first page, whose own spinner shows while this one's would have too.
    const later = runInPty(['list', '--all'], { env });
    await later.waitFor(LISTING_SPINNER);
    release();
    expect(await run.exited).toBe(0);
    expect(await later.exited).toBe(0);
    expect(run.output()).not.toMatch(/reading the whole listing|waiting for/);
    expect(JSON.parse((await run.text()).join(''))).toHaveLength(3);
  });
});
