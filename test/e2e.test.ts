// End-to-end: petstore against the sandbox on a random loopback port, with an
// isolated XDG_CONFIG_HOME; in-process, but for what only a process shows (the
// built bin/petstore.js, or PETSTORE_E2E_BIN, and its exit codes end to end:
// add then get, exit 4 and 3, a new user's config folder). Every test runs
// twice: directly against the sandbox, and through Stoplight Prism checking
// each request and answer against openapi/petstore.yaml (test/support/prism.ts);
// any violation Prism reports fails the test.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { run, spawnPetstore, tempConfigHome, type ChildResult, wrapped } from './helpers.js';
import { direct, E2E_KEY, throughPrism, type RunningTarget } from './support/e2e-targets.js';
import { loadDocument, operation, parameter } from './support/openapi.js';

const LOGIN_HINT = 'The key came from PETSTORE_API_KEY: check it, or unset it and log in:\n  petstore auth login\n';

/** The built binary as a child process. */
function petstoreProcess(args: string[], env: NodeJS.ProcessEnv = {}, stdin = ''): Promise<ChildResult> {
  return spawnPetstore(args, { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env }, stdin);
}

/** petstore in-process (a fresh config folder unless `env` names one): exit code, stdout, stderr. */
async function petstore(args: string[], env: NodeJS.ProcessEnv = {}, stdin?: string): Promise<ChildResult> {
  const { code, stdout, stderr } = await run(args, { env: { NO_COLOR: '1', ...env }, stdin });
  return { code, stdout, stderr };
}

describe.each([direct, throughPrism])('petstore $name', (target) => {
  let server: RunningTarget;
  const env = () => ({ PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: E2E_KEY, PETSTORE_NO_DEPRECATION_WARNING: '1' });
  const lastRequest = () => server.requests.at(-1)!;

  beforeAll(async () => {
    server = await target.start();
  });

  afterAll(async () => {
    await server.stop();
  });

  afterEach(() => {
    expect(server.takeViolations(), 'violations of openapi/petstore.yaml reported by Prism').toEqual([]);
  });

  test(`add then get returns the same pet, ids ${target.idRange} exact`, async () => {
    const added = await petstoreProcess(
      ['add', '--name', 'Rex', '--category-id', target.categoryId, '--status', 'available', '--json'],
      env(),
    );
    const shape = new RegExp(`^\\{"id":\\d+,"name":"Rex","categoryId":${target.categoryId},"status":"available"\\}\\n$`);
    expect(added).toEqual({ code: 0, stderr: '', stdout: expect.stringMatching(shape) });
    const id = /"id":(\d+)/.exec(added.stdout)![1]!;
    expect(BigInt(id) >= target.firstId).toBe(true);
    const got = await petstoreProcess(['get', id, '--json'], env());
    expect(got).toEqual({ code: 0, stdout: added.stdout, stderr: '' });
    expect(lastRequest()).toMatchObject({ method: 'GET', url: `/v1/pets/${id}`, body: '' });
    // Without PETSTORE_NO_DEPRECATION_WARNING=1: get's warning, and the Deprecation header's where one came (in-process: output).
    const warned = await petstore(['get', id, '--json'], { ...env(), PETSTORE_NO_DEPRECATION_WARNING: '' });
    expect(warned).toEqual({
      code: 0,
      stdout: added.stdout,
      stderr:
        '{"warning":"getPet is removed on 2030-12-05","code":"deprecated_operation","hint":"see get --help"}\n' +
        (target.deprecationHeader ? '{"warning":"the service says this endpoint is deprecated","code":"deprecated_endpoint"}\n' : ''),
    });
  });

  test('list filters by status; piped output is tab-separated', async () => {
    await petstore(['add', '--name', 'Tom', '--category-id', '2', '--status', 'sold'], env());
    const sold = await petstore(['list', '--status', 'sold'], env());
    expect(sold.code).toBe(0);
    expect(sold.stderr).toBe('');
    const rows = sold.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.length === 4 && row[3] === 'sold')).toBe(true);
    expect(rows.some((row) => row[1] === 'Tom')).toBe(true);
  });

  test('listPets: --status and --limit reach the service; no --limit sends the documented default', async () => {
    const first = await petstore(['add', '--name', 'Pip', '--category-id', '4', '--status', 'pending', '--json'], env());
    const second = await petstore(['add', '--name', 'Kit', '--category-id', '5', '--status', 'pending', '--json'], env());
    const [a, b] = [first.stdout.trim(), second.stdout.trim()];

    const one = await petstore(['list', '--status', 'pending', '--limit', '1', '--json'], env());
    expect(one).toEqual({
      code: 0,
      stdout: `[${a}]\n`,
      stderr: '{"warning":"showing one page of 1 pet; the service has more: --all fetches every page","code":"full_page"}\n',
    });
    expect(lastRequest()).toMatchObject({
      method: 'GET',
      url: '/v1/pets?limit=1&status=pending',
      headers: { authorization: `Bearer ${E2E_KEY}` },
    });

    const all = await petstore(['list', '--status', 'pending', '--limit', '100', '--json'], env());
    expect(all).toEqual({ code: 0, stdout: `[${a},${b}]\n`, stderr: '' });
    expect(lastRequest().url).toBe('/v1/pets?limit=100&status=pending');

    const byDefault = await petstore(['list', '--status', 'pending'], env());
    // From the JSON text, not JSON.parse, which would round ids above 2^53.
    const tsv = (pet: string) => pet.replace(/^\{"id":(\d+),"name":"(\w+)","categoryId":(\d+),"status":"(\w+)"\}$/, '$1\t$2\t$3\t$4');
    expect(byDefault).toEqual({ code: 0, stdout: `${tsv(a)}\n${tsv(b)}\n`, stderr: '' });
    const documented = parameter(operation(await loadDocument(), 'listPets'), 'limit').schema.default;
    expect(lastRequest().url).toBe(`/v1/pets?limit=${documented}&status=pending`);
  });

  test('createPet: add sends exactly the NewPet (status optional) and prints the created Pet', async () => {
    const added = await petstore(['add', '--name', 'Max', '--category-id', '2', '--json'], env());
    expect(added).toEqual({ code: 0, stderr: '', stdout: expect.stringMatching(/^\{"id":\d+,"name":"Max","categoryId":2\}\n$/) });
    expect(lastRequest()).toMatchObject({
      method: 'POST',
      url: '/v1/pets',
      headers: { authorization: `Bearer ${E2E_KEY}`, 'content-type': 'application/json' },
      body: '{"name":"Max","categoryId":2}',
    });
  });

  test('config set, auth login --with-token (checked against the service), then list with the stored key; the file is mode 0600', async () => {
    const home = tempConfigHome();
    const isolated = { XDG_CONFIG_HOME: home };
    expect((await petstore(['config', 'set', 'base-url', server.baseUrl, '--env', 'local'], isolated)).code).toBe(0);
    const before = server.requests.length;
    const login = await petstore(['auth', 'login', '--with-token', '--env', 'local'], isolated, `${E2E_KEY}\n`);
    expect(login.code).toBe(0);
    expect(server.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/pets?limit=1']);
    const file = path.join(home, 'petstore', 'config.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const listed = await petstore(['list', '--json'], { ...isolated, PETSTORE_ENV: 'local' });
    expect(listed.code).toBe(0);
    expect(Array.isArray(JSON.parse(listed.stdout))).toBe(true);
    const status = await petstore(['auth', 'status', '--env', 'local'], isolated);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('Check\tvalid\n');
    expect(status.stdout).not.toContain(E2E_KEY);
    const wrong = await petstore(['auth', 'login', '--with-token', '--env', 'local'], isolated, 'wrongkey\n');
    expect(wrong.code).toBe(4);
    expect(fs.readFileSync(file, 'utf8')).toContain(E2E_KEY);
    expect(fs.readFileSync(file, 'utf8')).not.toContain('wrongkey');
  });

  test('a wrong key exits 4; an unknown id exits 3', async () => {
    const wrong = await petstoreProcess(['list'], { ...env(), PETSTORE_API_KEY: 'nope' });
    expect(wrong).toEqual({
      code: 4,
      stdout: '',
      stderr: wrapped(`error: missing or invalid API key (HTTP 401, code unauthorized)\n${LOGIN_HINT}`),
    });
    const missing = await petstoreProcess(['get', '1'], env());
    expect(missing).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error: no animal with id 1 (HTTP 404, code not_found)\n',
    });
    expect(lastRequest()).toMatchObject({ method: 'GET', url: '/v1/pets/1' });
  });

  test('a wrong key: createPet and getPet answer 401 with the Error, exit 4', async () => {
    const unauthorized = `error: missing or invalid API key (HTTP 401, code unauthorized)\n${LOGIN_HINT}`;
    const add = await petstore(['add', '--name', 'Rex', '--category-id', '1'], { ...env(), PETSTORE_API_KEY: 'nope' });
    expect(add).toEqual({ code: 4, stdout: '', stderr: wrapped(unauthorized) });
    expect(lastRequest()).toMatchObject({ method: 'POST', url: '/v1/pets', headers: { authorization: 'Bearer nope' } });
    const get = await petstore(['get', String(target.firstId)], { ...env(), PETSTORE_API_KEY: 'nope' });
    expect(get).toEqual({ code: 4, stdout: '', stderr: unauthorized });
    expect(lastRequest()).toMatchObject({ method: 'GET', url: `/v1/pets/${target.firstId}`, headers: { authorization: 'Bearer nope' } });
  });

  test('bad input exits 2 and sends nothing', async () => {
    const before = server.requests.length;
    for (const args of [
      ['list', '--limit', '0'],
      ['list', '--status', 'lost'],
      ['add', '--name', 'Rex', '--category-id', '1e3'],
      ['get', '9223372036854775808'],
      ['get', 'abc'],
      ['list', '--nope'],
    ]) {
      const r = await run(args, { env: env() });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(server.requests.length).toBe(before);
  });
});

describe('petstore as a new user', () => {
  test('without XDG_CONFIG_HOME: the config folder is created 0700 under HOME, with no warning', async () => {
    const home = tempConfigHome();
    const login = await petstoreProcess(
      ['auth', 'login', '--with-token', '--skip-verify', '--env', 'local', '--base-url', 'http://127.0.0.1:9/v1'],
      { HOME: home },
      `${E2E_KEY}\n`,
    );
    const folder = path.join(home, '.config', 'petstore');
    expect(login).toEqual({
      code: 0,
      stdout: '',
      stderr: wrapped(
        'Created environment local\nBase URL of local set to http://127.0.0.1:9/v1/\n' +
          `Logged in to local (http://127.0.0.1:9, key not checked (--skip-verify)): key stored in ${path.join(folder, 'config.json')}\n`,
      ),
    });
    expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(folder, 'config.json')).mode & 0o777).toBe(0o600);
  });
});
