/**
 * Start-up of the bundled CLI (dist/petstore.cjs) with a complete V8 code
 * cache: the one launcher, used by bin/petstore.js (through dist/launch.cjs)
 * and by the standalone executable (src/standalone.ts).
 *
 * Node's own compile cache (`module.enableCompileCache()`) stores a module's
 * code right after compiling it, before it runs, so every function that runs
 * is compiled again on each call; `npm run bench` measures that path against
 * this one (docs/design.md, "Start-up"). Here the bundle is compiled through
 * `vm.Script`, and the cache is written after the command with
 * `createCachedData()`, so that it holds every function that ran.
 *
 * What a cache holds does not depend on which run filled it first: a run that
 * compiled more of the bundle than the runs before it (a stored key after an
 * environment key, a table after JSON) writes the cache again, and the new
 * cache holds what the old one held and what this run compiled.
 */
// Named imports: esbuild turns a default import of a built-in into a copy of all its exports.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getHeapCodeStatistics } from 'node:v8';
import { Script } from 'node:vm';
import envPaths from 'env-paths';

/** First 16 hex digits of the SHA-256 of dist/petstore.cjs, set by the build. */
declare const PETSTORE_BUNDLE_HASH: string | undefined;

/**
 * The cache key of a command line: `help` when it asks for help, else its
 * first word that is not an option (`other` when there is none). A word that
 * is no command gets no cache of its own: a cache is written under a word
 * only after a run whose bundle names it a command (see {@link launch}).
 */
export function cacheKey(argv: readonly string[]): string {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) return 'help';
  const word = argv.find((arg) => !arg.startsWith('-'));
  return word !== undefined && /^[a-z_][a-z_-]{0,31}$/.test(word) ? word : 'other';
}

/**
 * The code cache file of `key` for the bundle whose first 16 hex digits of
 * SHA-256 are `bundleId`, this Node version and CPU architecture, in the
 * user's cache folder (env-paths: $XDG_CACHE_HOME/petstore, ~/.cache/petstore,
 * ~/Library/Caches/petstore, %LOCALAPPDATA%\petstore\Cache). Undefined when
 * NODE_DISABLE_COMPILE_CACHE is set (Node's own switch).
 */
export function codeCacheFile(key: string, env: NodeJS.ProcessEnv, bundleId: string): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  return join(envPaths('petstore', { suffix: '' }).cache, `${cachePrefix(bundleId)}${key}.v8cache`);
}

/** Cache files of one bundle start with this; then the Node version, architecture and key. */
const bundlePrefix = (bundleId: string) => `code-${bundleId}-`;
const cachePrefix = (bundleId: string) => `${bundlePrefix(bundleId)}${process.version}-${process.arch}-`;

/**
 * A cache file is a 4-byte header, the size in bytes (little-endian) of the
 * bytecode that the bundle's compiling and running added to the heap in the
 * run that wrote it, then V8's cached data. A run from the cache that adds
 * more than that compiled functions the cache lacks.
 */
const HEADER = 4;

/**
 * Writes a cache file (mode 0600, folder 0700, atomic replace) and removes
 * the caches of other bundles from the folder. Never throws: the cache only
 * saves time.
 */
async function saveCodeCache(file: string, data: Buffer, bytecodeSize: number, bundleId: string): Promise<void> {
  try {
    const dir = dirname(file);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!isPrivateFolder(dir)) return;
    const header = Buffer.alloc(HEADER);
    header.writeUInt32LE(Math.min(bytecodeSize, 0xffffffff));
    // Loaded here, not at start-up: only a run that writes needs it.
    const { writeFileSync } = await import('atomically');
    writeFileSync(file, Buffer.concat([header, data]), { mode: 0o600 });
    // Caches of other Node versions stay: a user may switch between two.
    for (const name of readdirSync(dir)) {
      if (name.startsWith('code-') && name.endsWith('.v8cache') && !name.startsWith(bundlePrefix(bundleId)))
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

/** The cache at `file` and its writer's bytecode size; undefined when there is none or its folder is not private. */
function readCodeCache(file: string | undefined): { data: Buffer; bytecodeSize: number } | undefined {
  if (!file) return undefined;
  try {
    if (!isPrivateFolder(dirname(file))) return undefined;
    const bytes = readFileSync(file);
    return bytes.length > HEADER ? { data: bytes.subarray(HEADER), bytecodeSize: bytes.readUInt32LE(0) } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether this run may print a stack trace: `--verbose` or PETSTORE_DEBUG=1. */
export function wantsStackTraces(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return env.PETSTORE_DEBUG === '1' || argv.includes('--verbose');
}

/** What the bundle exports (src/entry.ts). */
interface Bundle {
  start(): Promise<void>;
  commandNames(): string[];
}

/** The bundle to run: its CommonJS source, the file name it runs as, and the `require` it gets. */
export interface BundleSource {
  source: string;
  filename: string;
  require: NodeJS.Require;
}

/** The build's hash of the bundle, which names its cache files; undefined in a build without one (no cache). */
const bundleHash = typeof PETSTORE_BUNDLE_HASH === 'string' ? PETSTORE_BUNDLE_HASH : undefined;

const bytecode = () => getHeapCodeStatistics().bytecode_and_metadata_size;

/**
 * Compiles and runs the bundle with the code cache for `argv` (the arguments
 * after the script), then awaits its exported `start()`. After a run that
 * leaves `process.exitCode` 0, writes the cache when there was none, when V8
 * rejected it, or when this run ends with more bytecode than the run that
 * wrote it (it compiled functions the cache lacks; the new cache holds both). Throws what compiling the bundle throws.
 */
export async function runBundle({ source, filename, require }: BundleSource, argv: readonly string[]): Promise<void> {
  const bundleId = bundleHash ?? '';
  const key = cacheKey(argv);
  const file = bundleHash === undefined ? undefined : codeCacheFile(key, process.env, bundleId);
  // A word that named no command when it was written has no cache; such runs share `other`'s.
  const cached = readCodeCache(file) ?? (file && key !== 'help' ? readCodeCache(codeCacheFile('other', process.env, bundleId)) : undefined);
  const bytecodeBefore = bytecode();
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename,
    cachedData: cached?.data,
    // No importModuleDynamically: it starts the ES module loader, and the
    // bundle has no import() left (scripts/build.mjs fails if it had).
  });
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const bundle = { exports: {} as Bundle };
  wrapper.call(bundle.exports, bundle.exports, require, bundle, filename, dirname(filename));
  await bundle.exports.start();
  if (!file || (process.exitCode ?? 0) !== 0) return;
  // Asked before the count, so that every run counts the same code.
  const target = key === 'help' || bundle.exports.commandNames().includes(key) ? file : codeCacheFile('other', process.env, bundleId);
  const bytecodeSize = bytecode() - bytecodeBefore;
  if (cached !== undefined && !script.cachedDataRejected && bytecodeSize <= cached.bytecodeSize) return;
  if (target) await saveCodeCache(target, script.createCachedData(), bytecodeSize, bundleId);
}

/**
 * Runs the bundle at `bundlePath` (an absolute path) for `argv`: through
 * {@link runBundle}, or, when a stack trace is asked for, through Node's own
 * loader with source maps on, so that frames name src/ files (only then is
 * the map read).
 */
export async function launch(bundlePath: string, argv: readonly string[]): Promise<void> {
  const require = createRequire(bundlePath);
  if (wantsStackTraces(argv, process.env)) {
    process.setSourceMapsEnabled(true);
    await (require(bundlePath) as Bundle).start();
    return;
  }
  await runBundle({ source: readFileSync(bundlePath, 'utf8'), filename: bundlePath, require }, argv);
}
