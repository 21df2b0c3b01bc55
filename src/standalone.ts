/**
 * Main script of the standalone executable: the pinned Node.js binary with
 * petstore injected as a single executable application (built by
 * scripts/build-standalone.mjs into dist/petstore-<platform>-<arch>).
 *
 * It runs the same bundle as bin/petstore.js, dist/petstore.cjs, embedded as
 * the asset `petstore.cjs`, in the same way as src/launch.ts: compiled through
 * `vm.Script` with the complete V8 code cache of the command, read from and
 * written to the same cache folder. The bundle needs only Node's built-in
 * modules, which the executable's `require` provides. When a stack trace is
 * asked for, it runs through Node's own loader with source maps instead
 * (runWithSourceMaps), as launch.ts does.
 */
import { createRequire, registerHooks } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getAsset } from 'node:sea';
import { Script } from 'node:vm';
import { codeCacheFile, isPrivateFolder, saveCodeCache, wantsStackTraces } from './launch.js';

/** Set by the build: package.json's version, and the hash of dist/petstore.cjs. */
declare const PETSTORE_VERSION: string;
declare const PETSTORE_BUNDLE_HASH: string;

/** The cached code at `file`, or undefined when there is none or its folder is not private. */
function cachedCode(file: string | undefined): Buffer | undefined {
  try {
    return file && isPrivateFolder(dirname(file)) ? readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/** The bundle's map is linked by this comment, its last line (scripts/build.mjs). */
const LINKED_MAP = /\n\/\/# sourceMappingURL=petstore\.cjs\.map\n?$/;

/**
 * Runs the embedded bundle with source maps on, so that stack frames name
 * src/ files (as `<executable>/src/…`: the bundle is called
 * `<executable>/dist/petstore.cjs`, a path that exists nowhere). Node maps
 * only what its module loader compiled, not a vm.Script, so a module hook
 * hands the loader the bundle under that name, with the asset
 * `petstore.cjs.map` inline in place of the file it links.
 */
async function runWithSourceMaps(): Promise<void> {
  process.setSourceMapsEnabled(true);
  const filename = join(process.execPath, 'dist', 'petstore.cjs');
  const url = pathToFileURL(filename).href;
  const map = Buffer.from(getAsset('petstore.cjs.map')).toString('base64');
  const source = getAsset('petstore.cjs', 'utf8').replace(LINKED_MAP, `\n//# sourceMappingURL=data:application/json;base64,${map}\n`);
  registerHooks({
    resolve: (specifier, context, next) =>
      specifier === filename ? { url, format: 'commonjs', shortCircuit: true } : next(specifier, context),
    load: (loaded, context, next) => (loaded === url ? { format: 'commonjs', source, shortCircuit: true } : next(loaded, context)),
  });
  await (createRequire(filename)(filename) as { start(): Promise<void> }).start();
}

/**
 * Runs the embedded bundle for `argv` (the arguments after the executable) and
 * writes the command's code cache after a successful run without a usable one.
 */
async function run(argv: readonly string[]): Promise<void> {
  if (wantsStackTraces(argv, process.env)) return runWithSourceMaps();
  const file = codeCacheFile(argv, process.env, PETSTORE_BUNDLE_HASH);
  const cachedData = cachedCode(file);
  // The same wrapper as launch.ts, so that the two share one cache file per command.
  const source = `(function (exports, require, module, __filename, __dirname) {${getAsset('petstore.cjs', 'utf8')}\n})`;
  const filename = join(dirname(process.execPath), 'petstore.cjs');
  const script = new Script(source, { filename, cachedData });
  const bundle = { exports: {} as { start(): Promise<void> } };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(bundle.exports, bundle.exports, createRequire(process.execPath), bundle, filename, dirname(filename));
  await bundle.exports.start();
  if (file && (!cachedData || script.cachedDataRejected) && (process.exitCode ?? 0) === 0) {
    await saveCodeCache(script, file, PETSTORE_BUNDLE_HASH);
  }
}

const argv = process.argv.slice(2);
// Answered before the bundle loads, as bin/petstore.js does.
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${PETSTORE_VERSION}\n`);
} else {
  run(argv).catch((error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
