// Process hygiene of the real binary: broken pipes, signals and concurrent
// config writes. (Proxies: network-direct.test.ts and network-proxy.test.ts.)
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { BIN, PET, spawnAsync, startChild, tempConfigHome } from './helpers.js';

let server: PetService | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function baseEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, PETSTORE_API_KEY: 'k', ...extra };
}

describe('process hygiene', () => {
  test('stdout closed early (| head -c 1) ends quietly', async () => {
    // 19 pets, under the default --limit of 20 (a full page would add a warning), and 95 kB, more than a pipe holds.
    const pets = Array.from({ length: 19 }, (_, i) => ({ ...PET, id: i + 1, name: 'x'.repeat(5000) }));
    server = await startPetService({ key: 'k', faults: [{ status: 200, json: pets }] });
    const r = await spawnAsync(
      'bash',
      ['-c', `"${process.execPath}" "${BIN}" list --json | head -c 1; exit \${PIPESTATUS[0]}`],
      baseEnv({ PETSTORE_BASE_URL: server.baseUrl }),
    );
    expect(r.stdout).toBe('[');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  test.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s aborts the request in flight and exits %i', async (signal, code) => {
    server = await startPetService({ key: 'k', faults: [{ hang: true }] });
    const child = startChild(process.execPath, [BIN, 'list'], { env: baseEnv({ PETSTORE_BASE_URL: server.baseUrl }) });
    await child.waitFor(() => server!.requests.length > 0, 'a request');
    child.kill(signal);
    const { code: exit, stderr } = await child.done;
    expect(exit).toBe(code);
    expect(stderr).toBe('');
  });

  test('concurrent config set, unset, auth login and logout from many processes lose no update', async () => {
    const home = tempConfigHome();
    const petstore = (args: string[], stdin = '') =>
      spawnAsync(process.execPath, [BIN, ...args], baseEnv({ XDG_CONFIG_HOME: home, PETSTORE_API_KEY: '' }), stdin);
    // One after another, the steps of a user who logs in and out of production and sets and unsets a scratch
    // environment...
    const churn: Array<[string[], string?]> = [
      [['auth', 'login', '--with-token', '--skip-verify', '--base-url', 'https://prod.example/v1'], 'key-0\n'],
      [['config', 'set', 'base-url', 'https://scratch.example/v1', '--env', 'scratch']],
      [['config', 'unset', 'base-url', '--env', 'scratch']],
      [['auth', 'logout']],
      [['auth', 'login', '--with-token', '--skip-verify'], 'final-key\n'],
    ];
    // ...each started at the same moment as two processes that set environments of their own: processes started
    // together read and write the file at about the same time.
    for (const [step, [args, stdin]] of churn.entries()) {
      const wave = await Promise.all([
        petstore(args, stdin),
        ...[0, 1].map((w) => petstore(['config', 'set', 'base-url', `https://w${w}-${step}.example/v1`, '--env', `w${w}-${step}`])),
      ]);
      expect(
        wave.map((r) => r.code),
        JSON.stringify(wave),
      ).toEqual([0, 0, 0]);
    }
    const file = path.join(home, 'petstore', 'config.json');
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')).environments;
    for (let w = 0; w < 2; w += 1) {
      for (let i = 0; i < churn.length; i += 1) expect(stored[`w${w}-${i}`]).toEqual({ baseUrl: `https://w${w}-${i}.example/v1/` });
    }
    expect(stored.production).toEqual({ baseUrl: 'https://prod.example/v1/', apiKey: 'final-key', apiKeyOrigin: 'https://prod.example' });
    expect(stored.scratch).toEqual({});
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  }, 60_000);
});
