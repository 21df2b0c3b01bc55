// The V8 code cache of dist/launch.cjs: where it lives, when it is written,
// and that a bad cache never changes what a command does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRequire } from 'node:module';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { commandNames } from '../src/main.js';
import { spawnAsync, tempConfigHome } from './helpers.js';

const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
/** The built launcher: its cache keys come from the command registry at build time. */
const { cacheKey } = createRequire(import.meta.url)('../dist/launch.cjs') as { cacheKey(argv: string[]): string };
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

/** Runs the built bin with its own cache folder; returns the folder petstore caches in. */
function petstore(cacheHome: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnAsync(process.execPath, [BIN, ...args], {
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

/** A home whose `get` cache one successful run has written: the home, the file's name and path. */
async function homeWithGetCache(): Promise<{ home: string; name: string; file: string }> {
  const home = tempHome();
  expect(await petstore(home, ['get', '1', '--json'])).toEqual({ code: 0, stdout: REX, stderr: '' });
  const [name] = cacheFiles(home);
  return { home, name: name!, file: path.join(home, 'petstore', name!) };
}

const cacheFiles = (cacheHome: string) => {
  const dir = path.join(cacheHome, 'petstore');
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
};

const REX = '{"id":1,"name":"Rex","categoryId":1,"status":"available"}\n';

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

  test('a cache folder that others may write to is neither read nor written', async () => {
    const { home, file } = await homeWithGetCache();
    fs.writeFileSync(file, 'planted');
    fs.chmodSync(path.dirname(file), 0o777);
    expect(await petstore(home, ['get', '1', '--json'])).toEqual({ code: 0, stdout: REX, stderr: '' });
    // Had it been read, V8 would have rejected it and the run would have replaced it.
    expect(fs.readFileSync(file, 'utf8')).toBe('planted');
  });

  test('an unwritable cache folder costs nothing but speed', async () => {
    const home = tempHome();
    fs.writeFileSync(path.join(home, 'petstore'), 'a file where the folder should be');
    expect(await petstore(home, ['get', '1', '--json'])).toEqual({ code: 0, stdout: REX, stderr: '' });
  });
});

describe('cache key', () => {
  test.each([
    [['get', '1', '--json'], 'get'],
    [['list', '--all'], 'list'],
    [['get', '--help'], 'help'],
    [['help', 'get'], 'help'],
    [['-h'], 'help'],
    [['--env', 'staging', 'get', '1'], 'other'],
    [[], 'other'],
    [['auth', 'status'], 'auth'],
  ])('%j -> %s', (argv, key) => {
    expect(cacheKey(argv)).toBe(key);
  });

  test('every command of the registry has its own key', () => {
    for (const name of commandNames()) expect(cacheKey([name])).toBe(name === 'help' ? 'help' : name);
    expect(cacheKey(['lsit'])).toBe('other');
  });
});
