// The third-party notice of the bundles: name, version, licence and licence
// text of every package esbuild put code of into them, taken from the
// packages themselves by @rnx-kit/third-party-notices.
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
    (layers[layer] ??= []).push(source);
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
  const packages = [...found.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version, 'en', { numeric: true }));
  const unlicensed = packages.filter((p) => !p.text).map((p) => `${p.name}@${p.version}`);
  if (unlicensed.length > 0) throw new Error(`no licence file found in: ${unlicensed.join(', ')}`);
  const missing = [...folders].flatMap(([name, list]) =>
    list.map((folder) => `${name}@${JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')).version}`),
  ).filter((id) => !found.has(id));
  if (missing.length > 0) throw new Error(`the licence collector missed: ${missing.join(', ')}`);
  return packages;
}

const RULE = `\n\n${'='.repeat(78)}\n\n`;

/**
 * The notice text: a header naming `product` and `files`, one section per
 * package (name and version, licence, licence text), then `legalComments`
 * (the licence comments esbuild found inside bundled files) when there are any.
 */
export function noticeText(product, files, packages, legalComments) {
  const intro = `${files} contain code of the ${packages.length} packages below, each under its own licence. This notice is generated at build time from the packages themselves.`;
  const header = `Third-party software in ${product}\n\n${intro.replace(/(.{1,76})(?: |$)/g, '$1\n').trimEnd()}`;
  const sections = packages.map((p) => `${p.name} ${p.version}\nLicense: ${p.license}\n\n${p.text.trim()}`);
  const comments = legalComments.trim() ? [`Licence comments found inside the bundled files:\n\n${legalComments.trim()}`] : [];
  return [header, ...sections, ...comments].join(RULE) + '\n';
}
