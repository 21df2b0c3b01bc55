// `petstore add` at a terminal without --name or --category-id asks for them
// (and for the status) on stderr, then creates the pet; Ctrl-C exits 130 with
// nothing sent; --no-prompt, PETSTORE_NO_PROMPT=1 and a piped stdin keep
// today's exit 2.
import { afterEach, describe, expect, test } from 'vitest';
import { type PetService, startPetService } from '../sandbox/pet-service.mjs';
import { runInPty } from './pty.js';

let service: PetService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  service = await startPetService({ key: 'k', seed: false });
  return { PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k', NO_COLOR: '1', ...extra };
}
const posts = () => service!.requests.filter((r) => r.method === 'POST').map((r) => r.body);
const DOWN = '\u001b[B';

describe('add at a terminal asks for what is missing', () => {
  test('name, category id (asked again when not an int64) and status typed: the pet is created and printed', async () => {
    const env = await start();
    const run = runInPty(['add'], { env, cols: 100 });
    await run.waitFor('Name');
    run.type('Rex\r');
    await run.waitFor('Category id');
    run.type('abc\r');
    await run.waitFor('invalid value for the category id: "abc": must be');
    // Clear the wrong answer, then type a good one.
    run.type('\u007f\u007f\u007f42\r');
    await run.waitFor('Status');
    run.type(`${DOWN}\r`);
    expect(await run.exited).toBe(0);
    expect(posts()).toEqual(['{"name":"Rex","categoryId":42,"status":"pending"}']);
    // The answers stay on the screen (stderr), then the created pet (stdout), as add prints one.
    expect(await run.text()).toEqual([
      '✔ Name Rex',
      '✔ Category id (an int64) 42',
      '✔ Status pending',
      'id:         1',
      'name:       Rex',
      'categoryId: 42',
      'status:     pending',
    ]);
  });

  test.each([80, 60])("at %i columns a wrong answer's error breaks between words, as inquirer would break it inside one", async (cols) => {
    const env = await start();
    const run = runInPty(['add', '--name', 'Rex'], { env, cols });
    await run.waitFor('Category id');
    run.type('abc\r');
    await run.waitFor('digits');
    const screen = await run.screen();
    expect(screen.filter((line) => line.wrapped)).toEqual([]);
    const error = screen.map((line) => line.text).slice(screen.findIndex((line) => line.text.startsWith('> ')));
    for (const line of error) expect(line.length).toBeLessThanOrEqual(cols);
    expect(error.join(' ').replace(/\s+/g, ' ')).toBe(
      '> invalid value for the category id: "abc": must be an integer written as decimal digits',
    );
    run.type('\u0003');
    expect(await run.exited).toBe(130);
    expect(posts()).toEqual([]);
  });

  test('flags given are not asked again; "none" sends no status; an id above 2^53 stays exact', async () => {
    const env = await start();
    const run = runInPty(['add', '--category-id', '9007199254740993', '--json'], { env, cols: 100 });
    await run.waitFor('Name');
    run.type('Bella\r');
    await run.waitFor('Status');
    run.type(`${DOWN}${DOWN}${DOWN}\r`);
    expect(await run.exited).toBe(0);
    expect(posts()).toEqual(['{"name":"Bella","categoryId":9007199254740993}']);
    expect(run.output()).not.toMatch(/Category id/);
    expect(run.output()).toContain('{"id":1,"name":"Bella","categoryId":9007199254740993}');
  });

  test('--status given: only the missing name is asked', async () => {
    const env = await start();
    const run = runInPty(['add', '--category-id', '3', '--status', 'sold'], { env, cols: 100 });
    await run.waitFor('Name');
    run.type('Max\r');
    expect(await run.exited).toBe(0);
    expect(posts()).toEqual(['{"name":"Max","categoryId":3,"status":"sold"}']);
    expect(run.output()).not.toMatch(/Status/);
  });

  test('Ctrl-C at a prompt: exit 130, nothing sent', async () => {
    const env = await start();
    const run = runInPty(['add'], { env });
    await run.waitFor('Name');
    run.type('Re');
    run.type('\u0003');
    expect(await run.exited).toBe(130);
    expect(service!.requests).toEqual([]);
    expect(run.output()).not.toMatch(/error|at /);
  });

  test('a bad flag given is refused before any prompt: exit 2, nothing asked or sent', async () => {
    const env = await start();
    const run = runInPty(['add', '--category-id', 'x'], { env, cols: 120 });
    expect(await run.exited).toBe(2);
    expect(await run.text()).toEqual(['error: invalid value for --category-id: "x": must be an integer written as decimal digits']);
    expect(service!.requests).toEqual([]);
  });

  test.each<[string, string[], NodeJS.ProcessEnv, string | undefined]>([
    ['--no-prompt', ['add', '--no-prompt'], {}, undefined],
    ['PETSTORE_NO_PROMPT=1', ['add'], { PETSTORE_NO_PROMPT: '1' }, undefined],
    ['stdin piped', ['add'], {}, 'echo Rex | $PETSTORE'],
    ['stdout to a file', ['add'], {}, '$PETSTORE > /dev/null'],
  ])('%s: no prompt, exit 2 naming --name and --category-id, nothing sent', async (_, args, extra, shell) => {
    const env = await start(extra);
    const run = runInPty(args, { env, cols: 120, ...(shell ? { shell } : {}) });
    expect(await run.exited).toBe(2);
    expect(run.output()).toContain('error: --name and --category-id are required (or --file to add many)');
    expect(run.output()).not.toMatch(/Name/);
    expect(service!.requests).toEqual([]);
  });

  test('no API key: the error comes before anything is asked (exit 4)', async () => {
    const env = await start({ PETSTORE_API_KEY: undefined });
    const run = runInPty(['add'], { env, cols: 120 });
    expect(await run.exited).toBe(4);
    expect(run.output()).not.toMatch(/Name/);
    expect(service!.requests).toEqual([]);
  });
});
