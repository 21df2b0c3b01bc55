import fs from 'node:fs';
import path from 'node:path';
import nock from 'nock';
import { describe, expect, test } from 'vitest';
import { BASE, BASE_URL, run, tempConfigHome } from './helpers.js';

function configFile(home: string): string {
  return path.join(home, 'petstore', 'config.json');
}

describe('petstore auth', () => {
  test('login --with-token stores the key (file 0600, folder 0700), status reports it without showing it, logout removes it', async () => {
    const home = tempConfigHome();
    const login = await run(['auth', 'login', '--with-token'], { configHome: home, stdin: 's3cret-key\n' });
    expect(login).toEqual({ code: 0, stdout: '', stderr: `Logged in to production: key stored in ${configFile(home)}\n`, unmatched: [] });
    expect(fs.statSync(configFile(home)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(configFile(home))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(fs.readFileSync(configFile(home), 'utf8'))).toEqual({ environments: { production: { apiKey: 's3cret-key' } } });

    await run(['config', 'set', 'base-url', BASE_URL], { configHome: home });
    const status = await run(['auth', 'status'], { configHome: home });
    expect(status).toEqual({
      code: 0,
      stdout:
        'Environment: production (default)\n' +
        `Base URL:    ${BASE_URL}/ (from ${configFile(home)})\n` +
        `API key:     set (from ${configFile(home)})\n`,
      stderr: '',
      unmatched: [],
    });

    nock(BASE, { reqheaders: { authorization: 'Bearer s3cret-key' } }).get('/v1/pets').query(true).reply(200, []);
    expect((await run(['list'], { configHome: home })).code).toBe(0);

    const logout = await run(['auth', 'logout'], { configHome: home });
    expect(logout.stderr).toBe(`Logged out of production: key removed from ${configFile(home)}\n`);
    expect(fs.readFileSync(configFile(home), 'utf8')).not.toContain('s3cret-key');
    const after = await run(['auth', 'status', '--json'], { configHome: home });
    expect(after.code).toBe(4);
    expect(JSON.parse(after.stdout)).toMatchObject({ environment: 'production', apiKeySet: false, apiKeySource: null });
  });

  test('the key of one environment is not used by another', async () => {
    const home = tempConfigHome();
    await run(['auth', 'login', '--with-token', '--env', 'staging'], { configHome: home, stdin: 'stage-key' });
    const r = await run(['list', '--base-url', BASE_URL], { configHome: home });
    expect(r.code).toBe(4);
    nock(BASE, { reqheaders: { authorization: 'Bearer stage-key' } }).get('/v1/pets').query(true).reply(200, []);
    const staged = await run(['list', '--base-url', BASE_URL], { configHome: home, env: { PETSTORE_ENV: 'staging' } });
    expect(staged.code).toBe(0);
  });

  test('status says the key comes from PETSTORE_API_KEY, never printing it', async () => {
    const r = await run(['auth', 'status'], { env: { PETSTORE_API_KEY: 'env-secret', PETSTORE_BASE_URL: BASE_URL } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('API key:     set (from PETSTORE_API_KEY)');
    expect(r.stdout).toContain(`Base URL:    ${BASE_URL}/ (from PETSTORE_BASE_URL)`);
    expect(r.stdout + r.stderr).not.toContain('env-secret');
  });

  test('login without a terminal and without --with-token exits 2 and says how to pipe the key', async () => {
    const r = await run(['auth', 'login']);
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: no terminal to prompt for the key on\nPipe it instead: petstore auth login --with-token < key.txt\n',
    });
  });

  test.each([['\n'], ['two words']])('login refuses key %j without echoing it', async (key) => {
    const home = tempConfigHome();
    const r = await run(['auth', 'login', '--with-token'], { configHome: home, stdin: key });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('words');
    expect(fs.existsSync(configFile(home)) && fs.readFileSync(configFile(home), 'utf8')).not.toContain('words');
  });
});

describe('petstore config', () => {
  test('set, get, list, unset and path of base-url per environment', async () => {
    const home = tempConfigHome();
    expect(await run(['config', 'set', 'base-url', 'https://staging.example.com/v1', '--env', 'staging'], { configHome: home })).toEqual({
      code: 0,
      stdout: '',
      stderr: 'Set base-url of staging to https://staging.example.com/v1/\n',
      unmatched: [],
    });
    expect((await run(['config', 'get', 'base-url', '--env', 'staging'], { configHome: home })).stdout).toBe('https://staging.example.com/v1/\n');
    await run(['config', 'set', 'base-url', 'http://127.0.0.1:4010/v1', '--env', 'local'], { configHome: home });
    expect((await run(['config', 'list'], { configHome: home })).stdout).toBe(
      'production\tbase-url=\tapi-key=none\n' +
        'staging\tbase-url=https://staging.example.com/v1/\tapi-key=none\n' +
        'local\tbase-url=http://127.0.0.1:4010/v1/\tapi-key=none\n',
    );
    expect((await run(['config', 'path'], { configHome: home })).stdout).toBe(`${configFile(home)}\n`);
    await run(['config', 'unset', 'base-url', '--env', 'staging'], { configHome: home });
    const missing = await run(['config', 'get', 'base-url', '--env', 'staging'], { configHome: home });
    expect(missing).toMatchObject({ code: 1, stdout: '', stderr: 'error: base-url is not set for environment "staging"\n' });
  });

  test('refuses an unknown key and a plain http URL to a remote host, exit 2', async () => {
    const home = tempConfigHome();
    const key = await run(['config', 'set', 'colour', 'red'], { configHome: home });
    expect(key).toMatchObject({ code: 2, stderr: 'error: unknown config key "colour" (allowed: base-url)\n' });
    const http = await run(['config', 'set', 'base-url', 'http://example.com/v1'], { configHome: home });
    expect(http.code).toBe(2);
    expect(http.stderr).toContain('the API key would be sent in plain text');
    expect(fs.existsSync(configFile(home)) && fs.readFileSync(configFile(home), 'utf8')).not.toContain('example.com');
  });

  test('a corrupted config file exits 2 naming the file and the fix', async () => {
    const home = tempConfigHome();
    fs.mkdirSync(path.join(home, 'petstore'), { recursive: true });
    fs.writeFileSync(configFile(home), '{"environments": {', { mode: 0o600 });
    const r = await run(['list'], { configHome: home });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: cannot use config file ${configFile(home)}: it is not valid JSON.\n` +
        `Fix or delete it (\`rm ${configFile(home)}\`), then set it up again with \`petstore config set\` and \`petstore auth login\`.\n`,
    );
  });

  test('a config file readable by others is repaired to 0600 with a warning', async () => {
    const home = tempConfigHome();
    await run(['config', 'set', 'base-url', BASE_URL], { configHome: home });
    fs.chmodSync(configFile(home), 0o644);
    const r = await run(['config', 'path'], { configHome: home });
    expect(r.stderr).toBe(`warning: ${configFile(home)} was mode 0644; changed to 0600\n`);
    expect(fs.statSync(configFile(home)).mode & 0o777).toBe(0o600);
  });
});
