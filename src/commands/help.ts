/**
 * Help as users of gh expect it: `petstore help [<command> [<subcommand>]]`
 * and a command group run without a subcommand print that help on stdout and
 * exit 0; an unknown command exits 2 with the closest name.
 */
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import { closest } from '../suggest.js';

/** The path of a command from the root ("petstore auth login"). */
export function commandPath(command: CommandUnknownOpts): string {
  const names: string[] = [];
  for (let c: CommandUnknownOpts | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function unknownCommand(parent: CommandUnknownOpts, name: string): UsageError {
  const names = parent.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden).map((c) => c.name());
  const near = closest(name, names);
  return new UsageError(
    `unknown command "${name}" for "${commandPath(parent)}"${near ? `; did you mean "${near}"?` : ''}`,
    `Run "${commandPath(parent)} --help" for the commands.`,
    'unknown_command',
  );
}

/** Finds the command `words` name under `root`; throws UsageError (exit 2) with a suggestion for an unknown one. */
export function findCommand(root: CommandUnknownOpts, words: readonly string[]): CommandUnknownOpts {
  let command = root;
  for (const word of words) {
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) throw unknownCommand(command, word);
    command = next;
  }
  return command;
}

/**
 * Makes `group` (the program, or a command with subcommands) print its help
 * on stdout when run without a subcommand, and report an unknown subcommand
 * with a suggestion; adds a `help [command...]` subcommand to it.
 */
export function helpfulGroup(f: Factory, group: CommandUnknownOpts): void {
  group.helpCommand(false);
  group.addCommand(
    new Command('help')
      .description('Show help for a command')
      .argument('[command...]')
      .action((words) => void f.io.writeOut(findCommand(group, words).helpInformation())),
  );
  (group as unknown as Command<[string | undefined]>)
    .usage('[options] [command]')
    .argument('[command]')
    .action((word) => {
      if (word !== undefined) throw unknownCommand(group, word);
      f.io.writeOut(group.helpInformation());
    });
  for (const sub of group.commands) if (sub.commands.length > 0) helpfulGroup(f, sub);
}
