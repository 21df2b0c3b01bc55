/**
 * Main script of the standalone executable: the pinned Node.js binary with
 * petstore injected as a single executable application (built by
 * scripts/build-standalone.mjs into dist/petstore-<platform>-<arch>).
 *
 * It runs the same bundle as bin/petstore.js, dist/petstore.cjs, embedded as
 * the asset `petstore.cjs`, the same way: through Node's own module loader,
 * with Node's compile cache in the user's cache folder. The bundle needs only
 * Node's built-in modules, which the executable's `require` provides.
 */
import { mkdirSync, statSync } from 'node:fs';
import { createRequire, enableCompileCache, registerHooks } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getAsset } from 'node:sea';
import envPaths from 'env-paths';

/** Set by the build: package.json's version. */
declare const PETSTORE_VERSION: string;

/** The bundle's map is linked by this comment, its last line (scripts/build.mjs). */
const LINKED_MAP = /\n\/\/# sourceMappingURL=petstore\.cjs\.map\n?$/;

/**
 * Turns on Node's compile cache in the user's cache folder (env-paths, as
 * bin/petstore.js finds it), unless NODE_DISABLE_COMPILE_CACHE is set or the
 * folder is not this user's alone: a code cache is code that runs. Never
 * throws: without the cache a command only starts slower.
 */
function useCompileCache(env: NodeJS.ProcessEnv): void {
  if (env.NODE_DISABLE_COMPILE_CACHE) return;
  try {
    const dir = envPaths('petstore', { suffix: '' }).cache;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = statSync(dir);
    const mine = process.getuid === undefined || (stat.uid === process.getuid() && (stat.mode & 0o022) === 0);
    if (stat.isDirectory() && mine) enableCompileCache(dir);
  } catch {
    // An unwritable folder costs speed, never the command.
  }
}

/**
 * Runs the embedded bundle. Node's loader reads files, and the bundle is an
 * asset, so a module hook hands it the asset under the name
 * `<executable>/dist/petstore.cjs` (a path that exists nowhere; the compile
 * cache is keyed by it). With PETSTORE_DEBUG=1 source maps are on and the
 * asset `petstore.cjs.map` goes inline in place of the file the bundle
 * links, so that stack frames name src/ files, as `<executable>/src/…`;
 * otherwise the compile cache is on.
 */
async function run(env: NodeJS.ProcessEnv): Promise<void> {
  const filename = join(process.execPath, 'dist', 'petstore.cjs');
  const url = pathToFileURL(filename).href;
  let source = getAsset('petstore.cjs', 'utf8');
  if (env.PETSTORE_DEBUG === '1') {
    process.setSourceMapsEnabled(true);
    const map = Buffer.from(getAsset('petstore.cjs.map')).toString('base64');
    source = source.replace(LINKED_MAP, `\n//# sourceMappingURL=data:application/json;base64,${map}\n`);
  } else {
    // Not with the map inline: that source would replace the plain one's cache.
    useCompileCache(env);
  }
  registerHooks({
    resolve: (specifier, context, next) =>
      specifier === filename ? { url, format: 'commonjs', shortCircuit: true } : next(specifier, context),
    load: (loaded, context, next) => (loaded === url ? { format: 'commonjs', source, shortCircuit: true } : next(loaded, context)),
  });
  await (createRequire(filename)(filename) as { start(): Promise<void> }).start();
}

const argv = process.argv.slice(2);
// Answered before the bundle loads, as bin/petstore.js does.
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${PETSTORE_VERSION}\n`);
} else {
  run(process.env).catch((error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
