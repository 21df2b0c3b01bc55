/**
 * Main script of the standalone executable (scripts/build-standalone.mjs): runs dist/petstore.cjs, embedded as the asset `petstore.cjs`,
 * through the launcher of bin/petstore.js (src/launch.ts), with the same code cache; with PETSTORE_DEBUG=1 with source maps.
 */
import { createRequire, registerHooks } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getAsset } from 'node:sea';
import { leadingCommand, processArguments, runBundle, wantsSourceMaps } from './launch.js';

/** Set by the build: package.json's version. */
declare const PETSTORE_VERSION: string;

/** The bundle's map is linked by this comment, its last line (scripts/build.mjs). */
const LINKED_MAP = /\n\/\/# sourceMappingURL=petstore\.cjs\.map\n?$/;

/**
 * Runs the embedded bundle with source maps on (frames name `<executable>/src/…`): Node maps only what its loader compiled, so a module
 * hook hands it the bundle as `<executable>/dist/petstore.cjs`, with the asset `petstore.cjs.map` inline.
 */
async function runWithSourceMaps(argv: readonly string[]): Promise<void> {
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
  const bundle = createRequire(filename)(filename) as { start(argv: readonly string[], command?: string): Promise<void> };
  await bundle.start(argv, leadingCommand(argv));
}

/** Runs the embedded bundle for `argv` (the arguments after the executable), with the code cache of src/launch.ts. */
async function run(argv: readonly string[]): Promise<void> {
  if (wantsSourceMaps(process.env)) return runWithSourceMaps(argv);
  const filename = join(dirname(process.execPath), 'petstore.cjs');
  await runBundle({ source: getAsset('petstore.cjs', 'utf8'), filename, require: createRequire(process.execPath) }, argv);
}

const argv = processArguments();
// Answered before the bundle loads, as bin/petstore.js does.
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${PETSTORE_VERSION}\n`);
} else {
  run(argv).catch((error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
