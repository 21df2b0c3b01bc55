/** Help as in gh: `help [<command>...]` and a group without a subcommand print help on stdout, exit 0; an unknown command exits 2. */
import { Argument, Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { completesTo } from '../completion/argument-values.js';
import { UsageError } from '../errors.js';
import { closest } from '../suggest.js';
import { examples, withGlobalFlags } from './kit.js';

/** The path of a command from the root ("petstore auth login"). */
export function commandPath(command: CommandUnknownOpts): string {
  const names: string[] = [];
  for (let c: CommandUnknownOpts | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * The hint of a usage error: the command whose help says more, on a line of its own ("For its flags, run:" then "  petstore list
 * --help"), so that a narrow terminal never splits it.
 */
export function helpHint(command: CommandUnknownOpts, what = 'its usage'): string {
  return `For ${what}, run:\n  ${commandPath(command)} --help`;
}

/** `names` quoted and joined with "or" ("--status", or "--category-id" or "--concurrency"). */
const either = (names: readonly string[]) => names.map((name) => `"${name}"`).join(' or ');

/** The usage error (exit 2) of a command `parent` does not have, named with the closest one and the help to run. */
export function unknownCommand(parent: CommandUnknownOpts, name: string): UsageError {
  const names = parent
    .createHelp()
    .visibleCommands(parent)
    .map((c) => c.name());
  if (names.length === 0) {
    return new UsageError(`"${commandPath(parent)}" has no subcommands (found "${name}")`, helpHint(parent), 'unknown_command');
  }
  const near = closest(name, names);
  return new UsageError(
    `unknown command "${name}" for "${commandPath(parent)}"${near ? `; did you mean ${either([near])}?` : ''}`,
    helpHint(parent, 'its commands'),
    'unknown_command',
  );
}

/**
 * The flags `command` takes that `flag` (as typed, `--stauts`, `-s`, `--stauts=x`) may stand for: for a long flag the closest long
 * flag; for a short one, a short flag of the other case (`-x` for `-X`), else the long flags that start with its letter (`-s`:
 * `--status`), as a short flag that does not exist is most often the guess of a long one's abbreviation.
 */
function flagsMeant(command: CommandUnknownOpts, flag: string): string[] {
  const help = command.createHelp();
  const options = [...help.visibleOptions(command), ...help.visibleGlobalOptions(command)];
  const longs = options.flatMap((option) => option.long ?? []).filter((name) => name !== flag);
  if (flag.startsWith('--')) {
    const near = closest(flag, longs);
    return near ? [near] : [];
  }
  const letter = flag.charAt(1);
  const shorts = options.flatMap((option) => option.short ?? []).filter((name) => name.toLowerCase() === `-${letter.toLowerCase()}`);
  if (shorts.length > 0) return shorts;
  return letter === '' ? [] : longs.filter((name) => name.startsWith(`--${letter.toLowerCase()}`));
}

/** The usage error (exit 2) of a flag `command` does not take, named with the flags it may stand for and the help to run. */
export function unknownFlag(command: CommandUnknownOpts, given: string): UsageError {
  // "--stauts=available" is the flag "--stauts"; "-sa" is "-s" with its value, or "-s" then "-a".
  const flag = given.startsWith('--') ? given.replace(/=.*$/s, '') : given.slice(0, 2);
  const meant = flagsMeant(command, flag);
  return new UsageError(
    `unknown flag "${flag}" for "${commandPath(command)}"${meant.length > 0 ? `; did you mean ${either(meant)}?` : ''}`,
    helpHint(command, 'its flags'),
    'unknown_flag',
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

/** The words a group's action got up to its first flag, and that flag: a group takes every word, so that a typo is named first. */
function splitAtFlag(words: readonly string[]): { names: string[]; flag?: string } {
  const at = words.findIndex((word) => word.startsWith('-') && word !== '-');
  return at < 0 ? { names: [...words] } : { names: words.slice(0, at), flag: words[at] };
}

/** A help topic that is no command (`petstore help man`): its name, what it prints, how its example runs it, and what prints it. */
export interface HelpTopic {
  name: string;
  description: string;
  /** A few words for the command list of `--help` ("the man page"). */
  summary: string;
  example: string;
  print(): Promise<void>;
}

/**
 * Makes `group` print its help without a subcommand, name an unknown one before any flag after it, and take `help [command...]`, or
 * `help <topic>` for one of `topics`.
 */
export function addGroupHelp(group: CommandUnknownOpts, topics: readonly HelpTopic[] = []): void {
  group.helpCommand(false);
  const path = commandPath(group);
  const nested = group.commands.find((c) => c.commands.length > 0);
  const helpExamples = [`${path} help ${group.commands[0]?.name() ?? ''}`.trimEnd()];
  if (nested) helpExamples.push(`${path} help ${nested.name()} ${nested.commands[0]?.name() ?? ''}`.trimEnd());
  if (topics.length === 0) helpExamples.unshift(`${path} help`);
  helpExamples.push(...topics.map((topic) => topic.example));
  const topicText = topics.map((topic) => `\n${path} help ${topic.name}: ${topic.description}\n`).join('');
  group.addCommand(
    withGlobalFlags(
      new Command('help')
        .description(`Show help for a command${topics.map((topic) => `; help ${topic.name}: ${topic.summary}`).join('')}`)
        .addArgument(
          completesTo(
            new Argument('[command...]'),
            topics.map((topic) => topic.name),
          ),
        )
        .allowUnknownOption()
        .addHelpText('after', topicText + examples(...helpExamples))
        .action(async (words, _options, help) => {
          const { names, flag } = splitAtFlag(words);
          const topic = topics.find((t) => t.name === names[0]);
          if (topic) {
            if (names.length > 1) {
              const extra = names.slice(1).map((word) => `"${word}"`);
              throw new UsageError(
                `unexpected argument${extra.length > 1 ? 's' : ''} ${extra.join(' ')} for "${path} help ${topic.name}" (it takes none)`,
                helpHint(help),
                'unexpected_argument',
              );
            }
            if (flag !== undefined) throw unknownFlag(help, flag);
            return topic.print();
          }
          const command = findCommand(group, names);
          if (flag !== undefined) throw unknownFlag(help, flag);
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
      if (flag !== undefined) throw unknownFlag(group, flag);
      group.outputHelp();
    });
  // `petstore lisst --help`: commander answers a help flag after any word with the group's help; a word that is no command of it is
  // named first, as it is without the flag (exit 2).
  group.addHelpText('before', () => {
    const word = group.args[0];
    if (word !== undefined && !word.startsWith('-') && !group.commands.some((c) => c.name() === word || c.aliases().includes(word)))
      throw unknownCommand(group, word);
    return '';
  });
  for (const sub of group.commands) if (sub.commands.length > 0) addGroupHelp(sub);
}
