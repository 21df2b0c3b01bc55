// Bundles src/ with esbuild into dist/petstore.cjs, one CommonJS file whose
// modules start only when a command needs them (undici, conf and zod are
// esbuild lazy-init wrappers), and src/launch.ts into dist/launch.cjs, which
// loads that bundle with a complete V8 code cache (see src/launch.ts).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
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
  define: { PETSTORE_VERSION: JSON.stringify(version) },
});

// src/launch.ts runs the bundle through vm.Script without a module loader.
const dynamicImports = Object.entries(metafile.inputs).flatMap(([file, input]) =>
  input.imports.filter((i) => i.kind === 'dynamic-import' && i.external).map((i) => `${file}: import('${i.path}')`),
);
if (dynamicImports.length > 0) throw new Error(`the bundle must not import() at run time:\n${dynamicImports.join('\n')}`);

// The code cache is keyed per command; the names come from the registry in the bundle.
const { createRequire } = await import('node:module');
const commands = createRequire(import.meta.url)('../dist/petstore.cjs').commandNames();
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
