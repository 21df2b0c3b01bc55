// Bundles src/ with esbuild into dist/petstore.cjs, one CommonJS file whose
// modules start only when a command needs them (undici, conf and zod are
// esbuild lazy-init wrappers), and src/launch.ts into dist/launch.cjs, which
// loads that bundle with a complete V8 code cache (see src/launch.ts).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
// commander imports built-ins as ES modules, and esbuild's interop would copy
// every property of each: start-up time. These facades export exactly what
// commander imports; should commander import anything else, the build fails
// with a missing export. node:child_process serves only executable
// subcommands, which petstore does not have, so it is loaded on first use.
const COMMANDER_BUILTINS = {
  'node:events': "export const { EventEmitter } = require('node:events');",
  'node:child_process':
    "let real; const load = () => (real ??= require('node:child_process'));\n" +
    'export default new Proxy({}, { get: (_t, key) => load()[key] });',
  'node:path': "export default require('node:path');",
  'node:fs': "export default require('node:fs');",
  'node:process': 'export default process;',
  'node:util': "export const { stripVTControlCharacters } = require('node:util');",
};
const commanderBuiltins = {
  name: 'commander-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) =>
      args.importer.includes('node_modules/commander/') && args.path in COMMANDER_BUILTINS
        ? { path: args.path, namespace: 'commander-builtin' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'commander-builtin' }, (args) => ({ contents: COMMANDER_BUILTINS[args.path], loader: 'js' }));
  },
};

const undiciLazyHttp2 = {
  name: 'undici-lazy-http2',
  setup(b) {
    b.onResolve({ filter: /^node:http2$/ }, (args) =>
      args.importer.includes('node_modules/undici/') ? { path: fileURLToPath(new URL('./lazy-http2.cjs', import.meta.url)) } : undefined,
    );
  },
};

const shared = { bundle: true, format: 'cjs', platform: 'node', target: 'node22', logLevel: 'warning', sourcemap: false };
const minify = process.env.PETSTORE_BUILD_DEBUG !== '1';

const { metafile } = await build({
  ...shared,
  metafile: true,
  plugins: [commanderBuiltins, undiciLazyHttp2],
  entryPoints: ['src/entry.ts'],
  outfile: 'dist/petstore.cjs',
  minify,
  legalComments: 'linked',
  define: { PETSTORE_VERSION: JSON.stringify(version) },
});

// src/launch.ts runs the bundle through vm.Script without a module loader.
const dynamicImports = Object.entries(metafile.inputs).flatMap(([file, input]) =>
  input.imports.filter((i) => i.kind === 'dynamic-import' && i.external).map((i) => `${file}: import('${i.path}')`),
);
if (dynamicImports.length > 0) throw new Error(`the bundle must not import() at run time:\n${dynamicImports.join('\n')}`);

// The code cache is keyed by this hash: a rebuilt bundle never meets an old cache.
const bundleHash = createHash('sha256').update(readFileSync(new URL('../dist/petstore.cjs', import.meta.url))).digest('hex').slice(0, 16);
await build({
  ...shared,
  entryPoints: ['src/launch.ts'],
  outfile: 'dist/launch.cjs',
  minify,
  legalComments: 'linked',
  define: { PETSTORE_BUNDLE_HASH: JSON.stringify(bundleHash) },
});
