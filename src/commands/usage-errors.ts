/**
 * Commander's refusals of a command line as petstore's usage errors (exit 2), in the one style of an unknown flag: `error: ...` naming
 * the flag or argument and what it takes, then the help to run; with `--json`, a JSON error object with its own code.
 */
import type { CommanderError, CommandUnknownOpts } from '@commander-js/extra-typings';
import { UsageError } from '../errors.js';
import { closest } from '../suggest.js';
import { commandPath, helpHint, unknownCommand, unknownFlag } from './help.js';

/** Commander's own outcomes that are no error: help and the version printed (exit 0). */
const PRINTED = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

/**
 * The error to throw for `error`, which commander raised on `command` (its `exitOverride`): `error` itself for help or the version
 * printed, else a UsageError naming what was wrong. Commander's code says which refusal it is; its message names the flag or argument.
 */
export function commanderRefusal(command: CommandUnknownOpts, error: CommanderError): Error {
  if (PRINTED.has(error.code)) return error;
  const quoted = /'([^']*)'/.exec(error.message)?.[1] ?? '';
  switch (error.code) {
    case 'commander.unknownOption':
      return unknownFlag(command, quoted);
    case 'commander.unknownCommand':
      return unknownCommand(command, command.args[0] ?? '');
    case 'commander.optionMissingArgument':
      return flagWithoutValue(command, quoted);
    case 'commander.missingArgument':
      return missingArgument(command, quoted);
    case 'commander.excessArguments':
      return unexpectedArguments(command);
    default:
      return new UsageError(plainMessage(error.message), helpHint(command));
  }
}

/** Commander's message without its "error: " and on one line ("error: required option '--x <y>' not specified"). */
const plainMessage = (message: string) =>
  message
    .replace(/^error: /, '')
    .trim()
    .replace(/\s*\n\s*/g, ' ');

/** A flag given last, without its value (`list --status`): named, with its allowed values, or its value's name and what it is. */
function flagWithoutValue(command: CommandUnknownOpts, flags: string): UsageError {
  const options = [];
  for (let c: CommandUnknownOpts | null = command; c; c = c.parent) options.push(...c.options);
  const option = options.find((o) => o.flags === flags);
  const name = option?.long ?? flags.split(/[ ,]/)[0] ?? flags;
  const value = /[<[][^>\]]*[>\]]/.exec(flags)?.[0] ?? '<value>';
  const takes = option?.argChoices
    ? `, one of: ${option.argChoices.join(', ')}`
    : ` ${value}${option?.description ? `: ${option.description}` : ''}`;
  // The root refuses a global flag wherever it stands (`petstore list --timeout`), before any command is picked.
  const flag = command.parent ? `flag "${name}" for "${commandPath(command)}"` : `global flag "${name}"`;
  return new UsageError(`${flag} needs a value${takes}`, helpHint(command, 'its flags'), 'missing_flag_value');
}

/** An argument as usage shows it: `<path>`, `<petId...>`. */
const usageOf = (argument: { name(): string; required: boolean; variadic: boolean }) => {
  const name = `${argument.name()}${argument.variadic ? '...' : ''}`;
  return argument.required ? `<${name}>` : `[${name}]`;
};

/** A required argument not given (`petstore api`): named as usage shows it, with what it is. */
function missingArgument(command: CommandUnknownOpts, name: string): UsageError {
  const argument = command.registeredArguments.find((a) => a.name() === name);
  const what = argument?.description ? `: ${argument.description}` : '';
  return new UsageError(
    `missing argument ${argument ? usageOf(argument) : `<${name}>`} for "${commandPath(command)}"${what}`,
    helpHint(command),
    'missing_argument',
  );
}

/**
 * Words after the arguments a command takes (`list extra`): named, with the arguments it does take, and the flag a word may stand for
 * (`list all`: did you mean "--all"?).
 */
function unexpectedArguments(command: CommandUnknownOpts): UsageError {
  const extra = command.args.slice(command.registeredArguments.length);
  const takes = command.registeredArguments.length === 0 ? 'none' : command.registeredArguments.map(usageOf).join(' ');
  const longs = command.options.flatMap((option) => option.long ?? []);
  const meant = extra.length === 1 ? closest(`--${extra[0]}`, longs) : undefined;
  const words = extra.map((word) => `"${word}"`).join(' ');
  return new UsageError(
    `unexpected argument${extra.length === 1 ? '' : 's'} ${words} for "${commandPath(command)}" (it takes ${takes})${
      meant ? `; did you mean "${meant}"?` : ''
    }`,
    helpHint(command),
    'unexpected_argument',
  );
}
