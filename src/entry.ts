/** Process glue for bin/petstore.js and the standalone executable: real stdio, signals and environment to `main`, then the exit code. */
import { InterruptedError, type StopSignal } from './errors.js';
import { main } from './main.js';
import type { PagerCount } from './terminal/pager.js';
import { wrapMessage } from './terminal/wrap.js';
import { sanitizeText } from './text.js';

export { commandNames, commandTree, manPageText } from './main.js';
// For scripts/quickstart.mjs: its messages wrap as petstore's do.
export { wrapMessage };

/** Signals closer together than this (milliseconds) count as one (see onSignal). */
const SIGNAL_ECHO_MS = 150;

/**
 * Runs petstore with `argv` and sets `process.exitCode`; `command` (launch.ts's leadingCommand) is the one declaration to build. The
 * first SIGINT or SIGTERM stops the command, the second its waiting, the third exits; while a pager runs, SIGINT is the pager's.
 */
export async function start(argv: readonly string[], command?: string): Promise<void> {
  // Node's deprecation warnings are for library developers, and would break --json's stderr (undici's DEP0123 behind an https proxy).
  if (process.env.PETSTORE_DEBUG !== '1') process.noDeprecation = true;
  const stop = new AbortController();
  const halt = new AbortController();
  let lastSignalAt = Number.NEGATIVE_INFINITY;
  const pagers: PagerCount = { running: 0 };
  const onSignal = (signal: StopSignal) => {
    if (signal === 'SIGINT' && pagers.running > 0) return;
    // A library may catch a signal and raise it again (when-exit, loaded by conf): that echo is not a second Ctrl-C.
    const now = performance.now();
    if (now - lastSignalAt < SIGNAL_ECHO_MS) return;
    lastSignalAt = now;
    if (halt.signal.aborted) process.exit(new InterruptedError(signal).exitCode);
    if (stop.signal.aborted) halt.abort(new InterruptedError(signal));
    else stop.abort(new InterruptedError(signal));
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  // A closed terminal or lost ssh connection stops as SIGTERM does (a bulk load still writes --failed).
  process.on('SIGHUP', () => onSignal('SIGHUP'));
  // Should a promise still reject unobserved: one line, not a trace.
  process.on('unhandledRejection', (reason) => {
    const message = reason instanceof Error ? reason.message : String(reason);
    const columns = (process.stderr.isTTY && process.stderr.columns) || 80;
    process.stderr.write(`${wrapMessage(`error: unexpected failure: ${sanitizeText(message)}`, columns)}\n`);
    process.exit(1);
  });
  // Stdout's write errors, unless a bulk load takes them: a reader gone (`list | head -1`) ends quietly, others in one line.
  const stdoutHandlers = new Set<(error: NodeJS.ErrnoException) => void>();
  let json = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (stdoutHandlers.size > 0) {
      for (const handler of stdoutHandlers) handler(error);
      return;
    }
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    const message = `cannot write to standard output: ${error.code ?? error.message}`;
    process.stderr.write(json ? `${JSON.stringify({ code: 'stdout_error', message, status: null })}\n` : `error: ${message}\n`);
    process.exit(1);
  });
  // An event loop that runs dry while the command awaits must not end as a silent success.
  let finished = false;
  process.on('beforeExit', () => {
    if (finished) return;
    process.stderr.write('error: unexpected failure: petstore stopped before the command finished\n');
    process.exit(1);
  });
  let stderrWatched = false;
  // stdin and stderr are opened on first use: most calls never read stdin.
  const code = await main([...argv], {
    io: {
      stdout: process.stdout,
      get stderr() {
        // A lost terminal (EIO) or closed pipe (EPIPE) loses the messages, never the work (--failed).
        if (!stderrWatched) process.stderr.on('error', () => undefined);
        stderrWatched = true;
        return process.stderr;
      },
      get stdin() {
        return process.stdin;
      },
      stdoutIsTTY: Boolean(process.stdout.isTTY),
      // Asked of the descriptor, so that asking does not open process.stderr.
      get stderrIsTTY() {
        return process.getBuiltinModule('node:tty').isatty(2);
      },
      get stdinIsTTY() {
        return Boolean(process.stdin.isTTY);
      },
      columns: process.stdout.isTTY ? process.stdout.columns : undefined,
      get stderrColumns() {
        return process.stderr.isTTY ? process.stderr.columns : undefined;
      },
      get promptOutput() {
        return process.stderr;
      },
      canPage: true,
      pagers,
      onStdoutError(handler) {
        stdoutHandlers.add(handler);
        return () => stdoutHandlers.delete(handler);
      },
    },
    env: process.env,
    signal: stop.signal,
    haltSignal: halt.signal,
    closeConnections: false,
    command,
    onGlobals: (globals) => {
      json = globals.json;
    },
  });
  finished = true;
  process.exitCode = code;
}
