// Writes docs/commands.md, the reference of every command, from
// scripts/commands-page.md (what all commands share) and each command
// folder's own section, src/commands/<name>/<name>.md, in the order of
// src/commands/registry.ts (read from the built bundle's commandNames). The
// page is built, not kept in git: a new command's folder is its
// documentation, with no shared page to edit. A step of `npm run build`,
// after scripts/build.mjs; test/docs-commands.test.ts checks each section
// against the command's declaration.
//
//   node scripts/commands-page.mjs
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** Where the commands' sections go in scripts/commands-page.md. */
export const SECTIONS_MARK = "<!-- petstore: the commands' own sections -->\n";

/**
 * docs/commands.md's text: the template (scripts/commands-page.md) with the
 * sections of `names` (commands in the registry's order; a command without a
 * folder section, such as `api`, is documented elsewhere) in place of its
 * mark. Throws when the template has lost its mark.
 */
export function commandsPage(names) {
  const template = readFileSync(new URL('commands-page.md', import.meta.url), 'utf8');
  if (!template.includes(SECTIONS_MARK)) throw new Error(`scripts/commands-page.md has lost its line ${SECTIONS_MARK.trim()}`);
  const sections = names.flatMap((name) => {
    const file = new URL(`../src/commands/${name}/${name}.md`, import.meta.url);
    return existsSync(file) ? [readFileSync(file, 'utf8')] : [];
  });
  const built = '<!-- Built by `npm run build` from scripts/commands-page.md and src/commands/<name>/<name>.md: edit those. -->\n';
  return built + template.replace(SECTIONS_MARK, sections.join('\n'));
}

// Run as a script (not imported by the test): a clone's path may hold spaces, which a file URL escapes.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { commandNames } = createRequire(import.meta.url)('../dist/petstore.cjs');
  writeFileSync(new URL('../docs/commands.md', import.meta.url), commandsPage(commandNames()));
}
