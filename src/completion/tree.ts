/**
 * What shell completion offers, read from the commander command tree: every
 * visible command path, its subcommands, its flags (its own, then those it
 * inherits from the root) and what each flag's value completes to. Each shell
 * script (bash.ts, zsh.ts, fish.ts, powershell.ts) is rendered from this, so a
 * new command or flag appears in completion without touching the scripts.
 */
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { valueSourceOf, type ValueSource } from '../commands/kit.js';

/**
 * What the value of a flag completes to: fixed words (`argChoices` of the
 * option), words petstore prints at completion time (`petstore __complete
 * <source>`), file names (a value named `<path>` or `<file>`), or nothing
 * (`any`: free text such as a name or a number).
 */
export type ValueCompletion =
  | { kind: 'words'; words: readonly string[] }
  | { kind: 'source'; source: ValueSource }
  | { kind: 'file' }
  | { kind: 'any' };

/** One flag as completion sees it. */
export interface FlagSpec {
  /** Its names, long first when it has one (`['--status']`, `['--help', '-h']`). */
  names: string[];
  description: string;
  /** Undefined when the flag takes no value. */
  value?: ValueCompletion;
  /** True for a flag declared on the root (a global flag, valid after every command). */
  inherited: boolean;
}

/** One command path with what may follow it. */
export interface CommandSpec {
  /** The words after `petstore` (`[]` for the root, `['auth', 'login']`). */
  path: string[];
  description: string;
  /** Visible subcommands (hidden ones such as `__complete` are left out). */
  commands: Array<{ name: string; description: string }>;
  flags: FlagSpec[];
  /** True when it takes positional arguments (then a bare Tab offers no flags). */
  takesArguments: boolean;
}

function valueCompletionOf(option: Option): ValueCompletion | undefined {
  if (!option.required) return undefined;
  const source = valueSourceOf(option);
  if (source) return { kind: 'source', source };
  if (option.argChoices) return { kind: 'words', words: option.argChoices };
  return /<(path|file)>/.test(option.flags) ? { kind: 'file' } : { kind: 'any' };
}

function flagOf(option: Option, inherited: boolean): FlagSpec {
  const names = [option.long, option.short].filter((name): name is string => name !== undefined);
  return { names, description: option.description, value: valueCompletionOf(option), inherited };
}

/**
 * Every visible command of `program` (root first, then depth first in help
 * order), with the flags its help lists: its own in help order, then the
 * inherited ones. Reads the tree only; `program` is not changed.
 */
export function completionSpecs(program: CommandUnknownOpts): CommandSpec[] {
  const specs: CommandSpec[] = [];
  const visit = (command: CommandUnknownOpts, path: string[]) => {
    const help = command.createHelp();
    const subcommands = help.visibleCommands(command);
    specs.push({
      path,
      description: command.description(),
      commands: subcommands.map((sub) => ({ name: sub.name(), description: sub.description() })),
      flags: [
        ...help.visibleOptions(command).map((option) => flagOf(option, path.length === 0)),
        ...(path.length === 0
          ? []
          : program
              .createHelp()
              .visibleOptions(program)
              .filter((o) => o.long !== '--help')
              .map((o) => flagOf(o, true))),
      ],
      takesArguments: subcommands.length === 0 && command.registeredArguments.length > 0,
    });
    for (const sub of subcommands) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
  return specs;
}

/** Flags whose values complete the same way: each key is `<path> <flag>`, or `* <flag>` for a global flag. */
export interface ValueCase {
  keys: string[];
  value: ValueCompletion;
}

/**
 * Every flag that takes a value, grouped by what the value completes to: a
 * command's own flags first, then the global flags as `* <flag>` patterns
 * (they match after any command, so a command's own flag of the same name
 * comes first). A flag missing from every case takes no value.
 */
export function valueCases(specs: readonly CommandSpec[]): ValueCase[] {
  const own = new Map<string, ValueCase>();
  const global = new Map<string, ValueCase>();
  for (const spec of specs) {
    for (const flag of spec.flags) {
      if (!flag.value) continue;
      const cases = flag.inherited ? global : own;
      const id = JSON.stringify(flag.value);
      const entry = cases.get(id) ?? { keys: [], value: flag.value };
      cases.set(id, entry);
      for (const name of flag.names) {
        const key = flag.inherited ? `* ${name}` : `${spec.path.join(' ')} ${name}`;
        if (!entry.keys.includes(key)) entry.keys.push(key);
      }
    }
  }
  return [...own.values(), ...global.values()];
}

/** The word a script's value lookup stands for: the words themselves, or `@file`, `@<source>` (see ValueCompletion). */
export function valueWords(value: ValueCompletion): string[] {
  if (value.kind === 'words') return [...value.words];
  if (value.kind === 'source') return [`@${value.source}`];
  return value.kind === 'file' ? ['@file'] : [];
}

/**
 * `text` as one single-quoted word: for bash and zsh (`posix`) a quote is
 * written '\'' (it's → 'it'\''s'); inside fish's single quotes a quote and a
 * backslash are escaped with a backslash (→ 'it\'s').
 */
export function singleQuoted(text: string, shell: 'posix' | 'fish' = 'posix'): string {
  return shell === 'fish' ? `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'` : `'${text.replace(/'/g, `'\\''`)}'`;
}
