/**
 * Building blocks of command declarations (commander with extra-typings, so
 * that each action's options type is inferred from its flags): options whose
 * allowed values and defaults are read from the constants that the zod
 * schemas check, the output flags, and examples in help.
 */
import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { formatsFor, type OutputShape } from '../output/format.js';

/** An output flag (`--format`, `--jq`): help lists it after the command's own. */
class OutputOption<Usage extends string> extends Option<Usage> {}

/**
 * A flag taking a value, with its allowed values and default shown in help
 * (and offered by shell completion). The value is checked by the command's
 * zod schema, not by commander, so that every flag is checked the same way.
 */
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

/**
 * The options of one command in help order: its own flags, then the output
 * flags (added by withOutputFlags), then `--help`. Returns a new array.
 */
export function helpOrder<T extends { long?: string }>(options: readonly T[]): T[] {
  const rank = (option: T) => (option.long === '--help' ? 2 : option instanceof OutputOption ? 1 : 0);
  return [...options].sort((a, b) => rank(a) - rank(b));
}

/** The help text of an option: description, then allowed values and default, unquoted (`default: 20`). */
export function describeOption(option: { description?: string; argChoices?: string[]; defaultValueDescription?: string }): string {
  const extra: string[] = [];
  if (option.argChoices) extra.push(`one of: ${option.argChoices.join(', ')}`);
  if (option.defaultValueDescription !== undefined) extra.push(`default: ${option.defaultValueDescription}`);
  return extra.length ? `${option.description ?? ''} (${extra.join('; ')})` : (option.description ?? '');
}

/** Adds the output flags of a command that prints data of `shape`: `--format` and `--jq`. */
export function withOutputFlags<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
  shape: OutputShape,
  /** Said after the default, such as which formats another mode of the command takes. */
  note?: string,
) {
  const formats = formatsFor(shape);
  const description =
    shape === 'stream'
      ? 'output format of each created pet'
      : `output format (default: table or key/value lines on a terminal, tab-separated when piped; json with --json${note ? `; ${note}` : ''})`;
  const option = new OutputOption('--format <format>', description);
  option.argChoices = [...formats];
  return withJqFlag(command.addOption(option));
}

/**
 * Adds `--jq <expression>` (an output flag: help lists it after the command's
 * own), checked before the command's action runs (by the program, see
 * src/program.ts), so before any request: an expression jq cannot compile
 * exits 2 with jq's message.
 */
export function withJqFlag<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command.addOption(
    new OutputOption('--jq <expression>', 'filter the JSON output with a jq expression; strings print raw (implies JSON output)'),
  );
}

/** An "Examples:" section for help, one command a line. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}`;
}
