/**
 * Start-up of the bundled CLI (dist/petstore.cjs) with a complete V8 code cache, for bin/petstore.js (through dist/launch.cjs) and
 * the standalone executable. Node's own compile cache is written before the code runs, so it lacks every lazily compiled function
 * (docs/design.md, "Start-up"); here the bundle runs through `vm.Script` and the cache is written after the command
 * (`createCachedData()`). A run of a kind not yet checked against a cache ({@link runKind}) measures what it compiled and, when
 * that is more, writes the cache again, holding both.
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
 * The cache key of a command line: `help` when it asks for help, else its first word that is not an option (`other` when none). A
 * cache is written under a word only after a run whose bundle names it a command.
 */
export function cacheKey(argv: readonly string[]): string {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) return 'help';
  const word = argv.find((arg) => !arg.startsWith('-'));
  return word !== undefined && /^[a-z_][a-z_-]{0,31}$/.test(word) ? word : 'other';
}

/**
 * The code cache file of `key` for the bundle `bundleId`, this Node version and architecture, in the user's cache folder (env-paths);
 * undefined when NODE_DISABLE_COMPILE_CACHE is set (Node's own switch).
 */
export function codeCacheFile(key: string, env: NodeJS.ProcessEnv, bundleId: string): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  return join(envPaths('petstore', { suffix: '' }).cache, `${cachePrefix(bundleId)}${key}.v8cache`);
}

/** Cache files of one bundle start with this; then the Node version, architecture and key. */
const bundlePrefix = (bundleId: string) => `code-${bundleId}-`;
const cachePrefix = (bundleId: string) => `${bundlePrefix(bundleId)}${process.version}-${process.arch}-`;

/**
 * A cache file: a little-endian header (the bytes of bytecode the writing run added to the heap, a count of run kinds checked against
 * it, the kinds), then V8's cached data.
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
 * The kind of a run, as a 32-bit FNV-1a hash of its option names, the settings variables set and whether stdout is a terminal: runs
 * of one kind take the same path through the bundle.
 */
export function runKind(argv: readonly string[], env: NodeJS.ProcessEnv, stdoutIsTTY: boolean): number {
  const options = [...new Set(argv.filter((arg) => arg.startsWith('-')).map((arg) => arg.split('=')[0]))].sort();
  const variables = ['PETSTORE_API_KEY', 'PETSTORE_BASE_URL', 'PETSTORE_ENV', 'NO_COLOR', 'FORCE_COLOR'].filter((name) => env[name]);
  const text = [...options, '|', ...variables, '|', stdoutIsTTY ? 'tty' : 'pipe'].join(' ');
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/** Writes a cache file (0600, folder 0700, atomically) and removes other bundles' caches. Never throws: the cache only saves time. */
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

/** Whether `dir` is this user's and nobody else may write to it (a code cache is code that runs); true without POSIX owners. */
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
 * Compiles and runs the bundle with the code cache for `argv`, then awaits its `start()`. After a run that leaves exit code 0, writes
 * the cache when there was none, V8 rejected it, or this run's new kind compiled more. Throws what compiling the bundle throws.
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
    // No importModuleDynamically: it starts the ES module loader; the bundle has no import() left (scripts/build.mjs checks).
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

/** Runs the bundle at `bundlePath` (absolute) for `argv` through {@link runBundle}; with PETSTORE_DEBUG=1 through Node's loader with source maps. */
export async function launch(bundlePath: string, argv: readonly string[]): Promise<void> {
  const require = createRequire(bundlePath);
  if (wantsSourceMaps(process.env)) {
    process.setSourceMapsEnabled(true);
    await (require(bundlePath) as Bundle).start(argv, leadingCommand(argv));
    return;
  }
  await runBundle({ source: readFileSync(bundlePath, 'utf8'), filename: bundlePath, require }, argv);
}
