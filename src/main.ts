/** Runs one invocation: parses the command line, runs the command, reports what it threw and returns its exit code (errors.ts). */
import { CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { stringifyJson } from './json.js';
import { CliError, ExitCode, InterruptedError, OutputClosedError, type ErrorReport } from './errors.js';
import { Factory, type GlobalOptions, type Seams } from './factory.js';
import { IOStreams, type IO } from './iostreams.js';
import { COMMANDS } from './commands/registry.js';
import { buildProgram, type CommandMaker } from './program.js';
import { commanderRefusal } from './commands/usage-errors.js';
import { sanitizeLines, sanitizeText } from './text.js';

declare const PETSTORE_VERSION: string | undefined;
/** Injected by the build (scripts/build.mjs). */
export const VERSION = typeof PETSTORE_VERSION === 'string' ? PETSTORE_VERSION : '0.0.0-dev';

export interface RunOptions {
  io: IO;
  env: NodeJS.ProcessEnv;
  /** Aborted on the first SIGINT/SIGTERM, with an InterruptedError as reason. */
  signal?: AbortSignal;
  /** Aborted on the second: stop waiting at once. */
  haltSignal?: AbortSignal;
  version?: string;
  /** Test seams: retry jitter's random numbers, the --jq memory limit. */
  seams?: Seams;
  /** False when the process exits right after `main`: idle keep-alive connections are left for the OS to close. */
  closeConnections?: boolean;
  /** Test seam: the program's commands in place of the registry's, such as one built with its runF (gh's NewCmdX tests). */
  commands?: readonly CommandMaker[];
  /** The command the line starts with (src/launch.ts, leadingCommand): only its declaration is built; every one when undefined. */
  command?: string;
  /** Told the checked global flags before the command runs (entry.ts reports a stdout write error with --json's shape). */
  onGlobals?(globals: Readonly<GlobalOptions>): void;
}

/** The man page of the whole command tree (commands/man-page.ts), as scripts/man.mjs writes it and `petstore help man` prints it. */
export async function manPageText(): Promise<string> {
  const { manPage } = await import('./commands/man-page.js');
  return manPage(await commandTree(), VERSION);
}

/** The whole command tree as help shows it, with a Factory its actions may not use (for the man page and tests). */
export function commandTree(): Promise<CommandUnknownOpts> {
  const f = new Factory(
    new IOStreams({} as IO, {}),
    {},
    { stop: new AbortController().signal, halt: new AbortController().signal },
    VERSION,
  );
  return buildProgram(f);
}

/** The top-level command names: src/launch.ts keeps a code cache for each. */
export function commandNames(): string[] {
  return COMMANDS.map((entry) => entry.name);
}

/** Runs `petstore` with `argv` (arguments after the program name); returns the exit code. Never throws or calls process.exit. */
export async function main(argv: string[], options: RunOptions): Promise<number> {
  const { env } = options;
  const io = new IOStreams(options.io, env);
  const stop = options.signal ?? new AbortController().signal;
  const f = new Factory(
    io,
    env,
    { stop, halt: options.haltSignal ?? new AbortController().signal },
    options.version ?? VERSION,
    options.seams,
  );
  // The words after `__complete` are a command line being typed: its flags are words to complete, not flags of this run.
  const args = argv[0] === '__complete' ? ['__complete', '--', ...argv.slice(1)] : argv;
  const program = await buildProgram(f, options.command, options.commands);
  // The root parses the global flags wherever they stand before the command's own parse, so its errors see --json.
  const json = () => program.opts().json === true;
  program.hook('preAction', () => options.onGlobals?.(f.globals));
  const configure = (command: CommandUnknownOpts): void => {
    // Commander's refusal of the command line, reported as every usage error is (below), by its code (commands/usage-errors.ts).
    command.exitOverride((error) => {
      throw commanderRefusal(command, error);
    });
    // Suggestions are ours (commands/help.ts), said the same way for flags and commands.
    command.showSuggestionAfterError(false);
    command.configureOutput({
      writeOut: (text) => io.writeOut(text),
      writeErr: (text) => io.writeError(text),
      getOutHelpWidth: () => (io.std.stdoutIsTTY ? io.termColumns : 80),
      getErrHelpWidth: () => io.errColumns ?? 80,
      // Said by reportError, from the error exitOverride throws.
      outputError: () => undefined,
    });
    command.commands.forEach(configure);
  };
  configure(program);

  let code: number;
  try {
    await program.parseAsync(args, { from: 'user' });
    code = ExitCode.ok;
  } catch (error) {
    const traces = { debug: env.PETSTORE_DEBUG === '1', verbose: program.opts().verbose === true };
    code = reportError(error, io, json(), traces, stop);
  } finally {
    io.clearStatusLine();
    await io.stopPager();
    if (options.closeConnections !== false) await f.close();
    f.restoreHeapGrowth();
  }
  // A pager that failed after output may have reached the terminal (it warned): the output may be incomplete.
  return code === ExitCode.ok && io.pagerFailed ? ExitCode.failure : code;
}

/** Stack traces: PETSTORE_DEBUG=1 for every error but Ctrl-C; --verbose only for a bug, since an expected failure is fully said by its message. */
interface StackTraces {
  debug: boolean;
  verbose: boolean;
}

function reportError(error: unknown, io: IOStreams, json: boolean, traces: StackTraces, signal: AbortSignal): number {
  // Help and --version end with exit code 0; every other CommanderError is a usage error.
  if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  if (signal.aborted && signal.reason instanceof InterruptedError) error = signal.reason;
  if (error instanceof OutputClosedError) return error.exitCode;
  const write = (line: string) => io.writeError(`${line}\n`);
  const say = (line: string) => io.writeMessage(`${line}\n`);
  if (error instanceof CliError) {
    if (!(error instanceof InterruptedError)) {
      if (json) write(stringifyJson(error.report()));
      else {
        // In one piece: a hint's lead-in wraps by the command under it (terminal/wrap.ts, wrapMessage).
        say(`error: ${sanitizeText(error.message)}${error.hint ? `\n${sanitizeLines(error.hint)}` : ''}`);
      }
    }
    // Ctrl-C is the user's choice, not a failure: no trace even with PETSTORE_DEBUG=1.
    if (traces.debug && !(error instanceof InterruptedError)) writeStack(io, error, json);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  const traced = traces.debug || traces.verbose;
  const hint = traced ? undefined : 'Run again with --verbose or PETSTORE_DEBUG=1 for details.';
  if (json) write(stringifyJson({ code: 'internal_error', message, status: null, ...(hint && { hint }) } satisfies ErrorReport));
  else say(`error: unexpected failure: ${sanitizeText(message)}`);
  if (hint === undefined) writeStack(io, error, json);
  else if (!json) say(hint);
  return ExitCode.failure;
}

/** A stack trace on stderr, sanitised line by line; with --json one `{"stack"}` object. */
function writeStack(io: IOStreams, error: unknown, json: boolean): void {
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  if (json) io.writeError(`${stringifyJson({ stack })}\n`);
  else for (const line of stack.split('\n')) io.writeError(`${sanitizeText(line)}\n`);
}
