// auth login (checked against the service, stored with its origin), status,
// token and logout; a stored key goes only to the origin it was stored for. The runs through the fake client; `get` through main with it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { LOGIN } from '../src/commands/auth/login.js';
import { LOGOUT } from '../src/commands/auth/logout.js';
import { STATUS } from '../src/commands/auth/status.js';
import { TOKEN } from '../src/commands/auth/token.js';
import { SET } from '../src/commands/config/run.js';
import { LIST } from '../src/commands/list/run.js';
import { type CommandContract, type Given, type Inputs, runCommand } from '../src/commands/runner.js';
import type { CliError } from '../src/errors.js';
import { errorBody, tempConfigHome, wrapped } from './helpers.js';
import { FAKE_ORIGIN, type FakeClientOptions, fakeClientFactory, thrownBy } from './support/fake-client.js';

const BASE = FAKE_ORIGIN;
const JSON_TYPE = { headers: { 'content-type': 'application/json' } };
const BASE_URL = `${BASE}/v1`;
const configFile = (home: string) => path.join(home, 'petstore', 'config.json');
const stored = (home: string) => JSON.parse(fs.readFileSync(configFile(home), 'utf8'));

type Fake = ReturnType<typeof fakeClientFactory>;

/** A fake client with the config folder `home` and neither PETSTORE_BASE_URL nor PETSTORE_API_KEY unless `options.env` sets them. */
function at(home: string, options: FakeClientOptions = {}): Fake {
  return fakeClientFactory({
    ...options,
    env: { XDG_CONFIG_HOME: home, PETSTORE_BASE_URL: undefined, PETSTORE_API_KEY: undefined, ...options.env },
  });
}

/** Runs `contract` with `given` on `fake`: what it wrote and what it threw. */
async function ran<I extends Inputs, O, F>(fake: Fake, contract: CommandContract<I, O, F>, given: Given = {}) {
  const error = (await thrownBy(runCommand(fake.f, contract, given))) as CliError | undefined;
  return { ...fake.written, error };
}

/** The one request `auth login` and `auth status` send to check a key, answered `status`. */
function keyCheck(fake: Fake, status = 200) {
  const body =
    status === 200 ? [] : errorBody(status, status === 401 ? 'unauthorized' : 'internal', status === 401 ? 'invalid API key' : 'boom');
  fake.answer('GET', '/v1/pets?limit=1', status, JSON.stringify(body));
}

const WITH_TOKEN = { flags: { withToken: true } };

/** A config home logged in to BASE_URL with `key`. */
async function loggedIn(key = 's3cret-key'): Promise<string> {
  const home = tempConfigHome();
  const login = at(home, { globals: { baseUrl: BASE_URL }, stdin: `${key}\n` });
  keyCheck(login);
  expect((await ran(login, LOGIN, WITH_TOKEN)).error).toBeUndefined();
  return home;
}

describe('auth login', () => {
  test('checks the key with GET /pets?limit=1, then stores it with its origin (file 0600, folder 0700)', async () => {
    const home = tempConfigHome();
    const fake = at(home, { globals: { baseUrl: BASE_URL }, stdin: 's3cret-key\n' });
    keyCheck(fake);
    expect(await ran(fake, LOGIN, WITH_TOKEN)).toEqual({
      stdout: '',
      stderr: wrapped(
        `Base URL of production set to ${BASE_URL}/\nLogged in to production (${BASE}, key checked): key stored in ${configFile(home)}\n`,
      ),
      error: undefined,
    });
    expect(fake.requests).toEqual([{ method: 'GET', path: '/v1/pets?limit=1', authorization: 'Bearer s3cret-key' }]);
    expect(fs.statSync(configFile(home)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(configFile(home))).mode & 0o777).toBe(0o700);
    expect(stored(home)).toEqual({ environments: { production: { apiKey: 's3cret-key', apiKeyOrigin: BASE, baseUrl: `${BASE_URL}/` } } });
  });

  test('--verbose names where the base URL and the key came from (never the key)', async () => {
    const fake = at(tempConfigHome(), { globals: { verbose: true }, stdin: 's3cret-key\n', env: { PETSTORE_BASE_URL: BASE_URL } });
    keyCheck(fake);
    const r = await ran(fake, LOGIN, WITH_TOKEN);
    expect(r.error).toBeUndefined();
    expect(r.stderr.split('\n')[0]).toBe(
      `* environment production, base URL ${BASE_URL}/ (from PETSTORE_BASE_URL), key from standard input`,
    );
    expect(r.stderr).not.toContain('s3cret-key');
  });

  test('a key the service rejects is not stored: exit 4', async () => {
    const home = tempConfigHome();
    const fake = at(home, { globals: { baseUrl: BASE_URL }, stdin: 'wrongkey' });
    keyCheck(fake, 401);
    expect(await ran(fake, LOGIN, WITH_TOKEN)).toMatchObject({
      stdout: '',
      stderr: '',
      error: {
        exitCode: 4,
        message: `${BASE} rejected the key (HTTP 401, code unauthorized); nothing was stored`,
        hint: 'Check the key, then log in again:\n  petstore auth login',
      },
    });
    expect(fake.requests.map((q) => q.authorization)).toEqual(['Bearer wrongkey']);
    expect(fs.existsSync(configFile(home)) ? fs.readFileSync(configFile(home), 'utf8') : '').not.toContain('wrongkey');
  });

  test('a service that cannot answer stores nothing (exit 1) unless --skip-verify, which sends nothing', async () => {
    const home = tempConfigHome();
    const options = { globals: { baseUrl: 'http://127.0.0.1:9/v1', retries: 0 }, stdin: 'k1' };
    const fake = at(home, options);
    // What undici throws for a refused connection (test/faults.test.ts refuses a real one).
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    fake.agent.get('http://127.0.0.1:9').intercept({ method: 'GET', path: '/v1/pets?limit=1' }).replyWithError(refused);
    expect(await ran(fake, LOGIN, WITH_TOKEN)).toMatchObject({
      stderr: '',
      error: {
        exitCode: 1,
        message: 'cannot check the key: cannot reach 127.0.0.1:9: ECONNREFUSED; nothing was stored',
        // The base URL and where it came from, as every error of a service out of reach says them (settings.ts's unreachableHint).
        hint:
          'Is the service running at http://127.0.0.1:9/v1/?\nThe base URL is from --base-url.\n' +
          'Try again, or store it unchecked with --skip-verify.',
      },
    });
    expect(fs.existsSync(configFile(home)) ? fs.readFileSync(configFile(home), 'utf8') : '').not.toContain('k1');
    const skipped = at(home, options);
    const r = await ran(skipped, LOGIN, { flags: { withToken: true, skipVerify: true } });
    expect(r.error).toBeUndefined();
    expect(r.stderr).toContain('Logged in to production (http://127.0.0.1:9, key not checked (--skip-verify))');
    expect(skipped.requests).toEqual([]);
    expect(stored(home).environments.production).toEqual({
      apiKey: 'k1',
      apiKeyOrigin: 'http://127.0.0.1:9',
      baseUrl: 'http://127.0.0.1:9/v1/',
    });
  });

  test('without a base URL there is nothing to check the key against: exit 2, nothing read or stored', async () => {
    expect(await ran(at(tempConfigHome(), { stdin: 'k' }), LOGIN, WITH_TOKEN)).toMatchObject({
      stdout: '',
      stderr: '',
      error: {
        exitCode: 2,
        message: 'no base URL configured for environment "production"',
        hint: 'Set one (or pass --base-url, or set PETSTORE_BASE_URL):\n  petstore config set base-url <url>',
      },
    });
  });

  test('a new environment is created and said so; an unknown one elsewhere gets a suggestion', async () => {
    const home = tempConfigHome();
    const login = at(home, { globals: { env: 'local', baseUrl: 'http://127.0.0.1:4010/v1' }, stdin: 'k' });
    login.agent.get('http://127.0.0.1:4010').intercept({ method: 'GET', path: '/v1/pets?limit=1' }).reply(200, '[]', JSON_TYPE);
    expect((await ran(login, LOGIN, WITH_TOKEN)).stderr.split('\n')[0]).toBe('Created environment local');
    const typo = at(home, { globals: { env: 'locl' }, env: { PETSTORE_API_KEY: 'k' } });
    expect(await ran(typo, LIST)).toMatchObject({
      stdout: '',
      stderr: '',
      error: {
        exitCode: 2,
        message: 'unknown environment "locl" (from --env); did you mean "local"?',
        hint: 'Known environments: production, staging, local. Create one with:\n  petstore config set base-url <url> --env locl',
      },
    });
    const variable = await ran(at(home, { env: { PETSTORE_ENV: 'stagin' } }), STATUS);
    expect(variable.error).toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('unknown environment "stagin" (from PETSTORE_ENV); did you mean "staging"?'),
    });
  });

  test('login with a piped stdin and without --with-token exits 2, says to add --with-token, and reads nothing', async () => {
    const home = tempConfigHome();
    expect(await ran(at(home, { globals: { baseUrl: BASE_URL }, stdin: 'demo\n' }), LOGIN)).toMatchObject({
      stdout: '',
      stderr: '',
      error: {
        exitCode: 2,
        message: 'standard input is not a terminal, so there is no prompt for the key',
        hint: `To read the key from standard input, add --with-token:\n  petstore auth login --base-url ${BASE_URL} --with-token`,
      },
    });
    expect(fs.existsSync(path.join(home, 'petstore'))).toBe(false);
  });

  test('the hint of a piped login quotes a --base-url the shell would split, so that its command runs as it is copied', async () => {
    const baseUrl = `${BASE}/my pets/v1`;
    const r = await ran(at(tempConfigHome(), { globals: { baseUrl }, stdin: 'demo\n' }), LOGIN);
    expect(r.error).toMatchObject({
      exitCode: 2,
      hint: `To read the key from standard input, add --with-token:\n  petstore auth login --base-url '${baseUrl}' --with-token`,
    });
  });

  test.each([['\n'], ['two words']])('login refuses key %j without echoing it or sending it', async (key) => {
    const fake = at(tempConfigHome(), { globals: { baseUrl: BASE_URL }, stdin: key });
    const r = await ran(fake, LOGIN, WITH_TOKEN);
    expect(r.error).toMatchObject({ exitCode: 2 });
    expect(`${r.error?.message} ${r.error?.hint} ${r.stderr}`).not.toContain('words');
    expect(fake.requests).toEqual([]);
  });
});

describe('a stored key goes only to its origin', () => {
  const OTHER = 'http://127.0.0.1:9/v1';
  const OTHER_ORIGIN_HINT =
    'To use http://127.0.0.1:9, log in for it:\n  petstore auth login --base-url http://127.0.0.1:9/v1/\n' +
    'Or keep a separate environment for it (or set PETSTORE_API_KEY):\n' +
    '  petstore config set base-url http://127.0.0.1:9/v1/ --env <name>\n  petstore auth login --env <name>';

  test.each<[string, FakeClientOptions]>([
    ['--base-url', { globals: { baseUrl: OTHER } }],
    ['PETSTORE_BASE_URL', { env: { PETSTORE_BASE_URL: OTHER } }],
  ])('another origin through %s: exit 4, nothing sent, the key origin and the fix named', async (_how, options) => {
    const fake = at(await loggedIn(), options);
    expect(await ran(fake, LIST)).toMatchObject({
      stdout: '',
      stderr: '',
      error: {
        exitCode: 4,
        message: `the stored API key of environment "production" belongs to ${BASE}, not to http://127.0.0.1:9; nothing was sent`,
        hint: OTHER_ORIGIN_HINT,
      },
    });
    expect(fake.requests).toEqual([]);
  });

  test('with --json the error object carries the same fix as its hint', async () => {
    const r = await ran(at(await loggedIn(), { globals: { json: true, baseUrl: OTHER } }), LIST);
    expect(r).toMatchObject({ stdout: '', stderr: '', error: { exitCode: 4 } });
    expect(r.error!.report()).toEqual({
      code: 'key_for_other_origin',
      message: `the stored API key of environment "production" belongs to ${BASE}, not to http://127.0.0.1:9; nothing was sent`,
      status: null,
      hint: OTHER_ORIGIN_HINT,
    });
  });

  test('a base URL set after login to another origin: config set warns, the next command sends nothing', async () => {
    const home = await loggedIn();
    const set = await ran(at(home), SET, { arguments: ['base-url', 'https://other.example/v1'] });
    expect(set.stderr).toBe(
      wrapped(
        'Set base-url of production to https://other.example/v1/\n' +
          `warning: the stored key of production belongs to ${BASE} and will not be sent to https://other.example\nLog in again:\n  petstore auth login\n`,
      ),
    );
    const get = at(home);
    expect((await get.main(['get', '1'])).code).toBe(4);
    expect(get.requests).toEqual([]);
  });

  test("PETSTORE_API_KEY is the caller's choice and is sent to any base URL", async () => {
    const fake = at(await loggedIn(), { globals: { baseUrl: 'https://other.example/v1' }, env: { PETSTORE_API_KEY: 'env-key' } });
    fake.agent.get('https://other.example').intercept({ method: 'GET', path: '/v1/pets?limit=20' }).reply(200, '[]', JSON_TYPE);
    expect((await ran(fake, LIST)).error).toBeUndefined();
    expect(fake.sent.map((q) => [q.origin, q.headers.authorization])).toEqual([['https://other.example', 'Bearer env-key']]);
  });

  test('the same origin is used, with the key', async () => {
    const fake = at(await loggedIn());
    fake.answer('GET', '/v1/pets?limit=20', 200, '[]');
    expect((await ran(fake, LIST)).error).toBeUndefined();
    expect(fake.requests.map((q) => q.authorization)).toEqual(['Bearer s3cret-key']);
  });

  test('a key stored before origins were recorded belongs to the stored base URL', async () => {
    const home = tempConfigHome();
    fs.mkdirSync(path.join(home, 'petstore'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(configFile(home), JSON.stringify({ environments: { production: { baseUrl: `${BASE_URL}/`, apiKey: 'old-key' } } }), {
      mode: 0o600,
    });
    const fake = at(home);
    fake.answer('GET', '/v1/pets?limit=20', 200, '[]');
    expect((await ran(fake, LIST)).error).toBeUndefined();
    expect(fake.requests.map((q) => q.authorization)).toEqual(['Bearer old-key']);
    expect((await ran(at(home, { globals: { baseUrl: 'https://other.example/v1' } }), LIST)).error).toMatchObject({ exitCode: 4 });
  });
});

describe('auth status, token and logout', () => {
  test('status checks the key with the service: valid exit 0, never printing the key', async () => {
    const home = await loggedIn();
    const fake = at(home);
    keyCheck(fake);
    expect(await ran(fake, STATUS)).toEqual({
      stdout:
        'Environment\tproduction\nEnvironment source\tdefault\n' +
        `Base URL\t${BASE_URL}/\nBase URL source\t${configFile(home)}\n` +
        `API key\tset\nAPI key source\t${configFile(home)}\nAPI key origin\t${BASE}\nCheck\tvalid\n`,
      stderr: '',
      error: undefined,
    });
    expect(fake.requests.map((q) => q.authorization)).toEqual(['Bearer s3cret-key']);
  });

  test('status: a rejected key exits 4, an unreachable service 1; --json keeps the record on stdout', async () => {
    const home = await loggedIn();
    const json = at(home, { globals: { json: true } });
    keyCheck(json, 401);
    const rejected = await ran(json, STATUS);
    expect(rejected.error).toMatchObject({ exitCode: 4 });
    expect(JSON.parse(rejected.stdout)).toMatchObject({
      environment: 'production',
      apiKey: 'set',
      apiKeyOrigin: BASE,
      check: 'rejected (HTTP 401)',
    });
    expect(rejected.error!.report()).toEqual({
      code: 'invalid_api_key',
      message: 'the service rejected the key of production (HTTP 401)',
      status: 401,
      hint: 'Log in again:\n  petstore auth login',
    });
    const plain = at(home, { globals: { retries: 0 } });
    keyCheck(plain, 500);
    const down = await ran(plain, STATUS);
    expect(down.error).toMatchObject({ exitCode: 1 });
    expect(down.stdout).toContain('Check\tnot checked: service unreachable\n');
  });

  test('status without a key exits 4; with PETSTORE_API_KEY it says where the key comes from', async () => {
    const none = await ran(at(tempConfigHome(), { env: { PETSTORE_BASE_URL: BASE_URL } }), STATUS);
    expect(none.error).toMatchObject({ exitCode: 4 });
    expect(none.stdout).toContain('API key\tnot set\n');
    const fake = at(tempConfigHome(), { env: { PETSTORE_API_KEY: 'env-secret', PETSTORE_BASE_URL: BASE_URL } });
    keyCheck(fake);
    const env = await ran(fake, STATUS);
    expect(env.error).toBeUndefined();
    expect(env.stdout).toContain('API key source\tPETSTORE_API_KEY\nAPI key origin\tany (PETSTORE_API_KEY)\n');
    expect(env.stdout + env.stderr).not.toContain('env-secret');
    expect(fake.requests.map((q) => q.authorization)).toEqual(['Bearer env-secret']);
  });

  test('token prints the key in effect for scripts; another origin or no key exits 4', async () => {
    const home = await loggedIn();
    expect(await ran(at(home), TOKEN)).toEqual({ stdout: 's3cret-key\n', stderr: '', error: undefined });
    expect((await ran(at(home, { globals: { baseUrl: 'https://other.example/v1' } }), TOKEN)).error).toMatchObject({ exitCode: 4 });
    expect((await ran(at(tempConfigHome()), TOKEN)).error).toMatchObject({ exitCode: 4 });
  });

  test('logout removes the key and its origin; the environment keeps its base URL', async () => {
    const home = await loggedIn();
    expect(await ran(at(home), LOGOUT)).toEqual({
      stdout: '',
      stderr: wrapped(`Logged out of production: key removed from ${configFile(home)}\n`),
      error: undefined,
    });
    expect(stored(home)).toEqual({ environments: { production: { baseUrl: `${BASE_URL}/` } } });
    expect((await ran(at(home), LOGOUT)).stderr).toBe('No key stored for production; nothing to do.\n');
  });
});
