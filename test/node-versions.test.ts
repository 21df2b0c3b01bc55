// Which Node.js versions petstore runs on: bin/petstore.js accepts exactly
// those of scripts/supported-node.mjs (the packed package's "engines") and on
// any other prints the ways out (a supported Node, or the Debian package, the
// RPM package or the standalone executable) as main prints an error: wrapped
// at stderr's width (80 when it is no terminal) by the rule of wrapMessage,
// or with --json one JSON error object. CI's lowest Node (.ci/lowest-node) is
// the lowest of the range. On a real older Node (the system's, 20 on Debian
// 12, where there is one): that message, and `npx petstore` in the clone with
// nothing of npm's on stderr, as with the Node running these tests (the
// lowest in CI's first run).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, test } from 'vitest';
// @ts-expect-error: the build scripts are plain JavaScript without type declarations
import { withEngines, withoutEngines } from '../scripts/pack-engines.mjs';
// @ts-expect-error: the build scripts are plain JavaScript without type declarations
import { SUPPORTED_NODE } from '../scripts/supported-node.mjs';
import { wrapMessage } from '../src/terminal/wrap.js';
import { BIN, posingAs, runsHere, spawnAsync } from './helpers.js';
import { startSandbox } from './support/sandbox.js';

const ROOT = path.dirname(path.dirname(BIN));
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json'));
/** PATH with the Node that runs these tests and the system's tools. */
const NODE_PATH = `${path.dirname(process.execPath)}:/usr/bin:/bin`;

/** bin/petstore.js's error on Node `version`, which it does not support: its message and its hint (the ways out). */
const refused = (version: string) => ({
  code: 'unsupported_node',
  message: `petstore needs Node.js 22.22.2 or a later 22, 24.15 or a later 24, or 26 and newer; this is Node.js ${version}`,
  status: null,
  hint:
    'Install a supported Node.js (the current LTS will do). Or, on Linux, build in a clone of petstore (README, "Install") ' +
    'a petstore that carries its own Node.js, one of:\n' +
    'the Debian package (.deb), for apt install:\n' +
    '  npm ci && npm run build:deb\n' +
    'the RPM package (.rpm), for dnf install:\n' +
    '  npm ci && npm run build:rpm\n' +
    'the standalone executable, to copy to ~/.local/bin/petstore:\n' +
    '  npm ci && npm run build:standalone',
});

/** What bin/petstore.js prints on Node `version` on a stderr `width` columns wide: the error as main wraps one. */
const refusal = (version: string, width = 80) => {
  const { message, hint } = refused(version);
  return `${wrapMessage(`error: ${message}\n${hint}`, width)}\n`;
};

describe('supported Node.js versions', () => {
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
  ])('Node %s: accepted %s, as scripts/supported-node.mjs says', async (version, accepted) => {
    expect(semver.satisfies(version, SUPPORTED_NODE)).toBe(accepted);
    const r = await spawnAsync(process.execPath, [...posingAs(version), BIN, '--version'], { PATH: NODE_PATH });
    expect(r).toEqual(accepted ? { code: 0, stdout: `${pkg.version}\n`, stderr: '' } : { code: 1, stdout: '', stderr: refusal(version) });
  });

  test("the refusal wraps at stderr's width between words (80 piped), names the standalone executable, the .deb and the .rpm", async () => {
    for (const columns of [undefined, 60, 44]) {
      const r = await spawnAsync(process.execPath, [...posingAs('20.20.2', columns), BIN, 'list'], { PATH: NODE_PATH });
      const width = columns ?? 80;
      expect(r).toEqual({ code: 1, stdout: '', stderr: refusal('20.20.2', width) });
      for (const line of r.stderr.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(width);
      // The same words as the message and its hint: nothing lost, nothing split.
      const { message, hint } = refused('20.20.2');
      expect(r.stderr.replace(/ \\\n/g, ' ').split(/\s+/).filter(Boolean)).toEqual(`error: ${message} ${hint}`.split(/\s+/));
    }
    for (const way of ['standalone executable', '.deb', '.rpm', 'npm run build:deb', 'npm run build:rpm', 'npm run build:standalone'])
      expect(refusal('20.20.2')).toContain(way);
  });

  test('with --json anywhere on the line, the refusal is one JSON error object on stderr, as main writes one', async () => {
    for (const args of [
      ['--json', 'list'],
      ['list', '--json'],
      ['get', '1', '--json'],
    ]) {
      const r = await spawnAsync(process.execPath, [...posingAs('20.20.2', 60), BIN, ...args], { PATH: NODE_PATH });
      expect(r).toEqual({ code: 1, stdout: '', stderr: `${JSON.stringify(refused('20.20.2'))}\n` });
    }
  });

  test('the Node running these tests is supported, and CI installs the lowest one of the range', () => {
    expect(semver.satisfies(process.versions.node, SUPPORTED_NODE)).toBe(true);
    const lowest = JSON.parse(read('.ci/lowest-node/package.json')).devDependencies.node;
    expect(lowest).toBe(semver.minVersion(SUPPORTED_NODE)!.version);
    expect(JSON.parse(read('.ci/lowest-node/package-lock.json')).packages['node_modules/node'].version).toBe(lowest);
  });
});

describe('engines: in the packed package.json, not in the clone', () => {
  test("npm pack's prepack adds engines after workspaces, its postpack removes them: package.json is as it was", () => {
    const text = read('package.json');
    expect(pkg.engines).toBeUndefined();
    expect(pkg.scripts.prepack).toBe('npm run build && node scripts/pack-engines.mjs add');
    expect(pkg.scripts.postpack).toBe('node scripts/pack-engines.mjs remove');
    const packed = withEngines(text);
    const keys = Object.keys(JSON.parse(packed));
    expect(keys.slice(keys.indexOf('workspaces'), keys.indexOf('workspaces') + 2)).toEqual(['workspaces', 'engines']);
    expect(JSON.parse(packed).engines).toEqual({ node: SUPPORTED_NODE });
    expect(withEngines(packed)).toBe(packed);
    expect(withoutEngines(packed)).toBe(text);
  });
});

/** The system's Node.js older than the range, outside node_modules (`which -a node`: Debian 12's /usr/bin/node is 20), if any. */
function olderSystemNode(): string | undefined {
  const found = spawnSync('sh', ['-c', 'which -a node'], { encoding: 'utf8', env: { PATH: '/usr/local/bin:/usr/bin:/bin' } });
  return found.stdout
    .split('\n')
    .filter((file) => file && !file.includes('node_modules'))
    .find((file) => {
      const version = spawnSync(file, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
      return semver.valid(version) && !semver.satisfies(version, SUPPORTED_NODE);
    });
}
const systemNode = olderSystemNode();
/** The system's npx, which runs on the first node of PATH. */
const npx = spawnSync('sh', ['-c', 'command -v npx'], { encoding: 'utf8', env: { PATH: '/usr/local/bin:/usr/bin:/bin' } }).stdout.trim();

describe.runIf(
  runsHere(
    systemNode !== undefined,
    'an older system Node.js',
    'on a machine whose system Node.js is older than the range (Debian 12: apt-get install nodejs npm)',
  ),
)('on the system Node.js older than the range', () => {
  test('bin/petstore.js, as a global install runs it, exits 1 with the message, whatever the command', async () => {
    const version = spawnSync(systemNode!, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    for (const args of [['--version'], ['list'], []]) {
      expect(await spawnAsync(systemNode!, [BIN, ...args], { PATH: '/usr/bin:/bin' })).toEqual({
        code: 1,
        stdout: '',
        stderr: refusal(version),
      });
    }
    expect(await spawnAsync(systemNode!, [BIN, '--json', 'list'], { PATH: '/usr/bin:/bin' })).toEqual({
      code: 1,
      stdout: '',
      stderr: `${JSON.stringify(refused(version))}\n`,
    });
  });

  test('the sandbox started on it (node sandbox/server.mjs) refuses in one line naming npm run sandbox, exit 1, and never listens', async () => {
    const r = await spawnAsync(systemNode!, [path.join(ROOT, 'sandbox', 'server.mjs'), '--port', '0'], { PATH: '/usr/bin:/bin' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^petstore sandbox: needs Node\.js [^\n]*, not v[\d.]+: start it with "npm run sandbox", [^\n]*\n$/);
  });
});

/**
 * Runs the system's `npx petstore args` in the clone on the Node.js `nodeDir` holds (first on PATH), with `home` and an npm cache
 * in it: on the first call with a cache, npx links the clone into it, where npm checks engines.
 */
async function npxInClone(nodeDir: string, home: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnAsync(
    npx,
    ['petstore', ...args],
    // Nothing of npm's hidden here: its update notice (a fresh cache has never checked) is the clone's .npmrc's to turn off.
    { PATH: `${nodeDir}:/usr/bin:/bin`, HOME: home, npm_config_cache: path.join(home, 'cache'), ...env },
    '',
    { cwd: ROOT },
  );
}

describe.runIf(runsHere(npx !== '', 'npx petstore in the clone', 'install npm (apt-get install npm)'))(
  'npx petstore in the clone, the README route on an older Node.js',
  () => {
    test("the clone's .npmrc turns npm's update notice off, whatever the user's own npm settings (a fresh HOME)", async () => {
      const home = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-npmrc-'));
      const npm = path.join(path.dirname(npx), 'npm');
      const r = await spawnAsync(npm, ['config', 'get', 'update-notifier', 'engine-strict'], { PATH: NODE_PATH, HOME: home }, '', {
        cwd: ROOT,
      });
      expect(r).toEqual({ code: 0, stdout: 'update-notifier=false\nengine-strict=false\n', stderr: '' });
    });

    test.each([
      ['the system Node.js older than the range', systemNode && path.dirname(systemNode)],
      ['the Node.js running these tests (the lowest of the range in CI)', path.dirname(process.execPath)],
    ])(
      "on %s: the pinned Node.js runs it, and nothing of npm's reaches stderr, on the first call as on the next",
      async (_, dir) => {
        if (!dir) return;
        const sandbox = await startSandbox({ key: 'npx-key', firstId: 1n });
        try {
          const env = {
            PETSTORE_BASE_URL: sandbox.baseUrl,
            PETSTORE_API_KEY: 'npx-key',
            XDG_CONFIG_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-npx-config-')),
          };
          const home = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-npx-'));
          expect(await npxInClone(dir, home, ['list', '--json'], env)).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
          expect(await npxInClone(dir, home, ['--version'])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
          expect(sandbox.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/pets?limit=20']);
        } finally {
          await sandbox.close();
        }
      },
      60_000,
    );
  },
);
