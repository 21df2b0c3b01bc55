/** Building blocks of command declarations: value flags with allowed values and defaults, the output flags, help examples. */
import { Option, type Command, type CommandUnknownOpts, type OptionValues } from '@commander-js/extra-typings';
import type { Factory } from '../factory.js';
import { formatsFor, type OutputShape } from '../output/format.js';
import { UNBROKEN } from '../terminal/wrap.js';
import type { CommandContract, Inputs } from './runner.js';

/** An output flag (`--format`, `--jq`): help lists it after the command's own. */
class OutputOption<Usage extends string> extends Option<Usage> {}

/** A value flag whose allowed values and default show in help and completion; the command's zod schema checks the value, not commander. */
export function valueOption<F extends string>(
  flags: F,
  description: string,
  { choices, defaultText }: { choices?: readonly string[]; defaultText?: string } = {},
): Option<F> {
  const option = new Option(flags, description);
  if (choices) option.argChoices = [...choices];
  if (defaultText !== undefined) option.defaultValueDescription = defaultText;
  return option;
}

/** The options of one command in help order (own flags, output flags, `--help`), as a new array. */
export function helpOrder<T extends { long?: string }>(options: readonly T[]): T[] {
  const rank = (option: T) => (option.long === '--help' ? 2 : option instanceof OutputOption ? 1 : 0);
  return [...options].sort((a, b) => rank(a) - rank(b));
}

/**
 * An option's help text: description, then allowed values and default, unquoted, in one bracket. "one of:" and "default:" stay on a
 * line with the value after them (joined by UNBROKEN, which help and the man page print as a space).
 */
export function describeOption(option: { description?: string; argChoices?: string[]; defaultValueDescription?: string }): string {
  const extra: string[] = [];
  if (option.argChoices) extra.push(`one${UNBROKEN}of:${UNBROKEN}${option.argChoices.join(', ')}`);
  if (option.defaultValueDescription !== undefined) extra.push(`default:${UNBROKEN}${option.defaultValueDescription}`);
  return extra.length ? `${option.description ?? ''} (${extra.join('; ')})` : (option.description ?? '');
}

/** What output/format.ts picks without `--format` or `--json`, per shape, as help says it. */
const DEFAULT_FORMAT_TEXT: Record<Exclude<OutputShape, 'stream'>, string> = {
  records: 'table on a terminal, tab-separated when piped, json with --json',
  record: 'key/value lines on a terminal, tab-separated when piped, json with --json',
  fields: 'key/value lines, json with --json',
};

/** Adds `--format` and `--jq` to a command that prints data of `shape`; `note` is said after the default. */
export function withOutputFlags<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
  shape: OutputShape,
  note?: string,
) {
  const formats = formatsFor(shape);
  const description = shape === 'stream' ? 'output format of each created pet' : `output format${note ? `; ${note}` : ''}`;
  const option = new OutputOption('--format <format>', description);
  option.argChoices = [...formats];
  if (shape !== 'stream') option.defaultValueDescription = DEFAULT_FORMAT_TEXT[shape];
  return withJqFlag(command.addOption(option));
}

/** Adds `--jq <expression>`, an output flag compiled before the action (src/program.ts), so a bad one exits 2 before any request. */
export function withJqFlag<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command.addOption(
    new OutputOption('--jq <expression>', 'filter the JSON output with a jq expression; strings print raw (implies JSON output)'),
  );
}

/**
 * Adds a paged listing's `--limit <n>` (`many` per page, from `min` to `max`, `default` shown) and `--all` (every next page), as `list`
 * has them; the run's contract is `pagedListing` (paged-listing.ts).
 */
export function withPagingFlags<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
  many: string,
  { min, max, default: byDefault }: { min: number; max: number; default: number },
) {
  return command
    .addOption(valueOption('--limit <n>', `${many} per page, ${min} to ${max}`, { defaultText: String(byDefault) }))
    .option('--all', 'follow the service\'s next-page links (Link rel="next") to the last page');
}

/** An "Examples:" section for help, one command a line. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}`;
}

/** The root's flags (src/program.ts), as help names them. */
export type GlobalFlag = '--env' | '--base-url' | '--json' | '--no-color' | '--timeout' | '--retries' | '--verbose';

/** The global flags each command declared as applying to it; a command that declared none takes its group's. */
const appliesTo = new WeakMap<object, readonly GlobalFlag[]>();

/** Declares the global flags that apply to `command` and its subcommands (help lists only these); undeclared, all apply. */
export function withGlobalFlags<C extends CommandUnknownOpts>(command: C, flags: readonly GlobalFlag[]): C {
  appliesTo.set(command, flags);
  return command;
}

/** The global flags that apply to `command` (its own declaration, else its group's), or undefined for all of them. */
export function globalFlagsOf(command: CommandUnknownOpts): readonly GlobalFlag[] | undefined {
  for (let c: CommandUnknownOpts | null = command; c; c = c.parent) {
    const flags = appliesTo.get(c);
    if (flags) return flags;
  }
  return undefined;
}

/**
 * The action of a command declared by a contract: loads it (the lazy-load boundary), makes the options, calls `runF` or the runner.
 * Commander (@commander-js/extra-typings) takes it only for a command whose flags are the contract's `F`: a flag the contract reads
 * that the command declares with another type fails to compile.
 */
export function contractAction<I extends Inputs, O, F>(
  f: Factory,
  load: () => Promise<CommandContract<I, O, F>>,
  runF?: (options: O) => Promise<void>,
): (...args: [...unknown[], F, CommandUnknownOpts]) => Promise<void> {
  return async (...args) => {
    // Commander calls an action with the command's arguments, its flags, and the command.
    const command = args[args.length - 1] as CommandUnknownOpts;
    const contract = await load();
    const { runContract, settleOptions } = await import('./runner.js');
    const options = await settleOptions(f, contract, { flags: command.opts(), arguments: args.slice(0, -2) as Array<string | string[]> });
    return runF ? runF(options) : runContract(f, contract, options);
  };
}
