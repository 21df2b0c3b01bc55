/** Help as in gh: `help [<command>...]` and a group without a subcommand print help on stdout, exit 0; an unknown command exits 2. */
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
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

/** Refuses `flag` as commander refuses an unknown option (exit 2), suggesting the closest option `command`'s help lists. */
export function unknownOption(command: CommandUnknownOpts, flag: string): never {
  const help = command.createHelp();
  const names = [...help.visibleOptions(command), ...help.visibleGlobalOptions(command)].flatMap((option) => option.long ?? []);
  const near = closest(
    flag,
    names.filter((name) => name !== flag),
  );
  return command.error(`error: unknown option '${flag}'${near ? ` (Did you mean ${near}?)` : ''}`, {
    code: 'commander.unknownOption',
    exitCode: 2,
  });
}

/** The words a group's action got up to its first flag, and that flag: a group takes every word, so that a typo is named first. */
function splitAtFlag(words: readonly string[]): { names: string[]; flag?: string } {
  const at = words.findIndex((word) => word.startsWith('-') && word !== '-');
  return at < 0 ? { names: [...words] } : { names: words.slice(0, at), flag: words[at] };
}

/** Makes `group` print its help without a subcommand, name an unknown one before any flag after it, and take `help [command...]`. */
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
        .allowUnknownOption()
        .addHelpText('after', examples(...helpExamples))
        .action((words, _options, help) => {
          const { names, flag } = splitAtFlag(words);
          const command = findCommand(group, names);
          if (flag !== undefined) unknownOption(help, flag);
          command.outputHelp();
        }),
      [],
    ),
  );
  (group as unknown as Command<string[]>)
    .usage('[options] [command]')
    .argument('[command]')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      const { names, flag } = splitAtFlag(group.args);
      if (names[0] !== undefined) throw unknownCommand(group, names[0]);
      if (flag !== undefined) unknownOption(group, flag);
      group.outputHelp();
    });
  for (const sub of group.commands) if (sub.commands.length > 0) addGroupHelp(sub);
}
