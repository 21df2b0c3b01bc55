// Bundles src/ into dist/ with esbuild. Code splitting keeps undici, conf and
// zod in chunks that load only when a command needs them.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
// commander imports built-ins as ES modules. Node then builds a namespace of
// every export (touching lazy getters that load more modules), and esbuild's
// CommonJS interop would copy every property: both cost start-up time. These
// facades export exactly what commander imports; should commander import
// anything else, the build fails with a missing export. node:child_process
// serves only executable subcommands, which petstore does not have, so it is
// loaded on first use.
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

await build({
  plugins: [commanderBuiltins, undiciLazyHttp2],
  entryPoints: { petstore: 'src/entry.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  minify: process.env.PETSTORE_BUILD_DEBUG !== "1",
  legalComments: 'linked',
  sourcemap: false,
  define: { PETSTORE_VERSION: JSON.stringify(version) },
  // CommonJS packages inside an ES module bundle need a require of their own.
  // process.getBuiltinModule, not an ESM import of node:module, which would load every export (module.register pulls in workers).
  banner: { js: "const require=process.getBuiltinModule('node:module').createRequire(import.meta.url);" },
  logLevel: 'warning',
});
