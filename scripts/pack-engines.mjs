// npm pack's prepack and postpack: package.json carries `engines` in the
// packed package only. There it is true: the bin runs on the Node.js of
// whoever installs the tarball, and npm warns at install time on another.
// In a clone it would not be: `npx petstore` links the clone into npx's cache
// and npm checks the clone's `engines` against the Node.js npm runs on (the
// system's, 20 on Debian 12), while the command then runs on the pinned
// Node.js that `npm ci` installed (node_modules/.bin comes first on PATH);
// that false EBADENGINE warning is what the clone's package.json avoids
// by leaving `engines` out. (docs/install.md, "Node.js older than engines".)
//
//   node scripts/pack-engines.mjs add|remove
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { SUPPORTED_NODE } from './supported-node.mjs';

/** `manifest` (package.json's text) with `engines` after `workspaces`, as npm's packed package.json carries it. */
export function withEngines(manifest) {
  const entries = Object.entries(JSON.parse(manifest)).filter(([key]) => key !== 'engines');
  const at = entries.findIndex(([key]) => key === 'workspaces') + 1 || entries.length;
  entries.splice(at, 0, ['engines', { node: SUPPORTED_NODE }]);
  return `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`;
}

/** `manifest` without `engines`, as the clone keeps it. */
export function withoutEngines(manifest) {
  const { engines: _, ...rest } = JSON.parse(manifest);
  return `${JSON.stringify(rest, null, 2)}\n`;
}

// Run as a script (the tests import the functions): package.json rewritten whole, never seen half-written.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const mode = process.argv[2];
  if (mode !== 'add' && mode !== 'remove') {
    process.stderr.write('usage: node scripts/pack-engines.mjs add|remove\n');
    process.exit(2);
  }
  const file = new URL('../package.json', import.meta.url);
  const text = readFileSync(file, 'utf8');
  const next = mode === 'add' ? withEngines(text) : withoutEngines(text);
  if (next !== text) {
    writeFileSync(new URL('../package.json.pack-engines', import.meta.url), next);
    renameSync(new URL('../package.json.pack-engines', import.meta.url), file);
  }
}
