// Node's compile cache, as bin/petstore.js and the standalone executable turn
// it on: where it lives, that a run uses it unchanged, and that a damaged
// cache, an unusable folder or one that others may write to never changes
// what a command does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { spawnPetstore, tempConfigHome } from './helpers.js';

const KEY = 'cache-test-key-5f1e2d';
const REX = '{"id":1,"name":"Rex","categoryId":1,"status":"available"}\n';
const GOT_REX = { code: 0, stdout: REX, stderr: '' };

let server: PetService;

beforeAll(async () => {
  server = await startPetService({ key: KEY });
});

afterAll(async () => {
  await server.close();
});

/** A fresh folder for HOME. */
const tempHome = () => fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-cache-'));

/** Runs `get 1 --json` with `env` on top of a home of its own and the key from the environment. */
function getRex(env: NodeJS.ProcessEnv) {
  return spawnPetstore(['get', '1', '--json'], {
    PATH: process.env.PATH,
    XDG_CONFIG_HOME: tempConfigHome(),
    PETSTORE_BASE_URL: server.baseUrl,
    PETSTORE_API_KEY: KEY,
    PETSTORE_NO_DEPRECATION_WARNING: '1',
    ...env,
  });
}

/** Every file under `dir`, as paths relative to it, sorted. */
const filesUnder = (dir: string) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((name) => fs.statSync(path.join(dir, name)).isFile())
        .sort()
    : [];

/** A cache home that one run has filled (the first test to need one runs it; the others copy it). */
let filledOnce: Promise<string> | undefined;

/**
 * A cache folder that one run has filled, of its own: the folder and its one cache file. A run of its own
 * (`fresh`), else a copy of the one filled once, modes kept: its tests change it, but need not watch it filled.
 */
async function filledCache(fresh = false): Promise<{ cacheHome: string; dir: string; file: string }> {
  const fill = async () => {
    const home = tempHome();
    expect(await getRex({ HOME: home, XDG_CACHE_HOME: home })).toEqual(GOT_REX);
    return home;
  };
  let cacheHome: string;
  if (fresh) cacheHome = await fill();
  else {
    filledOnce ??= fill();
    const source = path.join(await filledOnce, 'petstore');
    cacheHome = tempHome();
    fs.cpSync(source, path.join(cacheHome, 'petstore'), { recursive: true });
  }
  const dir = path.join(cacheHome, 'petstore');
  const [file] = filesUnder(dir);
  return { cacheHome, dir, file: path.join(dir, file!) };
}

describe('compile cache', () => {
  test('a run writes it under $XDG_CACHE_HOME/petstore, a folder of mode 0700, and the next run uses it unchanged', async () => {
    const { dir, file, cacheHome } = await filledCache(true);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    // Node's own layout: a folder per Node version and architecture, a file per module.
    expect(path.relative(dir, file)).toMatch(new RegExp(`^v\\d+\\.\\d+\\.\\d+-${process.arch}-[^/]+/[^/]+$`));
    expect(fs.statSync(file).mode & 0o077).toBe(0);
    expect(fs.readFileSync(file).includes(KEY)).toBe(false);

    const before = fs.statSync(file);
    expect(await getRex({ HOME: cacheHome, XDG_CACHE_HOME: cacheHome })).toEqual(GOT_REX);
    expect(fs.statSync(file)).toMatchObject({ mtimeMs: before.mtimeMs, ino: before.ino });
    expect(filesUnder(dir)).toEqual([path.relative(dir, file)]);
  });

  test('without XDG_CACHE_HOME it is under ~/.cache/petstore', async () => {
    const home = tempHome();
    expect(await getRex({ HOME: home })).toEqual(GOT_REX);
    expect(filesUnder(path.join(home, '.cache', 'petstore'))).toHaveLength(1);
  });

  test('a damaged cache is ignored and replaced', async () => {
    const { cacheHome, file } = await filledCache();
    fs.writeFileSync(file, 'not a code cache');
    expect(await getRex({ HOME: cacheHome, XDG_CACHE_HOME: cacheHome })).toEqual(GOT_REX);
    expect(fs.statSync(file).size).toBeGreaterThan(1000);
  });

  test('NODE_DISABLE_COMPILE_CACHE: nothing is written, not even the folder', async () => {
    const cacheHome = tempHome();
    expect(await getRex({ HOME: cacheHome, XDG_CACHE_HOME: cacheHome, NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual(GOT_REX);
    expect(fs.readdirSync(cacheHome)).toEqual([]);
  });

  test('a cache folder that others may write to is neither read nor written', async () => {
    const { cacheHome, dir, file } = await filledCache();
    fs.writeFileSync(file, 'planted');
    fs.chmodSync(dir, 0o777);
    expect(await getRex({ HOME: cacheHome, XDG_CACHE_HOME: cacheHome })).toEqual(GOT_REX);
    // Had it been read, Node would have rejected it and the run would have replaced it.
    expect(fs.readFileSync(file, 'utf8')).toBe('planted');
    expect(filesUnder(dir)).toEqual([path.relative(dir, file)]);
  });

  test.runIf(process.getuid?.() === 0)('a cache folder owned by another user is neither read nor written', async () => {
    const { cacheHome, dir, file } = await filledCache();
    fs.writeFileSync(file, 'planted');
    fs.chownSync(dir, 65534, 65534);
    expect(await getRex({ HOME: cacheHome, XDG_CACHE_HOME: cacheHome })).toEqual(GOT_REX);
    expect(fs.readFileSync(file, 'utf8')).toBe('planted');
  });

  test('a cache folder that cannot be made or written costs nothing but speed', async () => {
    const fileInTheWay = tempHome();
    fs.writeFileSync(path.join(fileInTheWay, 'petstore'), 'a file where the folder should be');
    expect(await getRex({ HOME: fileInTheWay, XDG_CACHE_HOME: fileInTheWay })).toEqual(GOT_REX);

    const { cacheHome, dir, file } = await filledCache();
    // Node's folder for this Node version cannot be made.
    fs.rmSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(path.dirname(file), 'a file where Node wants its folder');
    expect(await getRex({ HOME: cacheHome, XDG_CACHE_HOME: cacheHome })).toEqual(GOT_REX);
    expect(filesUnder(dir)).toEqual([path.relative(dir, path.dirname(file))]);
  });
});
