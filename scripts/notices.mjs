// The third-party notice of the bundles: name, version, licence and licence
// text of every package esbuild put code of into them, taken from the
// packages themselves by @rnx-kit/third-party-notices, and of the libraries
// compiled into jq-wasm's and undici's WebAssembly, whose texts are kept under
// licenses/.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeThirdPartyNotices } from '@rnx-kit/third-party-notices';

/**
 * The source files of installed packages that put code into an output of
 * esbuild `metafiles` (paths relative to the project root, as esbuild gives them).
 */
export function bundledSources(metafiles) {
  const sources = new Set();
  for (const { outputs } of metafiles) {
    for (const output of Object.values(outputs)) {
      for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
        if (bytesInOutput > 0 && file.includes('node_modules/')) sources.add(file);
      }
    }
  }
  return [...sources].sort();
}

/** `node_modules/a/node_modules/@s/b/x.js` → the folder `…/@s/b` and the name `@s/b`. */
function packageOf(source) {
  const at = source.lastIndexOf('node_modules/') + 'node_modules/'.length;
  const parts = source.slice(at).split('/');
  const name = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  return { name, folder: source.slice(0, at) + name };
}

/**
 * The packages of `sources`, each with name, version, license (SPDX) and text
 * (its licence file), sorted by name and version. Throws when a package has
 * no licence file, or when the collector missed a package that put code into
 * the bundle.
 *
 * The collector keys packages by name, so two versions of one package (here
 * ansi-regex 5 and 6) would keep only one: it is asked once for each "layer"
 * of sources in which every name has one folder.
 */
export async function collectLicences(root, sources) {
  const layers = [];
  const folders = new Map();
  for (const source of sources) {
    const { name, folder } = packageOf(source);
    const seen = folders.get(name) ?? [];
    if (!seen.includes(folder)) seen.push(folder);
    folders.set(name, seen);
    const layer = seen.indexOf(folder);
    layers[layer] ??= [];
    layers[layer].push(source);
  }
  const scratch = mkdtempSync(join(tmpdir(), 'petstore-notices-'));
  const found = new Map();
  try {
    for (const [i, layer] of layers.entries()) {
      const sourceMapFile = join(scratch, `${i}.map`);
      const outputFile = join(scratch, `${i}.json`);
      writeFileSync(sourceMapFile, JSON.stringify({ version: 3, sources: layer, mappings: '' }));
      await writeThirdPartyNotices({ rootPath: root, sourceMapFile, outputFile, json: true, fullLicenseText: true });
      for (const p of JSON.parse(readFileSync(outputFile, 'utf8')).packages) found.set(`${p.name}@${p.version}`, p);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const packages = [...found.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version, 'en', { numeric: true }),
  );
  const unlicensed = packages.filter((p) => !p.text).map((p) => `${p.name}@${p.version}`);
  if (unlicensed.length > 0) throw new Error(`no licence file found in: ${unlicensed.join(', ')}`);
  const missing = [...folders]
    .flatMap(([name, list]) =>
      list.map((folder) => `${name}@${JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')).version}`),
    )
    .filter((id) => !found.has(id));
  if (missing.length > 0) throw new Error(`the licence collector missed: ${missing.join(', ')}`);
  return packages;
}

/**
 * What jq-wasm's jq.wasm holds besides jq-wasm's own code: jq and the libraries
 * jq links statically (jq.wasm's build line says `--with-oniguruma=builtin`;
 * decNumber is in jq's tree). `marker` is a string of each found in jq.wasm;
 * `file` is its licence text under licenses/ (where each comes from:
 * licenses/README.md).
 */
const JQ_WASM_CONTENTS = [
  { name: 'jq', version: '1.8.2', license: 'MIT', file: 'licenses/jq-1.8.2/COPYING', marker: 'jq - commandline JSON processor' },
  { name: 'Oniguruma', version: '6.9.10', license: 'BSD-2-Clause', file: 'licenses/oniguruma-6.9.10/COPYING', marker: 'onig_initialize' },
  { name: 'decNumber', version: '3.68', license: 'ICU', file: 'licenses/decNumber-3.68/ICU-license.txt', marker: 'have_decnum' },
  // jq.wasm's build line names the compiler, Emscripten's emcc, whose runtime (and the JavaScript around jq.wasm) it links in.
  {
    name: 'Emscripten',
    version: '6.0.0',
    license: 'MIT OR NCSA',
    file: 'licenses/emscripten-6.0.0/LICENSE',
    marker: 'CC=/emsdk/upstream/emscripten/emcc',
  },
  // Emscripten's C library is musl's: its strerror text (glibc's differs).
  { name: 'musl', version: '1.2.6', license: 'MIT', file: 'licenses/musl-1.2.6/COPYRIGHT', marker: 'Illegal byte sequence' },
];

/**
 * The libraries compiled into `wasmFile` (the jq.wasm of an installed jq-wasm),
 * for noticeText: `{ within, packages }`, `within` naming the jq-wasm package
 * (name and version), `packages` as collectLicences gives them, texts read
 * from `root`/licenses/; `bytes` are jq.wasm's when the caller has read them.
 * Throws when this jq-wasm was built from another jq,
 * or when a library's marker is no longer in jq.wasm: the list above and
 * licenses/ must then be checked again.
 */
export function jqWasmContents(root, wasmFile, bytes = readFileSync(wasmFile)) {
  const folder = wasmFile.slice(0, wasmFile.lastIndexOf('/jq-wasm/') + '/jq-wasm'.length);
  const { name, version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  const jq = JQ_WASM_CONTENTS[0];
  if (!version.endsWith(`-jq-${jq.version}`)) {
    throw new Error(
      `${name} ${version} is not built from jq ${jq.version}: check what its jq.wasm holds, then JQ_WASM_CONTENTS and licenses/`,
    );
  }
  const wasm = bytes.toString('latin1');
  const packages = JQ_WASM_CONTENTS.map(({ marker, file, ...p }) => {
    if (!wasm.includes(marker))
      throw new Error(`${p.name} (${JSON.stringify(marker)}) is no longer in ${wasmFile}: check JQ_WASM_CONTENTS`);
    return { ...p, text: readFileSync(join(root, file), 'utf8') };
  });
  return { within: `${name} ${version}`, packages };
}

/**
 * undici's HTTP/1.1 parser is llhttp compiled to WebAssembly, carried as
 * base64 in these files of the undici package, by their SHA-256: those of
 * undici 8.10.0 to 8.12.4, built from llhttp 9.3.1 (undici's
 * deps/llhttp/include/llhttp.h).
 */
const LLHTTP = { name: 'llhttp', version: '9.3.1', license: 'MIT', file: 'licenses/llhttp-9.3.1/LICENSE' };
const LLHTTP_WASM = {
  'lib/llhttp/llhttp-wasm.js': '5d8313d6fe8145d832e6af9959b2810523c9a6993d5b93cee09bd7e5f1f2c085',
  'lib/llhttp/llhttp_simd-wasm.js': 'a3f30f3307ab3c191720cb636d570febb3610c420bc7077f2e225dacfcad3295',
};

/**
 * What undici (installed in `undiciFolder`) has compiled in, for noticeText:
 * `{ within, packages }` as jqWasmContents gives it, llhttp with its licence
 * text from `root`/licenses/. Throws when undici's llhttp WebAssembly is not
 * the one recorded above: llhttp's version and licence must then be checked
 * again.
 */
export function undiciContents(root, undiciFolder) {
  const { name, version } = JSON.parse(readFileSync(join(undiciFolder, 'package.json'), 'utf8'));
  for (const [file, sha256] of Object.entries(LLHTTP_WASM)) {
    if (
      createHash('sha256')
        .update(readFileSync(join(undiciFolder, file)))
        .digest('hex') !== sha256
    ) {
      throw new Error(
        `${name} ${version}'s ${file} is not the llhttp ${LLHTTP.version} recorded in scripts/notices.mjs: check LLHTTP and licenses/`,
      );
    }
  }
  const { file, ...llhttp } = LLHTTP;
  return { within: `${name} ${version}`, packages: [{ ...llhttp, text: readFileSync(join(root, file), 'utf8') }] };
}

const RULE = `\n\n${'='.repeat(78)}\n\n`;

/** Text wrapped at 76 columns. */
const wrap = (text) => text.replace(/(.{1,76})(?: |$)/g, '$1\n').trimEnd();
const section = (p) => `${p.name} ${p.version}\nLicense: ${p.license}\n\n${p.text.trim()}`;
const names = (packages) =>
  packages
    .map((p) => `${p.name} ${p.version}`)
    .join(', ')
    .replace(/, ([^,]*)$/, ' and $1');

/**
 * The notice text: a header naming `product` and `files`, one section per
 * package (name and version, licence, licence text), then the libraries
 * compiled into packages (`compiled`: a list of `{ within, packages }` as
 * jqWasmContents and undiciContents give them), then `legalComments` (the
 * licence comments esbuild found inside bundled files) when there are any.
 */
export function noticeText(product, files, packages, legalComments, compiled = []) {
  const groups = (Array.isArray(compiled) ? compiled : [compiled]).filter((group) => group.packages.length > 0);
  const inside = groups.map((group) => `, and of ${names(group.packages)}, compiled into ${group.within}`).join('');
  const from = groups.length > 0 ? ' and, for those compiled into a package, from their sources' : '';
  const intro = `${files} contain code of the ${packages.length} packages below${inside}, each under its own licence. This notice is generated at build time from the packages themselves${from}.`;
  const header = `Third-party software in ${product}\n\n${wrap(intro)}`;
  const sections = packages.map(section);
  const more = groups.flatMap((group) => [
    wrap(
      `Compiled into ${group.within} (its WebAssembly): ${names(group.packages)}. Their licence texts are not in the package; they are copied from their sources.`,
    ),
    ...group.packages.map(section),
  ]);
  const comments = legalComments.trim() ? [`Licence comments found inside the bundled files:\n\n${legalComments.trim()}`] : [];
  return `${[header, ...sections, ...more, ...comments].join(RULE)}\n`;
}
