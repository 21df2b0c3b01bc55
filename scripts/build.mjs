// Bundles src/ with esbuild into dist/petstore.cjs, one CommonJS file whose
// modules start only when a command needs them (undici, conf and zod are
// esbuild lazy-init wrappers), and src/launch.ts into dist/launch.cjs, which
// loads that bundle with a complete V8 code cache (see src/launch.ts).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { brotliCompressSync, constants } from 'node:zlib';

const require = createRequire(import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// jq's WebAssembly (the jq-wasm/jq.wasm export) travels inside the bundle, so
// that neither the npm package nor a single executable needs a file beside it;
// brotli-compressed, because every start reads and hashes the whole bundle
// (0.37 MB of base64 instead of 1.24 MB; src/output/jq.ts decompresses it).
const jqWasm = brotliCompressSync(readFileSync(require.resolve('jq-wasm/jq.wasm')), { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
const shared = { bundle: true, format: 'cjs', platform: 'node', target: 'node22', logLevel: 'warning' };
const minify = process.env.PETSTORE_BUILD_DEBUG !== '1';

const { metafile } = await build({
  ...shared,
  metafile: true,
  entryPoints: ['src/entry.ts'],
  outfile: 'dist/petstore.cjs',
  // Read only when a stack trace is asked for (src/launch.ts); names src/ files, without their text.
  sourcemap: 'linked',
  sourcesContent: false,
  minify,
  legalComments: 'linked',
  // ES modules that read import.meta.url (jq-wasm's, which import() resolves
  // to) get the bundle's own URL: esbuild leaves import.meta empty in CommonJS.
  // ("use strict" first: the bundle's own directive would no longer be one.)
  banner: { js: '"use strict";\nvar __importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: {
    PETSTORE_VERSION: JSON.stringify(version),
    PETSTORE_JQ_WASM: JSON.stringify(jqWasm.toString('base64')),
    'import.meta.url': '__importMetaUrl',
  },
});

// src/launch.ts runs the bundle through vm.Script without a module loader.
const dynamicImports = Object.entries(metafile.inputs).flatMap(([file, input]) =>
  input.imports.filter((i) => i.kind === 'dynamic-import' && i.external).map((i) => `${file}: import('${i.path}')`),
);
if (dynamicImports.length > 0) throw new Error(`the bundle must not import() at run time:\n${dynamicImports.join('\n')}`);

// The code cache is keyed per command; the names come from the registry in the bundle.
const commands = require('../dist/petstore.cjs').commandNames();
(await import('./man.mjs')).writeManPage();
// The code cache is keyed by this hash: a rebuilt bundle never meets an old cache.
const bundleHash = createHash('sha256').update(readFileSync(new URL('../dist/petstore.cjs', import.meta.url))).digest('hex').slice(0, 16);
await build({
  ...shared,
  entryPoints: ['src/launch.ts'],
  outfile: 'dist/launch.cjs',
  minify,
  legalComments: 'linked',
  define: { PETSTORE_BUNDLE_HASH: JSON.stringify(bundleHash), PETSTORE_COMMANDS: JSON.stringify(commands) },
});
