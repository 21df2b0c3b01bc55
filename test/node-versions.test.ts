// Which Node.js versions petstore runs on: bin/petstore.js accepts exactly
// those of package.json's "engines" and names the two ways out on any other,
// and CI's lowest Node (.ci/lowest-node) is the lowest that "engines" allows.
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, test } from 'vitest';
import { BIN, spawnAsync } from './helpers.js';

const ROOT = path.dirname(path.dirname(BIN));
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json'));
/** PATH with the Node that runs these tests and the system's tools. */
const NODE_PATH = `${path.dirname(process.execPath)}:/usr/bin:/bin`;

describe('supported Node.js versions', () => {
  const refusal = (version: string) =>
    `petstore needs Node.js 22.22.2 or a later 22, 24.15 or a later 24, or 26 and newer (found v${version}).\n` +
    'Two ways out:\n' +
    '  - install a supported Node.js (the current LTS will do), or\n' +
    '  - use the standalone executable, which needs no Node.js (Linux): in a clone of petstore run\n' +
    `    "npm ci && npm run build:standalone", then copy dist/petstore-${process.platform}-${process.arch} to a folder on your PATH,\n` +
    '    for example ~/.local/bin/petstore (README, "Install").\n';

  test.each([
    ['20.20.2', false],
    ['22.20.0', false],
    ['22.22.1', false],
    ['22.22.2', true],
    ['22.23.1', true],
    ['23.11.1', false],
    ['24.14.1', false],
    ['24.15.0', true],
    ['24.21.0', true],
    ['25.9.0', false],
    ['26.0.0', true],
    ['27.2.0', true],
  ])('Node %s: accepted %s, as package.json engines says', async (version, accepted) => {
    expect(semver.satisfies(version, pkg.engines.node)).toBe(accepted);
    const fake = `data:text/javascript,Object.defineProperty(process.versions,'node',{value:'${version}'})`;
    const r = await spawnAsync(process.execPath, ['--import', fake, BIN, '--version'], { PATH: NODE_PATH });
    expect(r).toEqual(accepted ? { code: 0, stdout: `${pkg.version}\n`, stderr: '' } : { code: 1, stdout: '', stderr: refusal(version) });
  });

  test('the Node running these tests is supported, and CI installs the lowest one engines allows', () => {
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
    const lowest = JSON.parse(read('.ci/lowest-node/package.json')).devDependencies.node;
    expect(lowest).toBe(semver.minVersion(pkg.engines.node)!.version);
    expect(JSON.parse(read('.ci/lowest-node/package-lock.json')).packages['node_modules/node'].version).toBe(lowest);
  });
});
