// The V8 code cache of src/launch.ts, as bin/petstore.js and the standalone
// executable keep it: where it lives, when it is written, that what it holds
// does not depend on which run filled it first, and that a damaged cache, an
// unusable folder or one that others may write to never changes what a
// command does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRequire } from 'node:module';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { spawnPetstore, tempConfigHome, runsAsRoot } from './helpers.js';

/** The built launcher. */
const { cacheKey, runKind } = createRequire(import.meta.url)('../dist/launch.cjs') as {
  cacheKey(argv: string[]): string;
  runKind(argv: string[], env: NodeJS.ProcessEnv, stdoutIsTTY: boolean): number;
};
const KEY = 'cache-test-key-5f1e2d';

let server: PetService;
let baseUrl: string;

beforeAll(async () => {
  server = await startPetService({ key: KEY });
  baseUrl = server.baseUrl;
});

afterAll(async () => {
  await server.close();
});

/** Runs petstore (the bin, or PETSTORE_E2E_BIN) with `cacheHome` as HOME and XDG_CACHE_HOME. */
function petstore(cacheHome: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnPetstore(args, {
    PATH: process.env.PATH,
    HOME: cacheHome,
    XDG_CACHE_HOME: cacheHome,
    XDG_CONFIG_HOME: tempConfigHome(),
    PETSTORE_BASE_URL: baseUrl,
    PETSTORE_API_KEY: KEY,
    PETSTORE_NO_DEPRECATION_WARNING: '1',
    ...env,
  });
}

/** A fresh folder for HOME and XDG_CACHE_HOME. */
const tempHome = () => fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-cache-'));

/** A home whose `get` cache one successful run wrote, made once for the file: the tests that need one take a copy. */
let filledHome: Promise<string> | undefined;

/** A home whose `get` cache one successful run has written (a copy of the file's one): the home, the file's name and path. */
async function homeWithGetCache(): Promise<{ home: string; name: string; file: string }> {
  filledHome ??= (async () => {
    const filled = tempHome();
    expect(await petstore(filled, ['get', '1', '--json'])).toEqual({ code: 0, stdout: REX, stderr: '' });
    return filled;
  })();
  const home = tempHome();
  fs.cpSync(path.join(await filledHome, 'petstore'), path.join(home, 'petstore'), { recursive: true, mode: fs.constants.COPYFILE_EXCL });
  const [name] = cacheFiles(home);
  return { home, name: name!, file: path.join(home, 'petstore', name!) };
}

const cacheFiles = (cacheHome: string) => {
  const dir = path.join(cacheHome, 'petstore');
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
};

const REX = '{"id":1,"name":"Rex","categoryId":1,"status":"available"}\n';

/** V8's data in a cache file: after the header of src/launch.ts (size, count of run kinds, the kinds). */
const v8Data = (file: Buffer) => file.subarray(6 + 4 * file.readUInt16LE(4));

/** The one cache file of a home. */
const cacheFile = (home: string) => path.join(home, 'petstore', cacheFiles(home)[0]!);
const KEY_FROM_ENV = { PETSTORE_API_KEY: KEY };
/** Runs with the key stored by `auth login` (PETSTORE_API_KEY empty counts as unset). */
const KEY_STORED = { PETSTORE_API_KEY: '', PETSTORE_BASE_URL: '' };

/** A config home where `auth login` stored the key for the test service. */
function storedKeyHome(): string {
  const home = tempConfigHome();
  fs.mkdirSync(path.join(home, 'petstore'), { mode: 0o700 });
  const origin = new URL(baseUrl).origin;
  fs.writeFileSync(
    path.join(home, 'petstore', 'config.json'),
    JSON.stringify({ environments: { production: { baseUrl: `${baseUrl}/`, apiKey: KEY, apiKeyOrigin: origin }, staging: {} } }),
    { mode: 0o600 },
  );
  return home;
}

describe('code cache', () => {
  test('the first successful run writes it (0600 in a 0700 folder); the next run uses it unchanged', async () => {
    const home = tempHome();
    expect(await petstore(home, ['get', '1', '--json'])).toEqual({ code: 0, stdout: REX, stderr: '' });
    const files = cacheFiles(home);
    expect(files).toEqual([expect.stringMatching(new RegExp(`^code-[0-9a-f]{16}-${process.version}-${process.arch}-get\\.v8cache$`))]);
    const file = path.join(home, 'petstore', files[0]!);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const written = fs.readFileSync(file);
    expect(written.includes(KEY)).toBe(false);

    const before = fs.statSync(file);
    expect(await petstore(home, ['get', '1', '--json'])).toEqual({ code: 0, stdout: REX, stderr: '' });
    expect(fs.statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(fs.statSync(file).ino).toBe(before.ino);
  });

  test('a run whose heap grows slowly (get of several ids) leaves a cache the next run uses unchanged', async () => {
    // Its V8 flags are given back their defaults before the cache is written: V8 rejects a cache made under other flags.
    const home = tempHome();
    expect(await petstore(home, ['get', '1', '1', '--json'])).toEqual({
      code: 0,
      stdout: `[${REX.trimEnd()},${REX.trimEnd()}]\n`,
      stderr: '',
    });
    const before = fs.statSync(cacheFile(home));
    expect((await petstore(home, ['get', '1', '1', '--json'])).code).toBe(0);
    expect((await petstore(home, ['get', '1', '--json'])).code).toBe(0);
    expect(fs.statSync(cacheFile(home))).toMatchObject({ mtimeMs: before.mtimeMs, ino: before.ino });
  });

  test('a corrupt cache is ignored and replaced; caches of other builds are removed, of other Node versions kept', async () => {
    const { home, name, file } = await homeWithGetCache();
    fs.writeFileSync(file, 'not a code cache');
    const stale = path.join(home, 'petstore', `code-0000000000000000-${process.version}-${process.arch}-get.v8cache`);
    const otherNode = path.join(home, 'petstore', name.replace(process.version, 'v99.0.0'));
    const unrelated = path.join(home, 'petstore', 'notes.txt');
    fs.writeFileSync(stale, 'old build');
    fs.writeFileSync(otherNode, 'same build, another Node');
    fs.writeFileSync(unrelated, 'kept');

    expect(await petstore(home, ['get', '1', '--json'])).toEqual({ code: 0, stdout: REX, stderr: '' });
    expect(fs.readFileSync(file).length).toBeGreaterThan(1000);
    expect(cacheFiles(home)).toEqual([name, path.basename(otherNode), 'notes.txt'].sort());
  });

  test('a failed run writes nothing, nor does NODE_DISABLE_COMPILE_CACHE', async () => {
    const home = tempHome();
    const missing = await petstore(home, ['get', '424242', '--json']);
    expect(missing.code).toBe(3);
    expect(missing.stdout).toBe('');
    expect(cacheFiles(home)).toEqual([]);

    expect(await petstore(home, ['get', '1', '--json'], { NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual({ code: 0, stdout: REX, stderr: '' });
    expect(cacheFiles(home)).toEqual([]);
  });

  test('what it holds does not depend on which run filled it first: a stored key after an environment key, or the other way', async () => {
    const sizes: number[] = [];
    for (const order of [
      [KEY_FROM_ENV, KEY_FROM_ENV, KEY_STORED, KEY_STORED],
      [KEY_STORED, KEY_STORED, KEY_FROM_ENV, KEY_FROM_ENV],
    ]) {
      const home = tempHome();
      const configHome = storedKeyHome();
      const writes: string[] = [];
      for (const env of order) {
        const before = cacheFiles(home).length ? fs.readFileSync(cacheFile(home)) : undefined;
        expect(await petstore(home, ['get', '1', '--json'], { XDG_CONFIG_HOME: configHome, ...env })).toEqual({
          code: 0,
          stdout: REX,
          stderr: '',
        });
        const after = fs.readFileSync(cacheFile(home));
        writes.push(!before ? 'written' : before.equals(after) ? 'kept' : v8Data(before).equals(v8Data(after)) ? 'checked' : 'grown');
      }
      sizes.push(v8Data(fs.readFileSync(cacheFile(home))).length);
      // The second kind of run measures what it compiled: more than the cache held after the environment key's runs, nothing new after the stored key's.
      expect(writes).toEqual(['written', 'kept', order[0] === KEY_FROM_ENV ? 'grown' : 'checked', 'kept']);
    }
    expect(Math.abs(sizes[0]! - sizes[1]!) / sizes[1]!).toBeLessThan(0.005);
  });

  test('a cache folder that others may write to is neither read nor written', async () => {
    const { home, file } = await homeWithGetCache();
    fs.writeFileSync(file, 'planted');
    fs.chmodSync(path.dirname(file), 0o777);
    expect(await petstore(home, ['get', '1', '--json'])).toEqual({ code: 0, stdout: REX, stderr: '' });
    // Had it been read, V8 would have rejected it and the run would have replaced it.
    expect(fs.readFileSync(file, 'utf8')).toBe('planted');
  });

  test.runIf(runsAsRoot('a cache folder of another user', 'test/code-cache.test.ts'))(
    'a cache folder owned by another user is neither read nor written',
    async () => {
      const { home, file } = await homeWithGetCache();
      fs.writeFileSync(file, 'planted');
      fs.chownSync(path.dirname(file), 65534, 65534);
      expect(await petstore(home, ['get', '1', '--json'])).toEqual({ code: 0, stdout: REX, stderr: '' });
      expect(fs.readFileSync(file, 'utf8')).toBe('planted');
    },
  );

  test('without XDG_CACHE_HOME it is under ~/.cache/petstore', async () => {
    const home = tempHome();
    expect(await petstore(home, ['get', '1', '--json'], { XDG_CACHE_HOME: undefined })).toEqual({ code: 0, stdout: REX, stderr: '' });
    expect(fs.readdirSync(path.join(home, '.cache', 'petstore'))).toEqual([expect.stringMatching(/-get\.v8cache$/)]);
  });

  test('a cache folder that cannot be made or written costs nothing but speed', async () => {
    const home = tempHome();
    fs.writeFileSync(path.join(home, 'petstore'), 'a file where the folder should be');
    expect(await petstore(home, ['get', '1', '--json'])).toEqual({ code: 0, stdout: REX, stderr: '' });

    const readOnly = tempHome();
    fs.mkdirSync(path.join(readOnly, 'petstore'), { mode: 0o500 });
    expect(await petstore(readOnly, ['get', '1', '--json'])).toEqual({ code: 0, stdout: REX, stderr: '' });
    // Root writes anyway; anyone else finds the folder as it was.
    if (process.getuid?.() !== 0) expect(cacheFiles(readOnly)).toEqual([]);
  });
});

describe('cache key', () => {
  test.each([
    [['get', '1', '--json'], 'get'],
    [['list', '--all'], 'list'],
    [['get', '--help'], 'help'],
    [['help', 'get'], 'help'],
    [['-h'], 'help'],
    [['--timeout', '5000', 'get', '1'], 'other'],
    [[], 'other'],
    [['auth', 'status'], 'auth'],
  ])('%j -> %s', (argv, key) => {
    expect(cacheKey(argv)).toBe(key);
  });

  test('a run kind: the options by name, the settings variables set, and a terminal or not; never the values', () => {
    const kind = runKind(['get', '1', '--json'], { PETSTORE_API_KEY: 'a' }, false);
    expect(runKind(['get', '42', '--json'], { PETSTORE_API_KEY: 'b', HOME: '/x' }, false)).toBe(kind);
    for (const other of [
      runKind(['get', '1'], { PETSTORE_API_KEY: 'a' }, false),
      runKind(['get', '1', '--json'], {}, false),
      runKind(['get', '1', '--json'], { PETSTORE_API_KEY: 'a' }, true),
      runKind(['get', '1', '--json', '--timeout=5'], { PETSTORE_API_KEY: 'a' }, false),
    ])
      expect(other).not.toBe(kind);
  });

  test('a word that names no command gets no cache of its own: its run writes the shared one', async () => {
    const home = tempHome();
    const configHome = storedKeyHome();
    const r = await petstore(home, ['--env', 'staging', 'config', 'list'], { XDG_CONFIG_HOME: configHome });
    expect(r.code).toBe(0);
    expect(cacheFiles(home)).toEqual([expect.stringMatching(/-other\.v8cache$/)]);
  });
});
