/**
 * Start-up of the bundled CLI (dist/petstore.cjs) with a complete V8 code cache.
 *
 * Node's own compile cache (`module.enableCompileCache()`) stores a module's
 * code right after compiling it, before it runs, so every function that runs
 * is compiled again on each call: for `get --json` that was about a third of
 * the time petstore spends above bare Node. Here the bundle is compiled through
 * `vm.Script`, and the cache is written after the command with
 * `createCachedData()`, so it holds every function that ran. Built by
 * scripts/build.mjs into dist/launch.cjs; bin/petstore.js calls `launch`.
 */
// Named imports: esbuild turns a default import of a built-in into a copy of all its exports.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import envPaths from 'env-paths';

/** First 16 hex digits of the SHA-256 of dist/petstore.cjs, set by the build. */
declare const PETSTORE_BUNDLE_HASH: string | undefined;
/** The top-level command names of the registry (src/commands/registry.ts), set by the build. */
declare const PETSTORE_COMMANDS: readonly string[] | undefined;

/** Words that key the cache: a command runs different code, so each has its own. */
const CACHE_KEYS = new Set([...(typeof PETSTORE_COMMANDS === 'undefined' ? [] : PETSTORE_COMMANDS), 'help']);

/**
 * The cache key of a command line: `help` when it asks for help, else its
 * first non-option word when that names a command, else `other`. A key holds
 * what its first successful run compiled, so `get --help` must not fill `get`.
 */
export function cacheKey(argv: readonly string[]): string {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) return 'help';
  const word = argv.find((arg) => !arg.startsWith('-'));
  return word !== undefined && CACHE_KEYS.has(word) ? word : 'other';
}

/**
 * The code cache file for this bundle, Node version, CPU architecture and
 * command line, in the user's cache folder (env-paths: $XDG_CACHE_HOME/petstore,
 * ~/.cache/petstore, ~/Library/Caches/petstore, %LOCALAPPDATA%\petstore\Cache).
 * Undefined when NODE_DISABLE_COMPILE_CACHE is set (Node's own switch) or the
 * bundle has no build hash.
 */
export function codeCacheFile(argv: readonly string[], env: NodeJS.ProcessEnv, bundleHash: string | undefined): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE || !bundleHash) return undefined;
  const dir = envPaths('petstore', { suffix: '' }).cache;
  return join(dir, `${cachePrefix(bundleHash)}${cacheKey(argv)}.v8cache`);
}

/** Cache files of one build start with this; then the Node version, architecture and key. */
const buildPrefix = (bundleHash: string) => `code-${bundleHash}-`;
const cachePrefix = (bundleHash: string) => `${buildPrefix(bundleHash)}${process.version}-${process.arch}-`;

/**
 * Writes the code cache of `script` to `file` (mode 0600, folder 0700, atomic
 * replace) and removes the caches of other builds from the folder. Never
 * throws: the cache only saves time.
 */
export async function saveCodeCache(script: Script, file: string, bundleHash: string): Promise<void> {
  try {
    const dir = dirname(file);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!isPrivateFolder(dir)) return;
    // Loaded here, not at start-up: only the first run of a command writes.
    const { writeFileSync } = await import('atomically');
    writeFileSync(file, script.createCachedData(), { mode: 0o600 });
    // Caches of other Node versions stay: a user may switch between two.
    for (const name of readdirSync(dir)) {
      if (name.startsWith('code-') && name.endsWith('.v8cache') && !name.startsWith(buildPrefix(bundleHash)))
        rmSync(join(dir, name), { force: true });
    }
  } catch {
    // A read-only or full disk costs speed, never the command.
  }
}

/**
 * Whether `dir` belongs to this user and nobody else may write to it. A code
 * cache is code that runs: one in a folder others can write to is not used.
 * Always true where there are no POSIX owners (Windows).
 */
export function isPrivateFolder(dir: string): boolean {
  if (typeof process.getuid !== 'function') return true;
  const stat = statSync(dir);
  return stat.isDirectory() && stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
}

function readCodeCache(file: string | undefined): Buffer | undefined {
  if (!file) return undefined;
  try {
    return isPrivateFolder(dirname(file)) ? readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether this run may print a stack trace: `--verbose` or PETSTORE_DEBUG=1. */
export function wantsStackTraces(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return env.PETSTORE_DEBUG === '1' || argv.includes('--verbose');
}

/**
 * Compiles and runs the CommonJS bundle at `bundlePath` (an absolute path) with
 * the code cache for `argv` (the arguments after the script), then awaits its
 * exported `start()`. A missing, stale or corrupt cache is replaced after a run
 * that leaves `process.exitCode` 0. Throws what reading or compiling the bundle throws.
 */
export async function launch(bundlePath: string, argv: readonly string[]): Promise<void> {
  // A stack trace was asked for: load the bundle through Node's own loader with
  // source maps on, so that frames name src/ files. Only then is the map read.
  if (wantsStackTraces(argv, process.env)) {
    process.setSourceMapsEnabled(true);
    await (createRequire(bundlePath)(bundlePath) as { start(): Promise<void> }).start();
    return;
  }
  const bundleHash = typeof PETSTORE_BUNDLE_HASH === 'string' ? PETSTORE_BUNDLE_HASH : undefined;
  const file = codeCacheFile(argv, process.env, bundleHash);
  const cachedData = readCodeCache(file);
  const source = readFileSync(bundlePath, 'utf8');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundlePath,
    cachedData,
    // No importModuleDynamically: it starts the ES module loader (~14 ms), and
    // the bundle has no import() left (scripts/build.mjs fails if it had).
  });
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const bundle = { exports: {} as { start(): Promise<void> } };
  wrapper.call(bundle.exports, bundle.exports, createRequire(bundlePath), bundle, bundlePath, dirname(bundlePath));
  await bundle.exports.start();
  // Written after the command, so the cache holds every function it ran; only
  // after a success, so a run that stopped early does not fill it half.
  if (file && bundleHash && (!cachedData || script.cachedDataRejected) && (process.exitCode ?? 0) === 0) {
    await saveCodeCache(script, file, bundleHash);
  }
}
