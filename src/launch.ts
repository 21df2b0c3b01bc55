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
 * What a cache holds does not depend on which run filled it first: a run of
 * a kind not yet checked against it (see runKind) measures what it compiled,
 * and when that is more than the cache's writer did (a stored key after an
 * environment key, a table after JSON), writes the cache again, holding both.
 */
// Named imports: esbuild turns a default import of a built-in into a copy of all its exports.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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
 * A cache file is a header, then V8's cached data. The header (little-endian)
 * holds the size in bytes of the bytecode that compiling and running the
 * bundle added to the heap in the run that wrote the data, then how many runs
 * of another kind (see {@link runKind}) have been checked against it, and
 * their kinds. A run of a kind not yet checked measures the same: when it adds
 * more, it compiled functions the cache lacks, and the cache is written again
 * with both.
 */
interface CacheFile {
  data: Buffer;
  bytecodeSize: number;
  kinds: number[];
}

/** Most run kinds a header keeps (the oldest go first). */
const MAX_KINDS = 64;

function encodeHeader(bytecodeSize: number, kinds: readonly number[]): Buffer {
  const header = Buffer.alloc(6 + 4 * kinds.length);
  header.writeUInt32LE(Math.min(bytecodeSize, 0xffffffff), 0);
  header.writeUInt16LE(kinds.length, 4);
  for (const [i, kind] of kinds.entries()) header.writeUInt32LE(kind, 6 + 4 * i);
  return header;
}

function decodeCache(bytes: Buffer): CacheFile | undefined {
  if (bytes.length < 6) return undefined;
  const count = bytes.readUInt16LE(4);
  const start = 6 + 4 * count;
  if (bytes.length <= start) return undefined;
  const kinds = Array.from({ length: count }, (_, i) => bytes.readUInt32LE(6 + 4 * i));
  return { data: bytes.subarray(start), bytecodeSize: bytes.readUInt32LE(0), kinds };
}

/**
 * The kind of a run, as a 32-bit FNV-1a hash: the options of `argv` (names
 * only), which of petstore's settings variables are set, and whether stdout
 * is a terminal. Runs of one kind take the same path through the bundle, so
 * that only a run of a new kind needs to measure what it compiled.
 */
export function runKind(argv: readonly string[], env: NodeJS.ProcessEnv, stdoutIsTTY: boolean): number {
  const options = [...new Set(argv.filter((arg) => arg.startsWith('-')).map((arg) => arg.split('=')[0]))].sort();
  const variables = ['PETSTORE_API_KEY', 'PETSTORE_BASE_URL', 'PETSTORE_ENV', 'NO_COLOR', 'FORCE_COLOR'].filter((name) => env[name]);
  const text = [...options, '|', ...variables, '|', stdoutIsTTY ? 'tty' : 'pipe'].join(' ');
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/**
 * Writes a cache file (mode 0600, folder 0700, atomic replace) and removes
 * the caches of other bundles from the folder. Never throws: the cache only
 * saves time.
 */
async function saveCodeCache(file: string, cache: CacheFile, bundleId: string): Promise<void> {
  try {
    const dir = dirname(file);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!isPrivateFolder(dir)) return;
    // Loaded here, not at start-up: only a run that writes needs it.
    const { writeFileSync } = await import('atomically');
    writeFileSync(file, Buffer.concat([encodeHeader(cache.bytecodeSize, cache.kinds), cache.data]), { mode: 0o600 });
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

/** The cache at `file`; undefined when there is none, it is damaged, or its folder is not private. */
function readCodeCache(file: string | undefined): CacheFile | undefined {
  if (!file) return undefined;
  try {
    return isPrivateFolder(dirname(file)) ? decodeCache(readFileSync(file)) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether stack traces should name src/ files (PETSTORE_DEBUG=1): then the bundle runs with source maps, without the code cache. */
export function wantsSourceMaps(env: NodeJS.ProcessEnv): boolean {
  return env.PETSTORE_DEBUG === '1';
}

/**
 * The arguments after the program (`node bin/petstore.js ...`, or the standalone executable): the one place in src/ that
 * reads `process.argv`; the launcher hands them to the bundle, which commander parses once (src/main.ts).
 */
export function processArguments(): string[] {
  return process.argv.slice(2);
}

/**
 * The command a line starts with (`list` of `list --all`), handed to the bundle so that it builds only that declaration; undefined
 * when the line starts with a flag, since only commander's parse tells a flag's value (`--env list`) from the command.
 */
export function leadingCommand(argv: readonly string[]): string | undefined {
  const first = argv[0];
  return first !== undefined && /^[a-z_][a-z_-]{0,31}$/.test(first) ? first : undefined;
}

/** What the bundle exports (src/entry.ts). */
interface Bundle {
  start(argv: readonly string[], command?: string): Promise<void>;
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

/** Bytes of bytecode in the heap; node:v8 loads only in a run that measures. */
const bytecode = () => process.getBuiltinModule('node:v8').getHeapCodeStatistics().bytecode_and_metadata_size;

/**
 * Compiles and runs the bundle with the code cache for `argv` (the arguments
 * after the script), then awaits its exported `start()`. After a run that
 * leaves `process.exitCode` 0, writes the cache when there was none or V8
 * rejected it; a run of a kind the cache was not yet checked against
 * ({@link runKind}) measures the bytecode it adds, and writes the cache again
 * when that is more than its writer's (it compiled functions the cache lacks;
 * the new cache holds both). Throws what compiling the bundle throws.
 */
export async function runBundle({ source, filename, require }: BundleSource, argv: readonly string[]): Promise<void> {
  const bundleId = bundleHash ?? '';
  const key = cacheKey(argv);
  const file = bundleHash === undefined ? undefined : codeCacheFile(key, process.env, bundleId);
  // A word that named no command when it was written has no cache; such runs share `other`'s.
  const cached = readCodeCache(file) ?? (file && key !== 'help' ? readCodeCache(codeCacheFile('other', process.env, bundleId)) : undefined);
  const kind = runKind(argv, process.env, Boolean(process.stdout.isTTY));
  const measures = file !== undefined && !cached?.kinds.includes(kind);
  const before = measures ? bytecode() : 0;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename,
    cachedData: cached?.data,
    // No importModuleDynamically: it starts the ES module loader, and the
    // bundle has no import() left (scripts/build.mjs fails if it had).
  });
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const bundle = { exports: {} as Bundle };
  wrapper.call(bundle.exports, bundle.exports, require, bundle, filename, dirname(filename));
  await bundle.exports.start(argv, leadingCommand(argv));
  const usable = cached !== undefined && !script.cachedDataRejected;
  if (!file || (process.exitCode ?? 0) !== 0 || (usable && !measures)) return;
  // Asked before the count, so that every run counts the same code.
  const target = key === 'help' || bundle.exports.commandNames().includes(key) ? file : codeCacheFile('other', process.env, bundleId);
  if (!target) return;
  // A cache V8 rejected, found by a run that did not measure, is written with nothing to compare: the next run measures.
  const added = measures ? bytecode() - before : 0;
  if (!usable) {
    await saveCodeCache(target, { data: script.createCachedData(), bytecodeSize: added, kinds: measures ? [kind] : [] }, bundleId);
  } else if (added > cached.bytecodeSize) {
    const kinds = [...cached.kinds, kind].slice(-MAX_KINDS);
    await saveCodeCache(target, { data: script.createCachedData(), bytecodeSize: added, kinds }, bundleId);
  } else {
    // Nothing new: the same code, with this kind checked.
    await saveCodeCache(target, { ...cached, kinds: [...cached.kinds, kind].slice(-MAX_KINDS) }, bundleId);
  }
}

/**
 * Runs the bundle at `bundlePath` (an absolute path) for `argv`: through
 * {@link runBundle}, or, with PETSTORE_DEBUG=1, through Node's own loader with
 * source maps on, so that frames name src/ files (only then is the map read).
 */
export async function launch(bundlePath: string, argv: readonly string[]): Promise<void> {
  const require = createRequire(bundlePath);
  if (wantsSourceMaps(process.env)) {
    process.setSourceMapsEnabled(true);
    await (require(bundlePath) as Bundle).start(argv, leadingCommand(argv));
    return;
  }
  await runBundle({ source: readFileSync(bundlePath, 'utf8'), filename: bundlePath, require }, argv);
}
