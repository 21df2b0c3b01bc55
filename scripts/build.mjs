// Bundles src/ into dist/ with esbuild. Code splitting keeps undici, conf and
// zod in chunks that load only when a command needs them.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { petstore: 'src/entry.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  minify: true,
  legalComments: 'linked',
  sourcemap: false,
  define: { PETSTORE_VERSION: JSON.stringify(version) },
  // CommonJS packages inside an ES module bundle need a require of their own.
  banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
  logLevel: 'warning',
});
