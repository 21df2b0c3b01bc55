/**
 * The answer to `petstore __complete <words…>` read from the commander tree as cobra's: `candidate<TAB>description` lines, then
 * `:<directive>` (`:4` nothing else, `:0` file names).
 */
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { completionsOf } from './argument-values.js';

/** The flag `name` (`--status`, `-X`) of `command` or an ancestor, if it takes a value. */
function valueFlag(command: CommandUnknownOpts, name: string): Option | undefined {
  for (let c: CommandUnknownOpts | null = command; c; c = c.parent) {
    const option = c.options.find((o) => o.long === name || o.short === name);
    if (option) return option.required || option.optional ? option : undefined;
  }
  return undefined;
}

const Directive = { default: 0, noFileComp: 4 } as const;

/** The names `--env` completes to (built-in, then configured). */
export type EnvironmentNames = () => Promise<readonly string[]>;

const visibleCommands = (command: CommandUnknownOpts) => command.createHelp().visibleCommands(command);

/** The flags of `command` as help lists them: its own, then its ancestors'. */
function flagsOf(command: CommandUnknownOpts): Option[] {
  const help = command.createHelp();
  return [...help.visibleOptions(command), ...help.visibleGlobalOptions(command)];
}

const line = (name: string, description: string) => (description ? `${name}\t${description.replace(/\s+/g, ' ')}` : name);

async function valueLines(option: Option, prefix: string, environments: EnvironmentNames): Promise<[string[], number]> {
  if (/<(path|file)>/.test(option.flags)) return [[], Directive.default];
  const values = option.argChoices ?? (option.long === '--env' ? await environments() : []);
  return [values.filter((value) => value.startsWith(prefix)), Directive.noFileComp];
}

/** The lines `__complete` prints, the directive last. Nothing completes after `--`, or where a command is expected and the word is none. */
export async function complete(root: CommandUnknownOpts, words: readonly string[], environments: EnvironmentNames): Promise<string> {
  const answer = (lines: string[], directive: number = Directive.noFileComp) =>
    [...lines, `:${directive}`].map((text) => `${text}\n`).join('');
  const cur = words.at(-1) ?? '';
  let command = root;
  let help = false;
  let operands = 0;
  for (let i = 0; i < words.length - 1; i += 1) {
    const word = words[i]!;
    if (word === '--') return answer([]);
    if (word.startsWith('-') && word !== '-') {
      const option = word.includes('=') ? undefined : valueFlag(command, word);
      if (option && i + 1 === words.length - 1) return answer(...(await valueLines(option, cur, environments)));
      if (option) i += 1;
      continue;
    }
    const sub = operands === 0 ? visibleCommands(command).find((c) => c.name() === word) : undefined;
    // `help` names a command of this group in the words after it.
    if (sub?.name() === 'help' && !help) help = true;
    else if (sub) command = sub;
    else operands += 1;
  }
  const subcommands = visibleCommands(command);
  if (cur.startsWith('--') && cur.includes('=')) {
    const option = valueFlag(command, cur.slice(0, cur.indexOf('=')));
    return option ? answer(...(await valueLines(option, cur.slice(cur.indexOf('=') + 1), environments))) : answer([]);
  }
  if (help) {
    if (cur.startsWith('-')) return answer([]);
    const names = subcommands.filter((c) => c.name() !== 'help' && c.name().startsWith(cur));
    // The group's help topics (`help man`), besides its commands.
    const topics = completionsOf(subcommands.find((c) => c.name() === 'help')?.registeredArguments[0]);
    return answer([...names.map((c) => line(c.name(), c.description())), ...topics.filter((topic) => topic.startsWith(cur))]);
  }
  if (subcommands.length > 0 && operands > 0) return answer([]);
  if (subcommands.length > 0 && !cur.startsWith('-')) {
    return answer(subcommands.filter((c) => c.name().startsWith(cur)).map((c) => line(c.name(), c.description())));
  }
  // Flags: on `-`, short names too; on a bare Tab, only where no operand is expected, or the operand's fixed values (a config key).
  if (!cur.startsWith('-') && command.registeredArguments.length > 0) {
    return answer(completionsOf(command.registeredArguments[operands]).filter((value) => value.startsWith(cur)));
  }
  const names = flagsOf(command).flatMap((option) =>
    [option.long, cur.startsWith('-') ? option.short : undefined]
      .filter((name): name is string => name?.startsWith(cur) === true)
      .map((name) => line(name, option.description)),
  );
  return answer(names);
}
