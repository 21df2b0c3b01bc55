/**
 * Help as users of gh expect it: `petstore help [<command> [<subcommand>]]`
 * and a command group run without a subcommand print that help on stdout and
 * exit 0; an unknown command exits 2 with the closest name.
 */
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { UsageError } from '../errors.js';
import { closest } from '../suggest.js';
import { examples } from './kit.js';

/** The path of a command from the root ("petstore auth login"). */
export function commandPath(command: CommandUnknownOpts): string {
  const names: string[] = [];
  for (let c: CommandUnknownOpts | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function unknownCommand(parent: CommandUnknownOpts, name: string): UsageError {
  const names = parent
    .createHelp()
    .visibleCommands(parent)
    .map((c) => c.name());
  if (names.length === 0) {
    return new UsageError(
      `"${commandPath(parent)}" has no subcommands (found "${name}")`,
      `Run "${commandPath(parent)} --help" for its usage.`,
      'unknown_command',
    );
  }
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
export function helpfulGroup(group: CommandUnknownOpts): void {
  group.helpCommand(false);
  const path = commandPath(group);
  const nested = group.commands.find((c) => c.commands.length > 0);
  const helpExamples = [`${path} help`, `${path} help ${group.commands[0]?.name() ?? ''}`.trimEnd()];
  if (nested) helpExamples.push(`${path} help ${nested.name()} ${nested.commands[0]?.name() ?? ''}`.trimEnd());
  group.addCommand(
    new Command('help')
      .description('Show help for a command')
      .argument('[command...]')
      .addHelpText('after', examples(...helpExamples))
      .action((words) => findCommand(group, words).outputHelp()),
  );
  (group as unknown as Command<[string | undefined]>)
    .usage('[options] [command]')
    .argument('[command]')
    .action((word) => {
      if (word !== undefined) throw unknownCommand(group, word);
      group.outputHelp();
    });
  for (const sub of group.commands) if (sub.commands.length > 0) helpfulGroup(sub);
}
