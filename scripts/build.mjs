// Bundles src/ into dist/ with esbuild. Code splitting keeps undici, conf and
// zod in chunks that load only when a command needs them.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
// Built-in modules are loaded with require() rather than ESM import: an ESM
// import of a built-in materialises every export (node:util alone then loads
// parse_args, diff, worker...), which costs start-up time. commander's
// node:child_process serves only executable subcommands, which petstore does
// not have, so it is loaded on first use.
const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(b) {
    b.onResolve({ filter: /^node:|^(fs|path|util|events|process|os|tty|stream|url|net|http|https|crypto|child_process|string_decoder|buffer|assert|zlib|querystring|worker_threads|perf_hooks|async_hooks|diagnostics_channel|dns|tls|readline|timers|module|sqlite|util\/types|stream\/web|fs\/promises|timers\/promises|console)$/ }, (args) => {
      if (args.kind !== 'import-statement') return undefined;
      const name = args.path.startsWith('node:') ? args.path : `node:${args.path}`;
      return { path: name, namespace: 'builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
      contents:
        args.path === 'node:child_process'
          ? "let real; const load = () => (real ??= require('node:child_process'));\n" +
            'module.exports = new Proxy({}, { get: (_t, key) => load()[key] });'
          : `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

await build({
  plugins: [builtinsByRequire],
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
