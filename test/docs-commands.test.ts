// docs/commands.md checked against the commands' declarations. The build
// writes the page (scripts/commands-page.mjs) from scripts/commands-page.md
// and each command folder's section, src/commands/<name>/<name>.md, in the
// registry's order. Every command of the registry (src/commands/registry.ts,
// through the command tree) has a section, every flag it and its subcommands
// declare is documented there, and every flag named there is declared. `api`
// is documented in docs/api-command.md. The README stays within 12,000 bytes.
import fs from 'node:fs';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, test } from 'vitest';
import { COMMANDS } from '../src/commands/registry.js';
import { commandTree } from '../src/main.js';
// @ts-expect-error: the build scripts are plain JavaScript without type declarations
import { commandsPage } from '../scripts/commands-page.mjs';

const doc = (name: string) => fs.readFileSync(new URL(`../docs/${name}`, import.meta.url), 'utf8');
/** docs/commands.md as the build writes it: scripts/commands-page.md with each command folder's section. */
const assembled: string = commandsPage(COMMANDS.map(({ name }) => name));

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
  test('npm run build has written docs/commands.md from the command folders as they are now', () => {
    expect(fs.existsSync(new URL('../docs/commands.md', import.meta.url)), 'docs/commands.md is missing: run npm run build').toBe(true);
    expect(doc('commands.md')).toBe(assembled);
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
