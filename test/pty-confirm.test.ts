// confirm (src/commands/confirm.ts) at a real terminal, through `zap` of test/support/kit-commands.ts, a command in no registry: so the
// process is test/fixtures/kit-cli.ts, bundled here as scripts/build.mjs bundles src/entry.ts. "y" deletes; "n" and Enter exit 1 with
// nothing sent; Ctrl-C and Ctrl-D exit 130 with nothing sent and no error line; piped stdin is refused naming --yes (exit 2).
import path from 'node:path';
import { build } from 'esbuild';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type PetService, startPetService } from '../sandbox/pet-service.mjs';
import { plain, runInPty, tempDir } from './pty.js';

let script = '';
beforeAll(async () => {
  script = path.join(tempDir(), 'kit-cli.cjs');
  await build({
    entryPoints: ['test/fixtures/kit-cli.ts'],
    outfile: script,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
    banner: { js: 'var __importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    define: { 'import.meta.url': '__importMetaUrl' },
  });
});

let service: PetService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** The sandbox with pet 5 in it, answering DELETE /v1/pets/5 with 204; the environment that points at it. */
async function start(): Promise<NodeJS.ProcessEnv> {
  service = await startPetService({
    key: 'k',
    faults: (request) => (request.method === 'DELETE' ? { status: 204 } : undefined),
  });
  return { PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k' };
}

/** The question as drawn: in bold, its hint dimmed. */
const QUESTION = /Delete pet 5\?\S* \S*\(y\/N\)/;

const deletes = () => (service?.requests ?? []).filter((r: { method: string }) => r.method === 'DELETE');

describe('confirm at a terminal', () => {
  test('the question on stderr, default no; "y" and Enter: deleted, exit 0', async () => {
    const env = await start();
    const run = runInPty(['zap', '5'], { env, script });
    await run.waitFor(QUESTION);
    run.type('y\r');
    expect(await run.exited).toBe(0);
    expect(await run.text()).toEqual(['✔ Delete pet 5? Yes', 'Deleted pet 5']);
    expect(deletes()).toHaveLength(1);
  });

  test.each([['n\r'], ['\r']])('%j: exit 1, "was no: nothing was done", nothing sent', async (keys) => {
    const env = await start();
    const run = runInPty(['zap', '5'], { env, script, cols: 120 });
    await run.waitFor(QUESTION);
    run.type(keys);
    expect(await run.exited).toBe(1);
    expect(await run.text()).toEqual(['✔ Delete pet 5? No', 'error: the answer to "Delete pet 5?" was no: nothing was done']);
    expect(deletes()).toEqual([]);
  });

  test.each([
    ['Ctrl-C', '\u0003'],
    ['Ctrl-D', '\u0004'],
  ])('%s at the question: exit 130, no error line, nothing sent', async (_, key) => {
    const env = await start();
    const run = runInPty(['zap', '5'], { env, script });
    await run.waitFor(QUESTION);
    run.type(key);
    expect(await run.exited).toBe(130);
    expect(plain(run.output())).not.toMatch(/error|at /);
    expect(deletes()).toEqual([]);
  });

  test.each([
    ['stdin piped', [], 'echo y | $PETSTORE', 'standard input is not a terminal'],
    ['stdout to a file', [], '$PETSTORE > /dev/null', 'standard output is not a terminal'],
    ['--no-prompt', ['--no-prompt'], undefined, '--no-prompt'],
  ])('%s, without --yes: exit 2 naming --yes, nothing asked or sent', async (_, flags, shell, why) => {
    const env = await start();
    const run = runInPty(['zap', '5', ...flags], { env, script, cols: 160, ...(shell ? { shell } : {}) });
    expect(await run.exited).toBe(2);
    expect(await run.text()).toEqual([`error: --yes is required to answer "Delete pet 5?" here (${why})`]);
    expect(deletes()).toEqual([]);
  });

  test('--yes, piped: no question, deleted', async () => {
    const env = await start();
    const run = runInPty(['zap', '5', '--yes'], { env, script, shell: 'true | $PETSTORE' });
    expect(await run.exited).toBe(0);
    expect(await run.text()).toEqual(['Deleted pet 5']);
    expect(deletes()).toHaveLength(1);
  });
});
