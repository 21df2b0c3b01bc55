// The layers of src/ point one way (docs/design.md, "Layers"): commands ->
// output and bulk -> the IO streams -> api and the terminal -> settings and
// config -> errors and plain helpers. No import, a type import included, runs
// back up, and no module imports itself through others. RULES says what some
// parts never import besides: bulk/ no Factory, IO streams or output; api/ no
// settings or config; no command but add imports bulk/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Each module's layer, by its path under src/ (the first prefix that matches); a higher layer may import a lower one. */
const LAYERS: [prefix: string, layer: number][] = [
  ['errors.ts', 0],
  ['json.ts', 0],
  ['interface-values.ts', 0],
  ['text.ts', 0],
  ['suggest.ts', 0],
  ['flag-bounds.ts', 0],
  ['counts.ts', 0],
  ['loopback.ts', 0],
  ['fifo.ts', 0],
  ['config.ts', 1],
  ['settings.ts', 1],
  ['api/', 2],
  ['terminal/', 2],
  ['iostreams.ts', 3],
  ['factory.ts', 4],
  ['output/', 4],
  ['bulk/', 4],
  ['commands/', 5],
  ['completion/', 4],
  ['program.ts', 6],
  ['main.ts', 7],
  ['entry.ts', 8],
  ['launch.ts', 8],
  ['standalone.ts', 8],
];

function modules(): string[] {
  return fs
    .readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.split(path.sep).join('/'));
}

function layerOf(module: string): number {
  const found = LAYERS.find(([prefix]) => module === prefix || (prefix.endsWith('/') && module.startsWith(prefix)));
  if (!found) throw new Error(`src/${module} has no layer in test/layers.test.ts`);
  return found[1];
}

/** The modules of src/ that `module` imports (static, dynamic, and type-only), as paths under src/. */
function importsOf(module: string): string[] {
  const text = fs.readFileSync(path.join(SRC, module), 'utf8');
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)'(\.{1,2}\/[^']+)'/gm)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(module), match[1]!)).replace(/\.js$/, '.ts');
    found.add(target);
  }
  return [...found];
}

test('every import runs down the layers, never up', () => {
  const upward: string[] = [];
  for (const module of modules()) {
    for (const target of importsOf(module)) {
      if (layerOf(target) > layerOf(module)) upward.push(`${module} -> ${target}`);
    }
  }
  expect(upward).toEqual([]);
});

/** What a part of src/ never imports, beyond the layers' order (docs/design.md, "Layers"), and why. */
const RULES: { part: string; except?: string; never: string[]; why: string }[] = [
  {
    part: 'bulk/',
    never: ['factory.ts', 'iostreams.ts', 'output/', 'terminal/', 'commands/', 'completion/', 'settings.ts', 'config.ts'],
    why: 'bulk/ is handed what it needs by its command (bulk/load-context.ts, made in commands/add/add-file.ts)',
  },
  {
    part: 'api/',
    never: ['settings.ts', 'config.ts'],
    why: 'the client is handed its options (ClientOptions, api/requests.ts)',
  },
  {
    part: 'commands/',
    except: 'commands/add/',
    never: ['bulk/'],
    why: "bulk/ is add --file's: what another command shares with it lives lower (fifo.ts)",
  },
];

/** The imports of `module` that `rule` forbids. */
function broken(rule: (typeof RULES)[number], module: string, targets: readonly string[]): string[] {
  if (!module.startsWith(rule.part) || (rule.except && module.startsWith(rule.except))) return [];
  return targets.filter((target) => rule.never.some((never) => target === never || (never.endsWith('/') && target.startsWith(never))));
}

test.each(RULES)('$part imports none of $never: $why', (rule) => {
  const found = modules().flatMap((module) => broken(rule, module, importsOf(module)).map((target) => `${module} -> ${target}`));
  expect(found).toEqual([]);
});

test('the rules catch what they forbid (a check that cannot pass by reading nothing)', () => {
  expect(broken(RULES[0]!, 'bulk/load-sending.ts', ['factory.ts', 'output/views.ts', 'api/client.ts'])).toEqual([
    'factory.ts',
    'output/views.ts',
  ]);
  expect(broken(RULES[1]!, 'api/transport.ts', ['settings.ts'])).toEqual(['settings.ts']);
  expect(broken(RULES[2]!, 'commands/api/request.ts', ['bulk/open-input.ts'])).toEqual(['bulk/open-input.ts']);
  expect(broken(RULES[2]!, 'commands/add/add-file.ts', ['bulk/open-input.ts'])).toEqual([]);
  expect(importsOf('bulk/bulk-load.ts')).toContain('bulk/load-context.ts');
});

test('no import cycle', () => {
  const graph = new Map(modules().map((module) => [module, importsOf(module)]));
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (module: string, trail: string[]) => {
    if (state.get(module) === 'done') return;
    if (state.get(module) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(module)), module].join(' -> '));
      return;
    }
    state.set(module, 'open');
    for (const target of graph.get(module) ?? []) visit(target, [...trail, module]);
    state.set(module, 'done');
  };
  for (const module of graph.keys()) visit(module, []);
  expect(cycles).toEqual([]);
});

test('the import reader sees what it must (a check that cannot pass by reading nothing)', () => {
  expect(importsOf('commands/api/request.ts')).toContain('commands/api/methods.ts');
  expect(importsOf('main.ts').length).toBeGreaterThan(2);
});

test('in src/, only the launcher reads the command line (process.argv); commander parses what it hands on', () => {
  const readers = modules().filter((module) => /\bprocess\.argv\b/.test(fs.readFileSync(path.join(SRC, module), 'utf8')));
  expect(readers).toEqual(['launch.ts']);
});
