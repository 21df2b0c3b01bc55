/**
 * The command tree: the root program with its global flags, and every command
 * of the registry. It loads only commander and the command declarations; each
 * action loads what it runs (zod, undici, conf) when it runs, which keeps
 * `--help`, `--version` and flag errors fast.
 */
import { Command, Help, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Factory, GlobalOptions } from './factory.js';
import type { OutputFlags } from './output/format.js';
import { RETRIES, TIMEOUT_MS } from './flag-bounds.js';
import { describeOption, helpOrder, valueOption } from './commands/kit.js';
import { helpfulGroup } from './commands/help.js';
import { COMMANDS, type CommandEntry } from './commands/registry.js';
import { wrapHelpText, wrapLine } from './terminal/wrap.js';

/** The end of the root help: examples, exit codes and environment variables (also sections of the man page). */
const ROOT_HELP_AFTER = `
Examples:
  petstore list --status available
  petstore get 42 --json
  petstore add --file pets.ndjson --failed failed.ndjson

Exit codes:
  0    success
  1    general failure: network, timeout, 5xx or unexpected response, a 404
       of a path the service does not have (a wrong base URL), pets of a
       bulk load not created, config get of an unset key
  2    invalid usage or input: bad flags or values, a 400 from the service,
       no base URL configured, unusable config file
  3    not found: no such pet (get), or any 404 answer to api
  4    authentication: no API key, the service answered 401, or the stored
       key belongs to another origin
  129  hung up (SIGHUP); 130 interrupted (Ctrl-C); 143 terminated (SIGTERM)

Environment variables:
  PETSTORE_ENV, PETSTORE_BASE_URL, PETSTORE_API_KEY   override the config
  PETSTORE_NO_DEPRECATION_WARNING=1   silences the deprecation warnings of "get"
  PETSTORE_GET_VIA_LIST=1             "get" looks the pet up through listPets
  PETSTORE_NO_PROMPT=1                "add" never prompts for missing fields
  PETSTORE_DEBUG=1                    stack traces on errors
  NO_COLOR, CLICOLOR, CLICOLOR_FORCE, FORCE_COLOR   colour control
  PETSTORE_PAGER, PAGER               the pager of long output (else less -FRX)
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   proxies
  XDG_CONFIG_HOME, XDG_CACHE_HOME     where config and code cache live
  NODE_DISABLE_COMPILE_CACHE=1        no code cache (slower start)`;

/** The global flags as commander parses them (before validation), inferred from their declaration. */
export type GlobalFlags = ReturnType<ReturnType<typeof declareProgram>['opts']>;

/** Checks the global flags; throws UsageError naming a bad --timeout or --retries. */
export async function globalOptions(flags: GlobalFlags): Promise<GlobalOptions> {
  const { parseWholeNumber } = await import('./commands/parse-flag.js');
  return {
    env: flags.env,
    baseUrl: flags.baseUrl,
    json: flags.json ?? false,
    color: flags.color,
    timeout: parseWholeNumber(flags.timeout, TIMEOUT_MS, '--timeout'),
    retries: parseWholeNumber(flags.retries, RETRIES, '--retries'),
    verbose: flags.verbose ?? false,
  };
}

/** What the global flags of a command line say before the program parses it whole. */
export interface CommandLine {
  /** `--json`: errors found while parsing are reported as JSON too. */
  json: boolean;
  /** `--verbose`: an unexpected failure shows its stack trace. */
  verbose: boolean;
  /**
   * The first word that is not a global flag or its value, before any flag
   * the root does not know: the command asked for, if any (none when a flag
   * at the end lacks its value).
   */
  command?: string;
}

/**
 * Reads the global flags of `argv` (the arguments after the program name)
 * with commander, as the program's parse reads them, for what main needs
 * before that parse has finished: whether to report its errors as JSON, and
 * which command to load. The same declaration and the same commander method
 * (`parseOptions`) as the program's root, so a word is read alike (`--env
 * --json` names an environment). A value flag at the end without its value
 * stops the reading there: the flags before it count, no command is named,
 * and the program's parse reports the flag. Never throws.
 */
export function readCommandLine(argv: readonly string[]): CommandLine {
  const root = declareGlobalFlags(new Command())
    .exitOverride()
    .configureOutput({ outputError: () => undefined });
  let operands: string[] = [];
  try {
    ({ operands } = root.parseOptions([...argv]));
  } catch {
    // Only a value flag at the very end lands here: what came before it was read.
  }
  const flags = root.opts();
  return { json: flags.json ?? false, verbose: flags.verbose ?? false, command: operands[0] };
}

/** The command `argv` asks for (see {@link readCommandLine}), if any. */
export function commandWord(argv: readonly string[]): string | undefined {
  return readCommandLine(argv).command;
}

/**
 * The registry entries a command line needs: the one it names, or every one
 * when it names none (help), an unknown one (for a suggestion), or one that
 * reads the whole tree (completion).
 */
function entriesFor(word: string | undefined): readonly CommandEntry[] {
  const named = COMMANDS.find((entry) => entry.name === word);
  return named && !named.needsTree ? [named] : COMMANDS;
}

/** A command's output flags as parsed: `--format` and `--jq`, each undefined when not given or not one of its flags. */
function outputFlagsOf(command: CommandUnknownOpts): OutputFlags {
  const text = (name: string) => {
    const value: unknown = command.getOptionValue(name);
    return typeof value === 'string' ? value : undefined;
  };
  return { format: text('format'), jq: text('jq') };
}

/**
 * Builds the `petstore` program for one invocation, with only the command
 * `word` (see {@link readCommandLine}) when it is one, else the whole tree;
 * its actions run with `f`. Before an action runs, the Factory gets the
 * checked global flags and the action's output flags (its exporter).
 */
export async function buildProgram(f: Factory, word?: string) {
  const program = declareProgram(f.version);
  program.hook('preAction', async (_program, action) => {
    const output = outputFlagsOf(action);
    f.setGlobals(await globalOptions(program.opts()), output);
    // A --jq expression is compiled before the action, so before any request (a
    // bad one exits 2), in a thread whose jq sees the run's environment, as its runs will.
    if (output.jq !== undefined) await (await f.jq()).compile(output.jq);
  });
  const makers = await Promise.all(entriesFor(word).map((entry) => entry.load()));
  for (const make of makers) {
    const command = make(f);
    // `__complete` and the like serve the completion scripts, not users: hidden from help and suggestions.
    program.addCommand(command, { hidden: command.name().startsWith('__') });
  }
  helpfulGroup(program);
  styleHelp(program);
  return program;
}

/** The root program as declared: its global flags and help (their type is inferred from here). */
function declareProgram(version: string) {
  const root = new Command('petstore')
    .description('Command-line client for the pet store service.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help');
  return declareGlobalFlags(root).addHelpText('after', ROOT_HELP_AFTER);
}

/** Adds the global flags to `root` (the program, or the reading of {@link readCommandLine}). */
function declareGlobalFlags(root: Command) {
  return root
    .option('--env <name>', 'environment: production (default), staging, or one you configured')
    .option('--base-url <url>', 'base URL of the service, ending in /v1 (overrides the config)')
    .option('--json', 'print JSON: exactly what the service sent; messages on stderr as JSON lines')
    .option('--no-color', 'disable colour')
    .addOption(valueOption('--timeout <ms>', 'deadline of the whole command, in milliseconds', { defaultText: String(TIMEOUT_MS.default) }))
    .addOption(
      valueOption('--retries <n>', 'retries of a GET on network errors, 408, 429, 502, 503, 504', { defaultText: String(RETRIES.default) }),
    )
    .option('--verbose', 'log requests (key redacted) to stderr, and the stack trace of an unexpected failure');
}

/** Below this many columns beside its term, a flag's description goes on the lines below the term. */
const NARROWEST_DESCRIPTION = 24;

/**
 * Every command's help: its global flags listed too (as gh's inherited flags),
 * allowed values and defaults unquoted, the output flags after its own; all
 * of it wrapped at word boundaries at the help's width (the terminal's, else 80).
 */
function styleHelp(command: CommandUnknownOpts): void {
  command.configureHelp({
    showGlobalOptions: true,
    sortSubcommands: false,
    minWidthToWrap: NARROWEST_DESCRIPTION,
    optionDescription: describeOption,
    visibleOptions(this: Help, cmd) {
      return helpOrder(Help.prototype.visibleOptions.call(this, cmd));
    },
    formatHelp(this: Help, cmd, helper) {
      // Commander wraps all but the usage line.
      const [usage = '', ...rest] = Help.prototype.formatHelp.call(this, cmd, helper).split('\n');
      return [...wrapLine(usage, this.helpWidth ?? 80, '', '       '), ...rest].join('\n');
    },
    formatItem(this: Help, term, termWidth, description, helper) {
      const width = this.helpWidth ?? 80;
      if (!description || width - termWidth - 4 >= NARROWEST_DESCRIPTION)
        return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
      // Too narrow for two columns: the description under its term.
      const lines = helper.boxWrap(description, Math.max(width - 6, 1)).split('\n');
      return [`  ${term}`, ...lines.map((line) => `      ${line}`)].join('\n');
    },
  });
  if (command.parent) command.helpOption('-h, --help', 'show help');
  wrapAddedHelp(command);
  command.commands.forEach(styleHelp);
}

/**
 * Wraps what `addHelpText('after', ...)` adds (examples, exit codes, notes)
 * at the help's width, as commander wraps the rest. A help event with
 * `unwrapped: true` (the man page, which roff fills) gets the text as written.
 */
function wrapAddedHelp(command: CommandUnknownOpts): void {
  const emitter = command as unknown as NodeJS.EventEmitter;
  const added = emitter.listeners('afterHelp') as Array<(context: { error: boolean; write(text: string): void }) => void>;
  if (added.length === 0) return;
  emitter.removeAllListeners('afterHelp');
  emitter.on('afterHelp', (context: { error: boolean; write(text: string): void; unwrapped?: boolean }) => {
    let text = '';
    const write = (chunk: string) => {
      text += chunk;
    };
    for (const listener of added) listener({ ...context, write });
    if (context.unwrapped) return context.write(text);
    const output = command.configureOutput();
    const width = (context.error ? output.getErrHelpWidth?.() : output.getOutHelpWidth?.()) ?? 80;
    context.write(wrapHelpText(text, width));
  });
}
