// docs/commands.md checked against the commands' declarations. A command
// folder's section is its own file, src/commands/<name>/<name>.md; the page
// holds them between two marks, in the registry's order, and must be current
// (`npx vitest run test/docs-commands.test.ts -u` rewrites it). Every command
// of the registry (src/commands/registry.ts, through the command tree) has a
// section, every flag it and its subcommands declare is documented there, and
// every flag named there is declared. `api` is documented in
// docs/api-command.md. The README stays within 12,000 bytes.
import fs from 'node:fs';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, test } from 'vitest';
import { COMMANDS } from '../src/commands/registry.js';
import { commandTree } from '../src/main.js';

const doc = (name: string) => fs.readFileSync(new URL(`../docs/${name}`, import.meta.url), 'utf8');
const BEGIN = /^<!-- Each section from here to the end mark is src\/commands\/.*-->\n\n/m;
const END = '\n<!-- End of the sections from src/commands/. -->\n';

/** docs/commands.md with the sections between its marks made from the command folders' own files, in the registry's order. */
function assembledCommandsPage(): string {
  const page = doc('commands.md');
  const begin = BEGIN.exec(page);
  const end = page.indexOf(END);
  if (!begin || end < begin.index) throw new Error('docs/commands.md has lost its marks around the sections from src/commands/');
  const own = COMMANDS.flatMap(({ name }) => {
    const file = new URL(`../src/commands/${name}/${name}.md`, import.meta.url);
    return fs.existsSync(file) ? [fs.readFileSync(file, 'utf8')] : [];
  });
  return page.slice(0, begin.index + begin[0].length) + own.join('\n') + page.slice(end);
}
const assembled = assembledCommandsPage();

/** The level-2 sections of docs/commands.md, as assembled. */
const sections = assembled.split(/^(?=## )/m).slice(1);
const tree = await commandTree();
const visible = (command: CommandUnknownOpts) =>
  command
    .createHelp()
    .visibleCommands(command)
    .filter((c) => c.name() !== 'help');

/** The flags `command` and its subcommands declare, --help aside, each as its names (`--header`, `-H`). */
function flagsOf(command: CommandUnknownOpts): string[][] {
  const own = command.options
    .filter((o) => o.long !== '--help')
    .map((o) => [o.long, o.short].filter((name): name is string => name !== undefined));
  return [...own, ...visible(command).flatMap(flagsOf)];
}

/** The text documenting top-level command `name`. */
function sectionOf(name: string): string | undefined {
  if (name === 'api') return doc('api-command.md');
  return sections.find((section) => section.split('\n')[0]!.includes(`petstore ${name}`));
}

describe('docs/commands.md agrees with the declarations', () => {
  test("docs/commands.md holds each command folder's section as its src/commands/<name>/<name>.md says it", async () => {
    await expect(assembled).toMatchFileSnapshot('../docs/commands.md');
  });

  test.each(visible(tree).map((c) => [c.name(), c] as const))(
    'petstore %s: a section, with every flag it declares and none it lacks',
    (name, command) => {
      const section = sectionOf(name) ?? '';
      expect(section, `docs/commands.md has no section for "petstore ${name}"`).not.toBe('');
      const documented = (flag: string) => new RegExp(`(?<![\\w-])${flag}(?![\\w-])`).test(section);
      expect(
        flagsOf(command)
          .filter((names) => !names.some(documented))
          .map((names) => names[0]),
      ).toEqual([]);
      // A flag named there is one a command declares, or a global one (`--st<Tab>` is a word being completed).
      const named = new Set(section.match(/(?<![\w-])--[a-z][\w-]*(?![\w-]|<Tab>)/g) ?? []);
      const declared = new Set([...tree.options.map((o) => o.long), ...flagsOf(tree).flat(), '--help', '--version']);
      expect([...named].filter((flag) => !declared.has(flag))).toEqual([]);
    },
  );

  test('README.md is at most 12,000 bytes', () => {
    expect(fs.statSync(new URL('../README.md', import.meta.url)).size).toBeLessThanOrEqual(12_000);
  });
});
