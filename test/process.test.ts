// Process hygiene of the real binary: broken pipes, signals and concurrent
// config writes. (Proxies: network-paths.test.ts.)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { PET, spawnAsync, tempConfigHome } from './helpers.js';

const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
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
    const r = await spawnAsync('bash', ['-c', `"${process.execPath}" "${BIN}" list --json | head -c 1; exit \${PIPESTATUS[0]}`],
      baseEnv({ PETSTORE_BASE_URL: server.baseUrl }));
    expect(r.stdout).toBe('[');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  test.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s aborts the request in flight and exits %i', async (signal, code) => {
    server = await startPetService({ key: 'k', faults: [{ hang: true }] });
    const child = spawn(process.execPath, [BIN, 'list'], { env: baseEnv({ PETSTORE_BASE_URL: server.baseUrl }) });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    child.kill(signal);
    const exit = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(exit).toBe(code);
    expect(stderr).toBe('');
  });

  test('concurrent invocations never corrupt the config file', async () => {
    const home = tempConfigHome();
    const runs = Array.from({ length: 12 }, (_, i) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'config', 'set', 'base-url', `https://h${i}.example/v1`, '--env', `e${i % 3}`], {
          env: baseEnv({ XDG_CONFIG_HOME: home }),
          stdio: 'ignore',
        });
        child.on('close', resolve);
      }),
    );
    expect(await Promise.all(runs)).toEqual(Array(12).fill(0));
    const file = path.join(home, 'petstore', 'config.json');
    const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(Object.keys(stored.environments).length).toBeGreaterThan(0);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});
