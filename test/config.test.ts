// config list|get|set|unset|path, and a config file that is never written
// through a link, another user's file or a folder others may write to.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { BASE_URL, run, tempConfigHome, runsAsRoot, unwrapped, wrapped } from './helpers.js';

const configFile = (home: string) => path.join(home, 'petstore', 'config.json');

describe('petstore config', () => {
  test('set, get, list, unset and path of base-url per environment; a new environment is said to be created', async () => {
    const home = tempConfigHome();
    expect(await run(['config', 'set', 'base-url', 'https://staging.example.com/v1', '--env', 'staging'], { configHome: home })).toEqual({
      code: 0,
      stdout: '',
      stderr: 'Set base-url of staging to https://staging.example.com/v1/\n',
      unmatched: [],
    });
    expect((await run(['config', 'get', 'base-url', '--env', 'staging'], { configHome: home })).stdout).toBe(
      'https://staging.example.com/v1/\n',
    );
    const local = await run(['config', 'set', 'base-url', 'http://127.0.0.1:4010/v1', '--env', 'local'], { configHome: home });
    expect(local.stderr).toBe('Created environment local\nSet base-url of local to http://127.0.0.1:4010/v1/\n');
    expect((await run(['config', 'list'], { configHome: home })).stdout).toBe(
      'production\t-\tfalse\t-\nstaging\thttps://staging.example.com/v1/\tfalse\t-\nlocal\thttp://127.0.0.1:4010/v1/\tfalse\t-\n',
    );
    expect(JSON.parse((await run(['config', 'list', '--json'], { configHome: home })).stdout)[1]).toEqual({
      environment: 'staging',
      baseUrl: 'https://staging.example.com/v1/',
      apiKeyStored: false,
      apiKeyOrigin: null,
    });
    expect((await run(['config', 'path'], { configHome: home })).stdout).toBe(`${configFile(home)}\n`);
    expect(await run(['config', 'unset', 'base-url', '--env', 'staging'], { configHome: home })).toEqual({
      code: 0,
      stdout: '',
      stderr: 'Unset base-url of staging\n',
      unmatched: [],
    });
    // Again: nothing was set, and it says so (it said "Unset" each time).
    expect(await run(['config', 'unset', 'base-url', '--env', 'staging'], { configHome: home })).toEqual({
      code: 0,
      stdout: '',
      stderr: 'base-url is not set for staging; nothing to do.\n',
      unmatched: [],
    });
    const missing = await run(['config', 'get', 'base-url', '--env', 'staging'], { configHome: home });
    expect(missing).toMatchObject({ code: 1, stdout: '', stderr: 'error: base-url is not set for environment "staging"\n' });
  });

  test('config list on a terminal is a table', async () => {
    const home = tempConfigHome();
    await run(['config', 'set', 'base-url', 'https://s.example/v1', '--env', 'staging'], { configHome: home });
    const r = await run(['config', 'list', '--no-color'], { configHome: home, stdoutIsTTY: true });
    expect(r.stdout.split('\n')[1]).toBe('│ ENVIRONMENT │ BASE URL              │ API KEY STORED │ API KEY ORIGIN │');
  });

  test('a base URL without /v1 is stored with a warning', async () => {
    const home = tempConfigHome();
    const r = await run(['config', 'set', 'base-url', 'http://127.0.0.1:4010'], { configHome: home });
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr: wrapped(
        'Set base-url of production to http://127.0.0.1:4010/\n' +
          "warning: http://127.0.0.1:4010/ does not end in /v1; the interface's base addresses do (as in https://petstore.example.com/v1)\n",
      ),
      unmatched: [],
    });
  });

  test('refuses an unknown key and a plain http URL to a remote host, exit 2', async () => {
    const home = tempConfigHome();
    const key = await run(['config', 'set', 'colour', 'red'], { configHome: home });
    expect(key).toMatchObject({ code: 2, stderr: 'error: unknown config key "colour" (allowed: base-url)\n' });
    const http = await run(['config', 'set', 'base-url', 'http://example.com/v1'], { configHome: home });
    expect(http.code).toBe(2);
    expect(unwrapped(http.stderr)).toContain('the API key would be sent in plain text');
    expect(fs.existsSync(configFile(home)) && fs.readFileSync(configFile(home), 'utf8')).not.toContain('example.com');
  });

  test('a corrupted config file exits 2 naming the file and the fix', async () => {
    const home = tempConfigHome();
    fs.mkdirSync(path.join(home, 'petstore'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(configFile(home), '{"environments": {', { mode: 0o600 });
    const r = await run(['list'], { configHome: home });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      wrapped(
        `error: cannot use config file ${configFile(home)}: it is not valid JSON.\n` +
          'Fix or delete it, then set it up again:\n' +
          `  rm ${configFile(home)}\n  petstore config set base-url <url>\n  petstore auth login\n`,
      ),
    );
  });

  test("a corrupted config file in a folder whose name has a space and a quote: the hint's rm quotes it", async () => {
    const home = path.join(tempConfigHome(), "Bob's config");
    fs.mkdirSync(path.join(home, 'petstore'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(configFile(home), '{', { mode: 0o600 });
    const r = await run(['list'], { configHome: home });
    expect(r.code).toBe(2);
    // Its continuations joined, as the shell joins the lines pasted.
    expect(r.stderr.replace(/ \\\n +/g, ' ')).toContain(`\n  rm '${configFile(home).replace("'", `'\\''`)}'\n`);
  });

  test.each([
    ['[1]', 'it does not hold a JSON object'],
    ['{"environments": []}', '"environments" is not an object'],
    ['{"environments": {"staging": {"baseUrl": 1}}}', 'environments.staging is not an object of strings'],
    ['{"environments": {"staging": "x"}}', 'environments.staging is not an object of strings'],
  ])('a config file %s is refused by its shape, exit 2', async (text, why) => {
    const home = tempConfigHome();
    fs.mkdirSync(path.join(home, 'petstore'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(configFile(home), text, { mode: 0o600 });
    const r = await run(['config', 'list'], { configHome: home });
    expect(r.code).toBe(2);
    expect(unwrapped(r.stderr).split('\n')[0]).toBe(`error: cannot use config file ${configFile(home)}: ${why}`);
  });

  test('a config file saved with a byte order mark and keys of its own is read, and kept by a write', async () => {
    const home = tempConfigHome();
    fs.mkdirSync(path.join(home, 'petstore'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(configFile(home), '\uFEFF{"note": "mine", "environments": {"staging": {"baseUrl": "https://s.example/v1/"}}}', {
      mode: 0o600,
    });
    expect((await run(['config', 'get', 'base-url', '--env', 'staging'], { configHome: home })).stdout).toBe('https://s.example/v1/\n');
    await run(['config', 'set', 'base-url', 'https://p.example/v1'], { configHome: home });
    expect(JSON.parse(fs.readFileSync(configFile(home), 'utf8'))).toEqual({
      note: 'mine',
      environments: { staging: { baseUrl: 'https://s.example/v1/' }, production: { baseUrl: 'https://p.example/v1/' } },
    });
    expect(fs.statSync(configFile(home)).mode & 0o777).toBe(0o600);
  });

  test('a config file readable by others is repaired to 0600 with a warning', async () => {
    const home = tempConfigHome();
    await run(['config', 'set', 'base-url', BASE_URL], { configHome: home });
    fs.chmodSync(configFile(home), 0o644);
    const r = await run(['config', 'path'], { configHome: home });
    expect(r.stderr).toBe(wrapped(`warning: ${configFile(home)} was mode 0644; changed to 0600\n`));
    expect(fs.statSync(configFile(home)).mode & 0o777).toBe(0o600);
  });
});

describe('a config file that is not safely ours is refused, and nothing is written through it', () => {
  const HINT = 'Point XDG_CONFIG_HOME at a folder of your own (for example ~/.config), or fix the path.\n';

  test("config.json a symbolic link to another program's file: exit 2, that file untouched", async () => {
    const home = tempConfigHome();
    const other = path.join(tempConfigHome(), 'other.json');
    fs.writeFileSync(other, '{"theirs":true}', { mode: 0o644 });
    fs.mkdirSync(path.join(home, 'petstore'), { mode: 0o700 });
    fs.symlinkSync(other, configFile(home));
    const r = await run(['auth', 'login', '--with-token', '--skip-verify', '--base-url', BASE_URL], { configHome: home, stdin: 'secret' });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: wrapped(
        `error: refusing to use ${configFile(home)} for the config: it is a symbolic link; petstore does not write through links\n${HINT}`,
      ),
      unmatched: [],
    });
    expect(fs.readFileSync(other, 'utf8')).toBe('{"theirs":true}');
    expect(fs.statSync(other).mode & 0o777).toBe(0o644);
  });

  test('the config folder a symbolic link: exit 2', async () => {
    const home = tempConfigHome();
    fs.symlinkSync(tempConfigHome(), path.join(home, 'petstore'));
    const r = await run(['config', 'set', 'base-url', BASE_URL], { configHome: home });
    expect(r.code).toBe(2);
    expect(unwrapped(r.stderr)).toContain(`refusing to use ${path.join(home, 'petstore')} for the config: it is a symbolic link`);
  });

  test('a config folder inside a folder others may write to: exit 2', async () => {
    const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-shared-'));
    fs.chmodSync(shared, 0o777);
    const r = await run(['config', 'set', 'base-url', BASE_URL], { configHome: shared });
    expect(r.code).toBe(2);
    expect(unwrapped(r.stderr)).toContain(`refusing to use ${shared} for the config: other users may write to it`);
    expect(fs.existsSync(path.join(shared, 'petstore'))).toBe(false);
  });

  test.runIf(runsAsRoot('a config file of another user', 'test/config.test.ts'))(
    'a config file owned by another user: exit 2, not rewritten',
    async () => {
      const home = tempConfigHome();
      await run(['config', 'set', 'base-url', BASE_URL], { configHome: home });
      fs.chownSync(configFile(home), 4242, 4242);
      const before = fs.readFileSync(configFile(home), 'utf8');
      const r = await run(['config', 'set', 'base-url', 'https://other.example/v1'], { configHome: home });
      expect(r.code).toBe(2);
      expect(unwrapped(r.stderr)).toContain(`refusing to use ${configFile(home)} for the config: it belongs to another user (uid 4242)`);
      expect(fs.readFileSync(configFile(home), 'utf8')).toBe(before);
    },
  );
});

describe('config list on a narrow terminal never cuts a value', () => {
  async function configured(): Promise<string> {
    const home = tempConfigHome();
    await run(['config', 'set', 'base-url', 'https://petstore-staging.example.com/v1', '--env', 'staging'], { configHome: home });
    await run(['config', 'set', 'base-url', 'http://127.0.0.1:4010/v1', '--env', 'local'], { configHome: home });
    return home;
  }

  test('at 60 columns the cells wrap (headers at spaces, URLs after / or .), rows apart', async () => {
    const home = await configured();
    const r = await run(['config', 'list', '--no-color'], { configHome: home, stdoutIsTTY: true, columns: 60 });
    expect(r.stdout).toBe(
      [
        '┌─────────────┬──────────────────────┬─────────┬─────────┐',
        '│ ENVIRONMENT │ BASE URL             │ API KEY │ API KEY │',
        '│             │                      │ STORED  │ ORIGIN  │',
        '├─────────────┼──────────────────────┼─────────┼─────────┤',
        '│ production  │ -                    │ false   │ -       │',
        '├─────────────┼──────────────────────┼─────────┼─────────┤',
        '│ staging     │ https://petstore-    │ false   │ -       │',
        '│             │ staging.example.com/ │         │         │',
        '│             │ v1/                  │         │         │',
        '├─────────────┼──────────────────────┼─────────┼─────────┤',
        '│ local       │ http://127.0.0.      │ false   │ -       │',
        '│             │ 1:4010/v1/           │         │         │',
        '└─────────────┴──────────────────────┴─────────┴─────────┘',
        '',
      ].join('\n'),
    );
  });

  test('too narrow for the table even wrapped: key/value lines, values wrapped under themselves; wide enough: one line a row; piped: whole values', async () => {
    const home = await configured();
    const narrow = await run(['config', 'list', '--no-color'], { configHome: home, stdoutIsTTY: true, columns: 40 });
    expect(narrow.stdout).toBe(
      [
        'Environment:    production',
        'Base URL:       -',
        'API key stored: false',
        'API key origin: -',
        '',
        'Environment:    staging',
        'Base URL:       https://petstore-',
        '                staging.example.com/v1/',
        'API key stored: false',
        'API key origin: -',
        '',
        'Environment:    local',
        'Base URL:       http://127.0.0.1:4010/',
        '                v1/',
        'API key stored: false',
        'API key origin: -',
        '',
      ].join('\n'),
    );
    const wide = await run(['config', 'list', '--no-color'], { configHome: home, stdoutIsTTY: true, columns: 120 });
    expect(wide.stdout.split('\n')[4]).toBe('│ staging     │ https://petstore-staging.example.com/v1/ │ false          │ -              │');
    const piped = await run(['config', 'list'], { configHome: home });
    expect(piped.stdout).toContain('staging\thttps://petstore-staging.example.com/v1/\tfalse\t-\n');
  });
  test('a terminal that reports 0 columns (size unknown, as under script) is taken as COLUMNS wide, else 80, never as 0', async () => {
    const home = await configured();
    const at80 = await run(['config', 'list', '--no-color'], { configHome: home, stdoutIsTTY: true, columns: 80 });
    const unknown = await run(['config', 'list', '--no-color'], { configHome: home, stdoutIsTTY: true, columns: 0 });
    expect(unknown).toEqual(at80);
    const fromEnv = await run(['config', 'list', '--no-color'], {
      configHome: home,
      stdoutIsTTY: true,
      columns: 0,
      env: { COLUMNS: '40' },
    });
    expect(fromEnv.stdout.split('\n').slice(5, 7)).toEqual(['Environment:    staging', 'Base URL:       https://petstore-']);
  });
});
