// Bundles src/ with esbuild into dist/petstore.cjs, one CommonJS file whose
// modules start only when a command needs them (undici, conf and zod are
// esbuild lazy-init wrappers), src/launch.ts into dist/launch.cjs, which
// runs that bundle with a complete V8 code cache (see src/launch.ts), and
// src/standalone.ts into dist/standalone.cjs, the main script of the
// standalone executable (scripts/build-standalone.mjs). Then writes
// dist/THIRD-PARTY-NOTICES.txt (scripts/notices.mjs; the licences of the
// libraries compiled into jq.wasm come from licenses/). dist/metafile.json
// (esbuild's account of what went into each bundle) is for the package test
// and is not shipped. The man page is the next step of `npm run build`
// (scripts/man.mjs).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { bundledSources, collectLicences, jqWasmContents, noticeText, undiciContents } from './notices.mjs';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = (name) => fileURLToPath(new URL(`../dist/${name}`, import.meta.url));
const { name, version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// jq's WebAssembly (the jq-wasm/jq.wasm export) travels inside the bundle, so
// that neither the npm package nor a single executable needs a file beside it;
// brotli-compressed, because every start reads and hashes the whole bundle
// (0.37 MB of base64 instead of 1.24 MB; src/output/jq-worker.ts decompresses it).
const jqWasmFile = require.resolve('jq-wasm/jq.wasm');
const jqWasmBytes = readFileSync(jqWasmFile);
const jqWasm = brotliCompressSync(jqWasmBytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
// Earlier builds' files go, so that the package ships only this build's; the
// standalone executable and its notice (scripts/build-standalone.mjs, not in
// the package) stay, as do the Debian and RPM packages: a user may copy the
// executable, or install a package, after any build.
const STANDALONE =
  /^petstore-[a-z0-9]+-[a-z0-9]+(\.exe)?(\.NOTICES\.txt)?$|^petstore_[^_]+_[a-z0-9]+\.deb$|^petstore-[^-]+-[^-]+\.[a-z0-9_]+\.rpm$|^petstore\.rpmlintrc$/;
for (const entry of existsSync(dist('')) ? readdirSync(dist('')) : []) {
  if (!STANDALONE.test(entry)) rmSync(dist(entry), { recursive: true, force: true });
}
// Licence comments inside bundled files go to <bundle>.LEGAL.txt, then into the notice.
const shared = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  logLevel: 'warning',
  metafile: true,
  legalComments: 'external',
};
const minify = process.env.PETSTORE_BUILD_DEBUG !== '1';

// jq runs in a worker thread (src/output/jq-thread.ts) started from text with
// `eval: true`, which a single executable, with no file beside it, can start
// too: src/output/jq-worker.ts, with jq-wasm and jq.wasm, is bundled on its
// own and carried in the main bundle as a string.
const jqWorker = await build({
  ...shared,
  entryPoints: ['src/output/jq-worker.ts'],
  outfile: dist('jq-worker.cjs'),
  write: false,
  minify,
  define: {
    PETSTORE_JQ_WASM: JSON.stringify(jqWasm.toString('base64')),
    // jq-wasm's ES module reads its own URL when it starts (unused: it is given
    // the .wasm bytes); a worker started from text has none.
    'import.meta.url': JSON.stringify('file:///petstore-jq-worker.cjs'),
  },
});
const jqWorkerText = (name) => jqWorker.outputFiles.find((file) => file.path === dist(name))?.text ?? '';

const main = await build({
  ...shared,
  entryPoints: ['src/entry.ts'],
  outfile: dist('petstore.cjs'),
  // Read only when a stack trace is asked for (src/launch.ts); names src/ files, without their text.
  sourcemap: 'linked',
  sourcesContent: false,
  minify,
  // ES modules that read import.meta.url get the bundle's own URL: esbuild
  // leaves import.meta empty in CommonJS.
  // ("use strict" first: the bundle's own directive would no longer be one.)
  banner: { js: '"use strict";\nvar __importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: {
    PETSTORE_VERSION: JSON.stringify(version),
    // The man page's date (src/commands/man-page.ts): SOURCE_DATE_EPOCH (reproducible builds), else the day of the build.
    PETSTORE_BUILD_DATE: JSON.stringify(
      new Date(process.env.SOURCE_DATE_EPOCH ? Number(process.env.SOURCE_DATE_EPOCH) * 1000 : Date.now()).toISOString().slice(0, 10),
    ),
    PETSTORE_JQ_WORKER: JSON.stringify(jqWorkerText('jq-worker.cjs')),
    'import.meta.url': '__importMetaUrl',
  },
});

// src/launch.ts runs the bundle through vm.Script without a module loader.
const dynamicImports = Object.entries(main.metafile.inputs).flatMap(([file, input]) =>
  input.imports.filter((i) => i.kind === 'dynamic-import' && i.external).map((i) => `${file}: import('${i.path}')`),
);
if (dynamicImports.length > 0) throw new Error(`the bundle must not import() at run time:\n${dynamicImports.join('\n')}`);

// The code cache files are named by this hash: a rebuilt bundle never meets an old cache.
const bundleHash = createHash('sha256')
  .update(readFileSync(dist('petstore.cjs')))
  .digest('hex')
  .slice(0, 16);
const launcherDefine = {
  PETSTORE_VERSION: JSON.stringify(version),
  PETSTORE_BUNDLE_HASH: JSON.stringify(bundleHash),
};
const launcher = await build({ ...shared, entryPoints: ['src/launch.ts'], outfile: dist('launch.cjs'), minify, define: launcherDefine });
const standalone = await build({
  ...shared,
  entryPoints: ['src/standalone.ts'],
  outfile: dist('standalone.cjs'),
  minify,
  define: launcherDefine,
});

const metafiles = [main.metafile, jqWorker.metafile, launcher.metafile, standalone.metafile];
writeFileSync(dist('metafile.json'), JSON.stringify(metafiles));
let legalComments = jqWorkerText('jq-worker.cjs.LEGAL.txt').replace(/^Bundled license information:\n+/, '');
for (const file of ['petstore.cjs', 'launch.cjs', 'standalone.cjs'].map((f) => dist(`${f}.LEGAL.txt`))) {
  if (!existsSync(file)) continue;
  legalComments += readFileSync(file, 'utf8').replace(/^Bundled license information:\n+/, '');
  rmSync(file);
}
const packages = await collectLicences(root, bundledSources(metafiles));
const files = 'dist/petstore.cjs, dist/launch.cjs and the standalone executable';
const compiled = [jqWasmContents(root, jqWasmFile, jqWasmBytes), undiciContents(root, dirname(require.resolve('undici/package.json')))];
const notice = noticeText(`${name} ${version}`, files, packages, legalComments, compiled);
writeFileSync(dist('THIRD-PARTY-NOTICES.txt'), notice);
