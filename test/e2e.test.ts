// End-to-end: the built bin/petstore.js as a child process against the sandbox
// on a random loopback port, with an isolated XDG_CONFIG_HOME.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { spawnPetstore, tempConfigHome, type ChildResult } from './helpers.js';

let sandbox: PetService;
let baseUrl: string;

beforeAll(async () => {
  sandbox = await startPetService({ key: 'e2e-key', firstId: 9007199254740993n, seed: false });
  baseUrl = sandbox.baseUrl;
});

afterAll(async () => {
  await sandbox.close();
});

function petstore(args: string[], env: NodeJS.ProcessEnv = {}, stdin = ''): Promise<ChildResult> {
  return spawnPetstore(args, { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env }, stdin);
}

describe('petstore against the sandbox', () => {
  const env = () => ({ PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: 'e2e-key', PETSTORE_NO_DEPRECATION_WARNING: '1' });

  test('add then get returns the same pet, ids above 2^53 exact', async () => {
    const added = await petstore(['add', '--name', 'Rex', '--category-id', '9007199254740995', '--status', 'available', '--json'], env());
    expect(added).toEqual({ code: 0, stderr: '', stdout: expect.stringMatching(/^\{"id":\d+,"name":"Rex","categoryId":9007199254740995,"status":"available"\}\n$/) });
    const id = /"id":(\d+)/.exec(added.stdout)![1]!;
    expect(BigInt(id) >= 9007199254740993n).toBe(true);
    const got = await petstore(['get', id, '--json'], env());
    expect(got).toEqual({ code: 0, stdout: added.stdout, stderr: '' });
  });

  test('list filters by status; piped output is tab-separated', async () => {
    await petstore(['add', '--name', 'Tom', '--category-id', '2', '--status', 'sold'], env());
    const sold = await petstore(['list', '--status', 'sold'], env());
    expect(sold.code).toBe(0);
    expect(sold.stderr).toBe('');
    const rows = sold.stdout.trim().split('\n').map((line) => line.split('\t'));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.length === 4 && row[3] === 'sold')).toBe(true);
    expect(rows.some((row) => row[1] === 'Tom')).toBe(true);
  });

  test('config set, auth login --with-token (checked against the service), then list with the stored key; the file is mode 0600', async () => {
    const home = tempConfigHome();
    const isolated = { XDG_CONFIG_HOME: home };
    expect((await petstore(['config', 'set', 'base-url', baseUrl, '--env', 'local'], isolated)).code).toBe(0);
    const before = sandbox.requests.length;
    const login = await petstore(['auth', 'login', '--with-token', '--env', 'local'], isolated, 'e2e-key\n');
    expect(login.code).toBe(0);
    expect(sandbox.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/pets?limit=1']);
    const file = path.join(home, 'petstore', 'config.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const listed = await petstore(['list', '--json'], { ...isolated, PETSTORE_ENV: 'local' });
    expect(listed.code).toBe(0);
    expect(Array.isArray(JSON.parse(listed.stdout))).toBe(true);
    const status = await petstore(['auth', 'status', '--env', 'local'], isolated);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('Check\tvalid\n');
    expect(status.stdout).not.toContain('e2e-key');
    const wrong = await petstore(['auth', 'login', '--with-token', '--env', 'local'], isolated, 'wrongkey\n');
    expect(wrong.code).toBe(4);
    expect(fs.readFileSync(file, 'utf8')).toContain('e2e-key');
    expect(fs.readFileSync(file, 'utf8')).not.toContain('wrongkey');
  });

  test('a new user without XDG_CONFIG_HOME: the config folder is created 0700 under HOME, with no warning', async () => {
    const home = tempConfigHome();
    const login = await petstore(['auth', 'login', '--with-token', '--env', 'local', '--base-url', baseUrl], { HOME: home }, 'e2e-key\n');
    const folder = path.join(home, '.config', 'petstore');
    const origin = new URL(baseUrl).origin;
    expect(login).toEqual({
      code: 0,
      stdout: '',
      stderr: `Created environment local\nBase URL of local set to ${baseUrl}/\nLogged in to local (${origin}, key checked): key stored in ${path.join(folder, 'config.json')}\n`,
    });
    expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(folder, 'config.json')).mode & 0o777).toBe(0o600);
  });

  test('a wrong key exits 4; an unknown id exits 3', async () => {
    const wrong = await petstore(['list'], { ...env(), PETSTORE_API_KEY: 'nope' });
    expect(wrong).toEqual({
      code: 4,
      stdout: '',
      stderr: 'error: missing or invalid API key (HTTP 401, code unauthorized)\nRun: petstore auth login   (or check PETSTORE_API_KEY)\n',
    });
    const missing = await petstore(['get', '1'], env());
    expect(missing).toEqual({ code: 3, stdout: '', stderr: 'error: no animal with id 1 (HTTP 404, code not_found)\n' });
  });

  test('bad input exits 2 and sends nothing', async () => {
    const before = sandbox.requests.length;
    for (const args of [
      ['list', '--limit', '0'],
      ['list', '--status', 'lost'],
      ['add', '--name', 'Rex', '--category-id', '1e3'],
      ['get', '9223372036854775808'],
      ['get', 'abc'],
      ['list', '--nope'],
    ]) {
      const r = await petstore(args, env());
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(sandbox.requests.length).toBe(before);
  });
});
