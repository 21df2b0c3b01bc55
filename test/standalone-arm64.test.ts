// The linux-arm64 standalone executable (npm run build:standalone -- --target
// linux-arm64), run where PETSTORE_ARM64_BIN names it: under qemu-user on
// another machine (scripts/targets.mjs, runOn), directly on an arm64 one.
// Few starts, as each takes seconds under qemu: --version with nothing
// around it, a bulk load, then get and list, byte for byte as bin/petstore.js
// on this machine answers them from the same sandbox. What the executable
// holds is the x64 one's (package.test.ts, PETSTORE_E2E_BIN).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
// @ts-expect-error: the build scripts are plain JavaScript without type declarations
import { pinnedNode, runOn } from '../scripts/targets.mjs';
import { BIN, runsHere, spawnAsync } from './helpers.js';
import { startSandbox } from './support/sandbox.js';

const ROOT = path.dirname(path.dirname(BIN));
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const KEY = 'arm64-test-key';
const executable = process.env.PETSTORE_ARM64_BIN ?? '';

const runs = runsHere(
  executable !== '',
  'the linux-arm64 executable',
  'npm run build:standalone -- --target linux-arm64, then PETSTORE_ARM64_BIN=dist/petstore-linux-arm64 npx vitest run --config vitest.packaging.config.ts test/standalone-arm64.test.ts; needs qemu-user-static',
);

describe.runIf(runs)('linux-arm64 standalone executable (PETSTORE_ARM64_BIN)', () => {
  const [command = '', ...prefix] = runOn('linux-arm64', path.resolve(executable)) as string[];
  const arm64 = (args: string[], env: NodeJS.ProcessEnv) => spawnAsync(command, [...prefix, ...args], env);
  const x64 = (args: string[], env: NodeJS.ProcessEnv) => spawnAsync(process.execPath, [BIN, ...args], env);

  test('--version runs with an empty environment; the NOTICES file beside it names its Node.js and holds its licence', async () => {
    expect(await arm64(['--version'], {})).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    const notices = fs.readFileSync(`${executable}.NOTICES.txt`, 'utf8');
    const node = pinnedNode(ROOT);
    expect(notices.startsWith(`petstore-linux-arm64 is petstore ${pkg.version} inside Node.js ${node}.\n`)).toBe(true);
    expect(notices).toContain(fs.readFileSync(path.join(ROOT, 'dist/THIRD-PARTY-NOTICES.txt'), 'utf8').trim());
    expect(notices).toContain(`\nNode.js ${node}\n\nNode.js is licensed for use as follows:`);
  });

  test('a bulk load, then get and list: the bytes bin/petstore.js gives here, and the requests they stand for', async () => {
    const sandbox = await startSandbox({ key: KEY, firstId: 1n });
    try {
      const home = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-arm64-'));
      const env = { HOME: home, PETSTORE_API_KEY: KEY, PETSTORE_BASE_URL: sandbox.baseUrl, PETSTORE_NO_DEPRECATION_WARNING: '1' };
      const pets = [
        { name: 'Rex', categoryId: 1, status: 'available' },
        { name: 'Mia', categoryId: 2, status: 'pending' },
        { name: 'Ada', categoryId: 1, status: 'available' },
      ];
      const file = path.join(home, 'pets.ndjson');
      fs.writeFileSync(file, pets.map((p) => `${JSON.stringify(p)}\n`).join(''));
      const loaded = await arm64(
        ['add', '--file', file, '--concurrency', '1', '--failed', path.join(home, 'failed.ndjson'), '--json'],
        env,
      );
      const created = pets.map((p, i) => JSON.stringify({ id: i + 1, ...p }));
      expect(loaded.code, loaded.stderr).toBe(0);
      expect(loaded.stdout).toBe(created.map((line) => `${line}\n`).join(''));

      for (const args of [
        ['get', '1', '--json'],
        ['list', '--status', 'available', '--json'],
      ]) {
        const here = await x64(args, env);
        expect(here.code).toBe(0);
        expect(await arm64(args, env)).toEqual(here);
      }
      expect(JSON.parse((await x64(['list', '--status', 'available', '--json'], env)).stdout)).toEqual(
        [created[0]!, created[2]!].map((line) => JSON.parse(line)),
      );
      expect(sandbox.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        'POST /v1/pets',
        'POST /v1/pets',
        'POST /v1/pets',
        'GET /v1/pets/1',
        'GET /v1/pets/1',
        'GET /v1/pets?limit=20&status=available',
        'GET /v1/pets?limit=20&status=available',
        'GET /v1/pets?limit=20&status=available',
      ]);
    } finally {
      await sandbox.close();
    }
  });
});
