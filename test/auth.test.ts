// auth login (checked against the service, stored with its origin), status,
// token and logout; a stored key goes only to the origin it was stored for.
import fs from 'node:fs';
import path from 'node:path';
import nock from 'nock';
import { describe, expect, test } from 'vitest';
import { BASE, BASE_URL, errorBody, run, tempConfigHome, wrapped } from './helpers.js';

const configFile = (home: string) => path.join(home, 'petstore', 'config.json');
const stored = (home: string) => JSON.parse(fs.readFileSync(configFile(home), 'utf8'));

/** The one request `auth login` and `auth status` send to check a key. */
function keyCheck(key: string, status = 200) {
  return nock(BASE, { reqheaders: { authorization: `Bearer ${key}` } })
    .get('/v1/pets')
    .query({ limit: '1' })
    .reply(
      status,
      status === 200 ? [] : errorBody(status, status === 401 ? 'unauthorized' : 'internal', status === 401 ? 'invalid API key' : 'boom'),
    );
}

/** A config home logged in to BASE_URL with `key`. */
async function loggedIn(key = 's3cret-key'): Promise<string> {
  const home = tempConfigHome();
  keyCheck(key);
  const r = await run(['auth', 'login', '--with-token', '--base-url', BASE_URL], { configHome: home, stdin: `${key}\n` });
  expect(r.code).toBe(0);
  return home;
}

describe('auth login', () => {
  test('checks the key with GET /pets?limit=1, then stores it with its origin (file 0600, folder 0700)', async () => {
    const home = tempConfigHome();
    keyCheck('s3cret-key');
    const r = await run(['auth', 'login', '--with-token', '--base-url', BASE_URL], { configHome: home, stdin: 's3cret-key\n' });
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr: wrapped(
        `Base URL of production set to ${BASE_URL}/\nLogged in to production (${BASE}, key checked): key stored in ${configFile(home)}\n`,
      ),
      unmatched: [],
    });
    expect(fs.statSync(configFile(home)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(configFile(home))).mode & 0o777).toBe(0o700);
    expect(stored(home)).toEqual({ environments: { production: { apiKey: 's3cret-key', apiKeyOrigin: BASE, baseUrl: `${BASE_URL}/` } } });
  });

  test('--verbose names where the base URL and the key came from (never the key)', async () => {
    const home = tempConfigHome();
    keyCheck('s3cret-key');
    const r = await run(['auth', 'login', '--with-token', '--verbose'], {
      configHome: home,
      stdin: 's3cret-key\n',
      env: { PETSTORE_BASE_URL: BASE_URL },
    });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(
      `* environment production, base URL ${BASE_URL}/ (from PETSTORE_BASE_URL), key from standard input`,
    );
    expect(r.stderr).not.toContain('s3cret-key');
  });

  test('a key the service rejects is not stored: exit 4', async () => {
    const home = tempConfigHome();
    keyCheck('wrongkey', 401);
    const r = await run(['auth', 'login', '--with-token', '--base-url', BASE_URL], { configHome: home, stdin: 'wrongkey' });
    expect(r).toEqual({
      code: 4,
      stdout: '',
      stderr: wrapped(
        `error: ${BASE} rejected the key (HTTP 401, code unauthorized); nothing was stored\nCheck the key, then log in again:\n  petstore auth login\n`,
      ),
      unmatched: [],
    });
    expect(fs.existsSync(configFile(home)) ? fs.readFileSync(configFile(home), 'utf8') : '').not.toContain('wrongkey');
  });

  test('a service that cannot answer stores nothing (exit 1) unless --skip-verify, which sends nothing', async () => {
    const home = tempConfigHome();
    const args = ['auth', 'login', '--with-token', '--base-url', 'http://127.0.0.1:9/v1', '--retries', '0'];
    const r = await run(args, { configHome: home, stdin: 'k1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      wrapped(
        'error: cannot check the key: cannot reach 127.0.0.1:9: ECONNREFUSED; nothing was stored\nTry again, or store it unchecked with --skip-verify.\n',
      ),
    );
    expect(fs.existsSync(configFile(home)) ? fs.readFileSync(configFile(home), 'utf8') : '').not.toContain('k1');
    const skipped = await run([...args, '--skip-verify'], { configHome: home, stdin: 'k1' });
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain('Logged in to production (http://127.0.0.1:9, key not checked (--skip-verify))');
    expect(stored(home).environments.production).toEqual({
      apiKey: 'k1',
      apiKeyOrigin: 'http://127.0.0.1:9',
      baseUrl: 'http://127.0.0.1:9/v1/',
    });
  });

  test('without a base URL there is nothing to check the key against: exit 2, nothing read or stored', async () => {
    const r = await run(['auth', 'login', '--with-token'], { stdin: 'k' });
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr: wrapped(
        'error: no base URL configured for environment "production"\nSet one (or pass --base-url, or set PETSTORE_BASE_URL):\n  petstore config set base-url <url>\n',
      ),
    });
  });

  test('a new environment is created and said so; an unknown one elsewhere gets a suggestion', async () => {
    const home = tempConfigHome();
    nock('http://127.0.0.1:4010').get('/v1/pets').query({ limit: '1' }).reply(200, []);
    const r = await run(['auth', 'login', '--with-token', '--env', 'local', '--base-url', 'http://127.0.0.1:4010/v1'], {
      configHome: home,
      stdin: 'k',
    });
    expect(r.stderr.split('\n')[0]).toBe('Created environment local');
    const typo = await run(['list', '--env', 'locl'], { configHome: home, env: { PETSTORE_API_KEY: 'k' } });
    expect(typo).toEqual({
      code: 2,
      stdout: '',
      stderr: wrapped(
        'error: unknown environment "locl" (from --env); did you mean "local"?\nKnown environments: production, staging, local. Create one with:\n  petstore config set base-url <url> --env locl\n',
      ),
      unmatched: [],
    });
    const variable = await run(['auth', 'status'], { configHome: home, env: { PETSTORE_ENV: 'stagin' } });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toContain('error: unknown environment "stagin" (from PETSTORE_ENV); did you mean "staging"?');
  });

  test('login with a piped stdin and without --with-token exits 2, says to add --with-token, and reads nothing', async () => {
    const home = tempConfigHome();
    const r = await run(['auth', 'login', '--base-url', BASE_URL], { stdin: 'demo\n', configHome: home });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: wrapped(
        'error: standard input is not a terminal, so there is no prompt for the key\n' +
          `To read the key from standard input, add --with-token:\n  petstore auth login --base-url ${BASE_URL} --with-token\n`,
      ),
      unmatched: [],
    });
    expect(fs.existsSync(path.join(home, 'petstore'))).toBe(false);
  });

  test.each([['\n'], ['two words']])('login refuses key %j without echoing it or sending it', async (key) => {
    const home = tempConfigHome();
    const r = await run(['auth', 'login', '--with-token', '--base-url', BASE_URL], { configHome: home, stdin: key });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('words');
    expect(r.unmatched).toEqual([]);
  });
});

describe('a stored key goes only to its origin', () => {
  test.each([
    ['--base-url', (url: string) => ({ args: ['--base-url', url], env: {} })],
    ['PETSTORE_BASE_URL', (url: string) => ({ args: [], env: { PETSTORE_BASE_URL: url } })],
  ])('another origin through %s: exit 4, nothing sent, the key origin and the fix named', async (_how, make) => {
    const home = await loggedIn();
    const { args, env } = make('http://127.0.0.1:9/v1');
    const r = await run(['list', ...args], { configHome: home, env });
    expect(r).toEqual({
      code: 4,
      stdout: '',
      stderr: wrapped(
        `error: the stored API key of environment "production" belongs to ${BASE}, not to http://127.0.0.1:9; nothing was sent\n` +
          'To use http://127.0.0.1:9, log in for it:\n  petstore auth login --base-url http://127.0.0.1:9/v1/\n' +
          'Or keep a separate environment for it (or set PETSTORE_API_KEY):\n' +
          '  petstore config set base-url http://127.0.0.1:9/v1/ --env <name>\n  petstore auth login --env <name>\n',
      ),
      unmatched: [],
    });
  });

  test('with --json the error object carries the same fix as its hint', async () => {
    const home = await loggedIn();
    const r = await run(['list', '--json', '--base-url', 'http://127.0.0.1:9/v1'], { configHome: home });
    expect({ ...r, stderr: JSON.parse(r.stderr) }).toEqual({
      code: 4,
      stdout: '',
      stderr: {
        code: 'key_for_other_origin',
        message: `the stored API key of environment "production" belongs to ${BASE}, not to http://127.0.0.1:9; nothing was sent`,
        status: null,
        hint:
          'To use http://127.0.0.1:9, log in for it:\n  petstore auth login --base-url http://127.0.0.1:9/v1/\n' +
          'Or keep a separate environment for it (or set PETSTORE_API_KEY):\n' +
          '  petstore config set base-url http://127.0.0.1:9/v1/ --env <name>\n  petstore auth login --env <name>',
      },
      unmatched: [],
    });
    expect(r.stderr.split('\n')).toHaveLength(2);
  });

  test('a base URL set after login to another origin: config set warns, the next command sends nothing', async () => {
    const home = await loggedIn();
    const set = await run(['config', 'set', 'base-url', 'https://other.example/v1'], { configHome: home });
    expect(set.stderr).toBe(
      wrapped(
        'Set base-url of production to https://other.example/v1/\n' +
          `warning: the stored key of production belongs to ${BASE} and will not be sent to https://other.example\nLog in again:\n  petstore auth login\n`,
      ),
    );
    const r = await run(['get', '1'], { configHome: home });
    expect(r.code).toBe(4);
    expect(r.unmatched).toEqual([]);
  });

  test("PETSTORE_API_KEY is the caller's choice and is sent to any base URL", async () => {
    const home = await loggedIn();
    nock('https://other.example', { reqheaders: { authorization: 'Bearer env-key' } })
      .get('/v1/pets')
      .query(true)
      .reply(200, []);
    const r = await run(['list', '--base-url', 'https://other.example/v1'], { configHome: home, env: { PETSTORE_API_KEY: 'env-key' } });
    expect(r.code).toBe(0);
  });

  test('the same origin is used, with the key', async () => {
    const home = await loggedIn();
    nock(BASE, { reqheaders: { authorization: 'Bearer s3cret-key' } })
      .get('/v1/pets')
      .query(true)
      .reply(200, []);
    expect((await run(['list'], { configHome: home })).code).toBe(0);
  });

  test('a key stored before origins were recorded belongs to the stored base URL', async () => {
    const home = tempConfigHome();
    fs.mkdirSync(path.join(home, 'petstore'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(configFile(home), JSON.stringify({ environments: { production: { baseUrl: `${BASE_URL}/`, apiKey: 'old-key' } } }), {
      mode: 0o600,
    });
    nock(BASE, { reqheaders: { authorization: 'Bearer old-key' } })
      .get('/v1/pets')
      .query(true)
      .reply(200, []);
    expect((await run(['list'], { configHome: home })).code).toBe(0);
    expect((await run(['list', '--base-url', 'https://other.example/v1'], { configHome: home })).code).toBe(4);
  });
});

describe('auth status, token and logout', () => {
  test('status checks the key with the service: valid exit 0, never printing the key', async () => {
    const home = await loggedIn();
    keyCheck('s3cret-key');
    const r = await run(['auth', 'status'], { configHome: home });
    expect(r).toEqual({
      code: 0,
      stdout:
        'Environment\tproduction\nEnvironment source\tdefault\n' +
        `Base URL\t${BASE_URL}/\nBase URL source\t${configFile(home)}\n` +
        `API key\tset\nAPI key source\t${configFile(home)}\nAPI key origin\t${BASE}\nCheck\tvalid\n`,
      stderr: '',
      unmatched: [],
    });
  });

  test('status: a rejected key exits 4, an unreachable service 1; --json keeps the record on stdout', async () => {
    const home = await loggedIn();
    keyCheck('s3cret-key', 401);
    const rejected = await run(['auth', 'status', '--json'], { configHome: home });
    expect(rejected.code).toBe(4);
    expect(JSON.parse(rejected.stdout)).toMatchObject({
      environment: 'production',
      apiKey: 'set',
      apiKeyOrigin: BASE,
      check: 'rejected (HTTP 401)',
    });
    expect(rejected.stderr).toBe(
      '{"code":"invalid_api_key","message":"the service rejected the key of production (HTTP 401)","status":401,"hint":"Log in again:\\n  petstore auth login"}\n',
    );
    keyCheck('s3cret-key', 500);
    const down = await run(['auth', 'status', '--retries', '0'], { configHome: home });
    expect(down.code).toBe(1);
    expect(down.stdout).toContain('Check\tnot checked: service unreachable\n');
  });

  test('status without a key exits 4; with PETSTORE_API_KEY it says where the key comes from', async () => {
    const none = await run(['auth', 'status'], { env: { PETSTORE_BASE_URL: BASE_URL } });
    expect(none.code).toBe(4);
    expect(none.stdout).toContain('API key\tnot set\n');
    keyCheck('env-secret');
    const env = await run(['auth', 'status'], { env: { PETSTORE_API_KEY: 'env-secret', PETSTORE_BASE_URL: BASE_URL } });
    expect(env.code).toBe(0);
    expect(env.stdout).toContain('API key source\tPETSTORE_API_KEY\nAPI key origin\tany (PETSTORE_API_KEY)\n');
    expect(env.stdout + env.stderr).not.toContain('env-secret');
  });

  test('token prints the key in effect for scripts; another origin or no key exits 4', async () => {
    const home = await loggedIn();
    expect(await run(['auth', 'token'], { configHome: home })).toEqual({ code: 0, stdout: 's3cret-key\n', stderr: '', unmatched: [] });
    expect((await run(['auth', 'token', '--base-url', 'https://other.example/v1'], { configHome: home })).code).toBe(4);
    expect((await run(['auth', 'token'], { env: {} })).code).toBe(4);
  });

  test('logout removes the key and its origin; the environment keeps its base URL', async () => {
    const home = await loggedIn();
    const r = await run(['auth', 'logout'], { configHome: home });
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr: wrapped(`Logged out of production: key removed from ${configFile(home)}\n`),
      unmatched: [],
    });
    expect(stored(home)).toEqual({ environments: { production: { baseUrl: `${BASE_URL}/` } } });
    expect((await run(['auth', 'logout'], { configHome: home })).stderr).toBe('No key stored for production; nothing to do.\n');
  });
});
