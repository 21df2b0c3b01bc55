/** The command tree: the root with its global flags, and the registry's commands. Actions load their dependencies when run, keeping `--help` fast. */
import { Command, Help, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Factory, GlobalOptions } from './factory.js';
import type { OutputFlags } from './output/format.js';
import { RETRIES, TIMEOUT_MS } from './flag-bounds.js';
import { describeOption, globalFlagsOf, helpOrder, valueOption } from './commands/kit.js';
import { addGroupHelp, unknownFlag } from './commands/help.js';
import { COMMANDS, type CommandEntry } from './commands/registry.js';
import { plainSpaces, wrapHelpText, wrapLine } from './terminal/wrap.js';

/** The end of the root help (also sections of the man page). */
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
  3    not found: no such pet (get, or a command whose operation declares
       its not-found), or any 404 answer to api
  4    authentication: no API key, the service answered 401, or the stored
       key belongs to another origin
  129  hung up (SIGHUP)
  130  interrupted (Ctrl-C)
  143  terminated (SIGTERM)

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

/** The registry entries needed: the one named, or all for none (help), an unknown one (suggestions) or one reading the whole tree (completion). */
function entriesFor(word: string | undefined): readonly CommandEntry[] {
  const named = COMMANDS.find((entry) => entry.name === word);
  return named && !named.needsTree ? [named] : COMMANDS;
}

/** `--format` and `--jq` as parsed, undefined when not given or not the command's flags. */
function outputFlagsOf(command: CommandUnknownOpts): OutputFlags {
  const text = (name: string) => {
    const value: unknown = command.getOptionValue(name);
    return typeof value === 'string' ? value : undefined;
  };
  return { format: text('format'), jq: text('jq') };
}

/** Refuses, as an unknown flag (exit 2), a global flag given to `action` that does not apply to it (kit.ts, withGlobalFlags). */
function refuseGlobalFlags(root: CommandUnknownOpts, action: CommandUnknownOpts): void {
  const applies = globalFlagsOf(action);
  if (!applies) return;
  for (const option of root.options) {
    const given = root.getOptionValueSource(option.attributeName()) === 'cli';
    if (given && option.long && !applies.some((flag) => flag === option.long)) throw unknownFlag(action, option.long);
  }
}

/** Makes one top-level command for a run's Factory (a registry entry's declaration, or a test's with its runF). */
export type CommandMaker = (f: Factory) => CommandUnknownOpts;

/** Builds the program with only command `word` if it is one, else all, run with `f`; `commands` (a test seam) replace the registry's. */
export async function buildProgram(f: Factory, word?: string, commands?: readonly CommandMaker[]) {
  const program = declareProgram(f.version);
  program.hook('preAction', async (_program, action) => {
    refuseGlobalFlags(program, action);
    const output = outputFlagsOf(action);
    f.setGlobals(await globalOptions(program.opts()), output);
    // Compiled before the action, so a bad --jq exits 2 before any request; in a thread whose jq sees the run's environment.
    if (output.jq !== undefined) await (await f.jq()).compile(output.jq);
  });
  const makers = commands ?? (await Promise.all(entriesFor(word).map((entry) => entry.load())));
  for (const make of makers) {
    const command = make(f);
    // `__complete` and the like serve the completion scripts, not users: hidden from help and suggestions.
    program.addCommand(command, { hidden: command.name().startsWith('__') });
  }
  addGroupHelp(program, [
    {
      name: 'man',
      description: 'print the man page, every command in one page (troff), for man to read or to install',
      summary: 'the man page',
      example: 'petstore help man | man -l -',
      print: async () => {
        const { manPage } = await import('./commands/man-page.js');
        // At a terminal, man renders it, as `man petstore` shows an installed page (a missing man is named, the troff printed).
        const shown = f.io.pageOutput({ words: ['man', '-l', '-'], chosen: true });
        f.io.writeOut(manPage(program, f.version));
        if (f.io.std.stdoutIsTTY && !shown)
          f.io.writeMessage('That is the man page as troff; to read it:\n  petstore help man | man -l -\n');
      },
    },
  ]);
  styleHelp(program);
  return program;
}

function declareProgram(version: string) {
  return new Command('petstore')
    .description('Command-line client for the pet store service.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--env <name>', 'environment: production (default), staging, or one you configured')
    .option('--base-url <url>', 'base URL of the service, ending in /v1 (overrides the config)')
    .option('--json', 'print JSON: exactly what the service sent; messages on stderr as JSON lines')
    .option('--no-color', 'disable colour')
    .addOption(
      valueOption(
        '--timeout <ms>',
        'deadline in milliseconds: of the command, of each page of a whole listing, of each request of add --file',
        { defaultText: String(TIMEOUT_MS.default) },
      ),
    )
    .addOption(
      valueOption(
        '--retries <n>',
        'retries of a GET on network errors, 408, 429, 502, 503, 504, and of a bulk POST refused with 429 or 503 and Retry-After',
        { defaultText: String(RETRIES.default) },
      ),
    )
    .option('--verbose', 'log requests (key redacted) to stderr, and the stack trace of an unexpected failure')
    .addHelpText('after', ROOT_HELP_AFTER);
}

/** Below this many columns beside its term, a flag's description goes below the term. */
const NARROWEST_DESCRIPTION = 24;

/** Every command's help: global flags listed (as gh's inherited flags), values and defaults unquoted, output flags last, wrapped at the help's width. */
function styleHelp(command: CommandUnknownOpts): void {
  command.configureHelp({
    showGlobalOptions: true,
    sortSubcommands: false,
    minWidthToWrap: NARROWEST_DESCRIPTION,
    optionDescription: describeOption,
    visibleOptions(this: Help, cmd) {
      return helpOrder(Help.prototype.visibleOptions.call(this, cmd));
    },
    // Only the global flags that apply to the command (kit.ts, withGlobalFlags); --version is the root's alone.
    visibleGlobalOptions(this: Help, cmd) {
      const applies = globalFlagsOf(cmd);
      const all = Help.prototype.visibleGlobalOptions.call(this, cmd).filter((option) => option.long !== '--version');
      return applies ? all.filter((option) => applies.some((flag) => option.long === flag)) : all;
    },
    formatHelp(this: Help, cmd, helper) {
      const [usage = '', ...rest] = Help.prototype.formatHelp.call(this, cmd, helper).split('\n');
      return plainSpaces([...wrapLine(usage, this.helpWidth ?? 80, '', '       '), ...rest].join('\n'));
    },
    // Broken at spaces only: a description's "default: 8" is joined by an unbreakable space (kit.ts, describeOption).
    boxWrap(this: Help, text, width) {
      if (width < NARROWEST_DESCRIPTION) return text;
      return text
        .split('\n')
        .map((line) => wrapLine(line, width).join('\n'))
        .join('\n');
    },
    formatItem(this: Help, term, termWidth, description, helper) {
      const width = this.helpWidth ?? 80;
      if (!description || width - termWidth - 4 >= NARROWEST_DESCRIPTION)
        return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
      const lines = helper.boxWrap(description, Math.max(width - 6, 1)).split('\n');
      return [`  ${term}`, ...lines.map((line) => `      ${line}`)].join('\n');
    },
  });
  if (command.parent) command.helpOption('-h, --help', 'show help');
  wrapAddedHelp(command);
  command.commands.forEach(styleHelp);
}

/** Wraps `addHelpText('after')` text at the help's width; a help event with `unwrapped: true` (the man page, filled by roff) gets it as written. */
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
