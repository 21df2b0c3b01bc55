// Run before every build (npm's prebuild): npm's scripts run on the Node in
// node_modules/.bin, the pinned one of scripts/pinned-node (.nvmrc), or on the
// system Node where npm ci skipped it (an optional dependency: the registry
// has no binary of that version for every platform, macOS among them). Either
// must be one petstore supports (scripts/supported-node.mjs, the packed
// package's engines); otherwise this stops with what to do.
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { SUPPORTED_NODE } from './supported-node.mjs';

const root = new URL('..', import.meta.url);
const pinned = readFileSync(new URL('.nvmrc', root), 'utf8').trim();
if (!semver.satisfies(process.versions.node, SUPPORTED_NODE)) {
  process.stderr.write(
    `petstore's scripts need Node.js ${SUPPORTED_NODE} (scripts/supported-node.mjs); this is Node.js ${process.version} (${process.execPath}).\n` +
      `npm ci installs the pinned Node.js ${pinned} (node_modules/.bin/node, which npm's scripts run on) only where the registry has a binary of it for the platform.\n` +
      `Install Node.js ${pinned} (the version in .nvmrc; "nvm install" reads it) or another of that range, then run the command again.\n`,
  );
  process.exit(1);
}
