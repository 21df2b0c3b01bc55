// The auth login prompt on a real terminal: the key is not echoed; Ctrl-C
// exits 130 after a newline, with no error line and no stack trace (also with
// --verbose); a key typed and checked against a slow service shows the spinner.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { tempConfigHome } from './helpers.js';
import { gatedService, plain, runInPty, type GatedService } from './pty.js';

let service: GatedService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const PROMPT = 'API key for production: ';

async function start(): Promise<{ env: NodeJS.ProcessEnv; home: string }> {
  service = await gatedService((_method, url) => (url === '/v1/pets?limit=1' ? { status: 200, json: [] } : { status: 404, json: {} }));
  const home = tempConfigHome();
  return { env: { PETSTORE_BASE_URL: service.baseUrl, XDG_CONFIG_HOME: home }, home };
}

describe('Ctrl-C at the auth login prompt', () => {
  test.each([[[]], [['--verbose']], [['--json']]])('%j: exit 130 after a newline, nothing else printed, nothing stored', async (flags) => {
    const { env, home } = await start();
    const run = runInPty(['auth', 'login', ...flags], { env });
    await run.waitFor(PROMPT);
    run.type('half-typed-key');
    run.type('\u0003');
    expect(await run.exited).toBe(130);
    expect(plain(run.output())).toBe(`${PROMPT}\r\n`);
    expect(await run.text()).toEqual([PROMPT]);
    expect(fs.existsSync(path.join(home, 'petstore', 'config.json'))).toBe(false);
  });

  test('right away, before typing anything: the same', async () => {
    const { env } = await start();
    const run = runInPty(['auth', 'login', '--verbose'], { env });
    await run.waitFor(PROMPT);
    run.type('\u0003');
    expect(await run.exited).toBe(130);
    expect(run.output()).not.toMatch(/error|at /);
    expect(await run.text()).toEqual([PROMPT]);
  });
});

describe('Ctrl-D (the end of the input) at the auth login prompt', () => {
  test.each([
    [[], 'error: no API key given: the input ended'],
    [['--json'], '{"code":"invalid_usage","message":"no API key given: the input ended","status":null}'],
  ])('%j: exit 2 after a newline, as an empty key; nothing stored', async (flags, error) => {
    const { env, home } = await start();
    const run = runInPty(['auth', 'login', ...flags], { env, cols: 120 });
    await run.waitFor(PROMPT);
    run.type('\u0004');
    expect(await run.exited).toBe(2);
    expect(await run.text()).toEqual([PROMPT, error]);
    expect(fs.existsSync(path.join(home, 'petstore', 'config.json'))).toBe(false);
  });
});

describe('a key typed at the prompt', () => {
  test('is not echoed; while a slow service checks it a spinner turns, gone before the result', async () => {
    const { env, home } = await start();
    const run = runInPty(['auth', 'login'], { env, cols: 160 });
    await run.waitFor(PROMPT);
    run.type('typed-secret\r');
    await run.waitFor(/waiting for 127\.0\.0\.1:\d+/);
    service!.release();
    expect(await run.exited).toBe(0);
    const config = path.join(home, 'petstore', 'config.json');
    expect(await run.text()).toEqual([
      PROMPT,
      `Base URL of production set to ${service!.baseUrl}/`,
      `Logged in to production (${new URL(service!.baseUrl).origin}, key checked): key stored in ${config}`,
    ]);
    expect(run.output()).not.toContain('typed-secret');
    expect(JSON.parse(fs.readFileSync(config, 'utf8')).environments.production.apiKey).toBe('typed-secret');
  });
});
