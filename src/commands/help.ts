/** Help as in gh: `help [<command>...]` and a group without a subcommand print help on stdout, exit 0; an unknown command exits 2. */
import { Command, type CommandUnknownOpts, type Option } from '@commander-js/extra-typings';
import { UsageError } from '../errors.js';
import { closest } from '../suggest.js';
import { examples, withGlobalFlags } from './kit.js';

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

/** The flag `name` (`--status`, `-X`) of `command` or an ancestor, if it takes a value (also for completion). */
export function valueFlag(command: CommandUnknownOpts, name: string): Option | undefined {
  for (let c: CommandUnknownOpts | null = command; c; c = c.parent) {
    const option = c.options.find((o) => o.long === name || o.short === name);
    if (option) return option.required || option.optional ? option : undefined;
  }
  return undefined;
}

/** The index of the first word from `start` that is neither a flag nor a flag's value. */
function nextWordAt(command: CommandUnknownOpts, argv: readonly string[], start: number): number | undefined {
  for (let i = start; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--') return i + 1 < argv.length ? i + 1 : undefined;
    if (arg.startsWith('-') && !arg.includes('=') && valueFlag(command, arg)) i += 1;
    else if (!arg.startsWith('-') || arg === '-') return i;
  }
  return undefined;
}

/** The error for the first unknown command word at any level (`config st`), whatever flags follow (commander would blame a flag); else undefined. */
export function unknownCommandIn(root: CommandUnknownOpts, argv: readonly string[]): UsageError | undefined {
  let command = root;
  let at = 0;
  while (command.commands.length > 0) {
    const index = nextWordAt(command, argv, at);
    if (index === undefined) return undefined;
    const word = argv[index]!;
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) return unknownCommand(command, word);
    // `help` names a command of this group in the words after it.
    if (next.name() !== 'help') command = next;
    at = index + 1;
  }
  return undefined;
}

/** Makes `group` print its help when run without a subcommand and report an unknown one with a suggestion; adds `help [command...]`. */
export function addGroupHelp(group: CommandUnknownOpts): void {
  group.helpCommand(false);
  const path = commandPath(group);
  const nested = group.commands.find((c) => c.commands.length > 0);
  const helpExamples = [`${path} help`, `${path} help ${group.commands[0]?.name() ?? ''}`.trimEnd()];
  if (nested) helpExamples.push(`${path} help ${nested.name()} ${nested.commands[0]?.name() ?? ''}`.trimEnd());
  group.addCommand(
    withGlobalFlags(
      new Command('help')
        .description('Show help for a command')
        .argument('[command...]')
        .addHelpText('after', examples(...helpExamples))
        .action((words) => findCommand(group, words).outputHelp()),
      [],
    ),
  );
  (group as unknown as Command<[string | undefined]>)
    .usage('[options] [command]')
    .argument('[command]')
    .action((word) => {
      if (word !== undefined) throw unknownCommand(group, word);
      group.outputHelp();
    });
  for (const sub of group.commands) if (sub.commands.length > 0) addGroupHelp(sub);
}
