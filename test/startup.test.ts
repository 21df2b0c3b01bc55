// Heavy modules stay off the paths that do not need them: --version loads no
// bundle, --help and flag errors start neither undici (which requires
// node:net) nor conf (which requires node:crypto) nor zod, and get starts no
// conf. The positive cases show the probes can see them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { wrapMessage } from '../src/terminal/wrap.js';
import { BIN, run, spawnAsync } from './helpers.js';

const TRACER = fileURLToPath(new URL('./fixtures/trace-requires.cjs', import.meta.url));
const { version: VERSION } = JSON.parse(fs.readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as {
  version: string;
};

/** Module specifiers resolved by one run of the bin, and its exit code. */
async function resolvedModules(args: string[], configHome: string): Promise<{ specifiers: string[]; status: number | null }> {
  const trace = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-trace-')), 'resolved.txt');
  const r = await spawnAsync(process.execPath, ['--require', TRACER, BIN, ...args], {
    PATH: process.env.PATH,
    HOME: configHome,
    XDG_CONFIG_HOME: configHome,
    XDG_CACHE_HOME: configHome,
    TRACE_REQUIRES_FILE: trace,
    PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1',
    PETSTORE_API_KEY: 'k',
  });
  return { specifiers: fs.readFileSync(trace, 'utf8').split('\n'), status: r.code };
}

/** A config folder with a stored config file, so that reading settings needs conf (written in-process: the same file). */
async function storedConfigHome(): Promise<string> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-test-'));
  const r = await run(['config', 'set', 'base-url', 'http://127.0.0.1:9/v1'], { configHome: home, env: { XDG_CACHE_HOME: home } });
  expect(r.code).toBe(0);
  return home;
}

describe('start-up path', () => {
  test.each([[['--version']], [['--help']], [['list', '--limit', '0']], [['get', 'abc']], [['list', '--bogus']]])(
    '%j starts neither undici nor conf',
    async (args) => {
      const { specifiers, status } = await resolvedModules(args, await storedConfigHome());
      expect(status).toBe(args[0]!.startsWith('--') ? 0 : 2);
      expect(specifiers.filter((s) => s === 'node:net' || s === 'node:crypto')).toEqual([]);
      // --version is answered by bin/petstore.js itself, before the launcher (and so the bundle) loads.
      expect(specifiers.some((s) => s.endsWith(`${path.sep}launch.cjs`))).toBe(args[0] !== '--version');
    },
  );

  test('get starts undici', async () => {
    const { specifiers, status } = await resolvedModules(['get', '1', '--json', '--timeout', '2000'], await storedConfigHome());
    expect(status).toBe(1);
    expect(specifiers).toContain('node:net');
  });

  test('reading the stored config does not start conf (it starts only to write)', async () => {
    const { specifiers, status } = await resolvedModules(['config', 'get', 'base-url'], await storedConfigHome());
    expect(status).toBe(0);
    expect(specifiers).not.toContain('node:crypto');
    const written = await resolvedModules(['config', 'set', 'base-url', 'http://127.0.0.1:8/v1'], await storedConfigHome());
    expect(written.status).toBe(0);
    expect(written.specifiers).toContain('node:crypto');
  });
});

test('a clone that was not built says how to build it: the command on a line of its own, its folder quoted for the shell', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "petstore-unbuilt-it's "));
  fs.mkdirSync(path.join(root, 'bin'));
  for (const name of fs.readdirSync(path.dirname(BIN))) fs.copyFileSync(path.join(path.dirname(BIN), name), path.join(root, 'bin', name));
  const r = await spawnAsync(process.execPath, [path.join(root, 'bin', 'petstore.js'), '--help'], { PATH: process.env.PATH });
  expect(r).toEqual({
    code: 1,
    stdout: '',
    stderr: wrapMessage(
      `error: petstore is not built\nBuild it in its clone:\n  cd '${root.replace("'", `'\\''`)}' && npm run build\n`,
      80,
    ),
  });
  const json = await spawnAsync(process.execPath, [path.join(root, 'bin', 'petstore.js'), 'list', '--json'], { PATH: process.env.PATH });
  expect(json.code).toBe(1);
  expect(JSON.parse(json.stderr)).toMatchObject({ code: 'not_built', status: null, hint: expect.stringContaining('npm run build') });
});

test('PETSTORE_DEBUG=1 stack traces name the src/ files (source maps, read only then); --verbose shows the requests and no trace of an expected failure', async () => {
  const list = ['list', '--base-url', 'http://127.0.0.1:9/v1', '--retries', '0'];
  const petstore = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    spawnAsync(process.execPath, [BIN, ...list, ...args], { PATH: process.env.PATH, PETSTORE_API_KEY: 'k', ...env });
  const debug = await petstore([], { PETSTORE_DEBUG: '1' });
  expect(debug.code).toBe(1);
  const refused =
    'error: cannot reach 127.0.0.1:9: ECONNREFUSED\nIs the service running at http://127.0.0.1:9/v1/?\nThe base URL is from --base-url.\n';
  expect(debug.stderr.startsWith(refused)).toBe(true);
  expect(debug.stderr.slice(refused.length)).toMatch(/^RequestError: cannot reach [^\n]*\n {4}at /);
  expect(debug.stderr).toMatch(/\n {4}at .*\(.*src\/api\/client\.ts:\d+:\d+\)\n/);
  const verbose = await petstore(['--verbose']);
  expect({ code: verbose.code, stderr: verbose.stderr }).toEqual({
    code: 1,
    stderr:
      '* environment production, base URL http://127.0.0.1:9/v1/ (from --base-url), key from environment variable\n' +
      '> GET http://127.0.0.1:9/v1/pets?limit=20\n' +
      '> authorization: Bearer [redacted]\n' +
      '> accept: application/json\n' +
      `> user-agent: petstore/${VERSION}\n` +
      refused,
  });
  expect((await petstore([])).stderr).toBe(refused);
});

/**
 * The lazy-loading rule, read from esbuild's account of the bundle
 * (dist/metafile.json): the modules a path loads are the static imports
 * reachable from where it starts; an import() is where loading waits for a
 * command that needs it.
 */
describe('which modules a path may load', () => {
  const [bundle] = JSON.parse(fs.readFileSync(fileURLToPath(new URL('../dist/metafile.json', import.meta.url)), 'utf8')) as Array<{
    inputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }> }>;
  }>;
  const inputs = bundle!.inputs;
  /** Source files and packages (by name) that starting from `roots` loads. */
  function loads(roots: string[]): string[] {
    const seen = new Set<string>();
    const stack = [...roots];
    while (stack.length > 0) {
      const file = stack.pop()!;
      if (seen.has(file) || !inputs[file]) continue;
      seen.add(file);
      for (const i of inputs[file].imports) if (i.kind !== 'dynamic-import' && !i.external) stack.push(i.path);
    }
    const names = [...seen].map((f) =>
      f.startsWith('node_modules/')
        ? f
            .split('/')
            .slice(1, f.split('/')[1]!.startsWith('@') ? 3 : 2)
            .join('/')
        : f,
    );
    return [...new Set(names)].sort();
  }
  const packages = (names: string[]) => names.filter((n) => !n.startsWith('src/'));

  test('--help and flag errors (the bundle starting): commander and its help text only, so neither undici, conf nor zod', () => {
    expect(packages(loads(['src/entry.ts']))).toEqual(['@commander-js/extra-typings', 'ansi-regex', 'commander', 'strip-ansi']);
  });

  test('get: the client (undici, Link headers), the config read (env-paths), zod and the JSON view; neither conf nor colour, display widths or jq', () => {
    const get = loads([
      'src/entry.ts',
      'src/commands/get/get.ts',
      // Its import()s on the way to printing JSON, and the Factory's for the client and the stored key.
      ...inputs['src/commands/get/get.ts']!.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path),
      'src/api/client.ts',
      'src/config.ts',
    ]);
    expect(packages(get)).toEqual([
      '@commander-js/extra-typings',
      'ansi-regex',
      'commander',
      'env-paths',
      'http-link-header',
      'is-safe-filename',
      'strip-ansi',
      'undici',
      'zod',
    ]);
  });
});
