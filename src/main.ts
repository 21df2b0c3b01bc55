/**
 * Entry point: parses the command line, runs one command and maps what it
 * throws to an exit code. The only place that picks an exit code.
 */
import { CommanderError, type Command } from 'commander';
import { buildProgram } from './cli.js';
import { Context, type GlobalOptions, type IO } from './context.js';
import { CliError, ExitCode, InterruptedError, type ErrorReport } from './errors.js';
import { stringifyJson } from './api/json.js';
import { sanitizeText } from './text.js';

declare const PETSTORE_VERSION: string | undefined;
/** Injected by the build (scripts/build.mjs); tests read package.json's version instead. */
export const VERSION = typeof PETSTORE_VERSION === 'string' ? PETSTORE_VERSION : '0.0.0-dev';

export interface RunOptions {
  io: IO;
  env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT/SIGTERM with an InterruptedError as its reason. */
  signal?: AbortSignal;
  version?: string;
  /**
   * False when the process exits right after `main`: idle keep-alive
   * connections are then left for the OS to close, which saves the ~3 ms an
   * orderly close takes. Requests still in flight hold the process either way.
   */
  closeConnections?: boolean;
}

/**
 * Runs `petstore` with `argv` (arguments after the program name) and returns
 * the exit code (see ExitCode). Never throws and never calls process.exit.
 */
export async function main(argv: string[], options: RunOptions): Promise<number> {
  const { io, env } = options;
  const signal = options.signal ?? new AbortController().signal;
  const version = options.version ?? VERSION;
  let ctx: Context | undefined;
  let globals: Partial<GlobalOptions> = {};

  const program = buildProgram(
    version,
    (flags) => {
      globals = flags;
      ctx = new Context(io, env, flags, signal, version);
      return ctx;
    },
    async (work, c) => {
      try {
        await work(c);
      } finally {
        if (options.closeConnections !== false) await c.close();
      }
    },
  );
  const configure = (command: Command): void => {
    command.exitOverride();
    command.configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(text),
    });
    command.showHelpAfterError(`(run "${commandPath(command)} --help" for usage)`);
    command.commands.forEach(configure);
  };
  configure(program);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    return reportError(error, io, env, globals, signal);
  }
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function reportError(
  error: unknown,
  io: IO,
  env: NodeJS.ProcessEnv,
  globals: Partial<GlobalOptions>,
  signal: AbortSignal,
): number {
  if (error instanceof CommanderError) {
    // Help and version requested explicitly exit 0; commander already printed everything else.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.ok;
    return ExitCode.usage;
  }
  if (signal.aborted && signal.reason instanceof InterruptedError) error = signal.reason;
  const write = (line: string) => io.stderr.write(`${line}\n`);
  if (error instanceof CliError) {
    if (!(error instanceof InterruptedError)) {
      write(`error: ${sanitizeText(error.message)}`);
      if (error.hint) write(sanitizeText(error.hint));
      if (globals.json) write(stringifyJson(error.report()));
    }
    if (globals.verbose || env.PETSTORE_DEBUG === '1') write(sanitizeText(error.stack ?? ''));
    return error.exitCode;
  }
  // A bug, not an expected failure: say so, with the stack only on request.
  const message = error instanceof Error ? error.message : String(error);
  write(`error: unexpected failure: ${sanitizeText(message)}`);
  if (globals.json) write(stringifyJson({ code: 'internal_error', message, status: null } satisfies ErrorReport));
  if (globals.verbose || env.PETSTORE_DEBUG === '1') write(error instanceof Error ? (error.stack ?? '') : '');
  else write('Run again with --verbose or PETSTORE_DEBUG=1 for details.');
  return ExitCode.failure;
}
