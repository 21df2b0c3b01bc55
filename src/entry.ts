/**
 * Process glue for bin/petstore.js and the standalone executable: wires real
 * stdio, signals, write errors and the environment to `main`, then sets the
 * exit code. Commands get all of these through the Factory, never from
 * `process` (only launch.ts, the config file's ownership checks and the
 * --failed file's temporary name read it directly).
 */
import { InterruptedError, type StopSignal } from './errors.js';
import { main } from './main.js';
import type { PagerCount } from './terminal/pager.js';

export { commandNames, commandTree } from './main.js';
import { sanitizeText } from './text.js';

/** Signals closer together than this (milliseconds) count as one (see onSignal). */
const SIGNAL_ECHO_MS = 150;

/**
 * Runs petstore for this process and sets `process.exitCode`. The first
 * SIGINT or SIGTERM stops the command (a bulk load takes no new item and
 * lets its requests finish), the second stops waiting for them, the third exits at once.
 * While a pager runs, SIGINT is the pager's and petstore ignores it.
 */
export async function start(): Promise<void> {
  const argv = process.argv.slice(2);
  // Node's deprecation warnings speak to developers of the libraries, not to a
  // user of the tool, and would break `--json`'s one-object-per-line stderr
  // (undici gives an https proxy's IP address as the TLS server name: DEP0123).
  if (process.env.PETSTORE_DEBUG !== '1') process.noDeprecation = true;
  const stop = new AbortController();
  const halt = new AbortController();
  let lastSignalAt = Number.NEGATIVE_INFINITY;
  const pagers: PagerCount = { running: 0 };
  const onSignal = (signal: StopSignal) => {
    // Ctrl-C in a pager is the pager's (see PagerCount); quitting it ends petstore.
    if (signal === 'SIGINT' && pagers.running > 0) return;
    // A library may catch a signal and raise it again (when-exit, which conf's
    // atomic writes load, does): that echo arrives within milliseconds and is
    // not a second Ctrl-C, which a person cannot type that fast.
    const now = performance.now();
    if (now - lastSignalAt < SIGNAL_ECHO_MS) return;
    lastSignalAt = now;
    if (halt.signal.aborted) process.exit(new InterruptedError(signal).exitCode);
    if (stop.signal.aborted) halt.abort(new InterruptedError(signal));
    else stop.abort(new InterruptedError(signal));
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  // A closed terminal or a lost ssh connection: stopped as SIGTERM stops (a bulk load still writes --failed).
  process.on('SIGHUP', () => onSignal('SIGHUP'));
  // Every promise is awaited; should one still reject unobserved, it ends the
  // command as a failure with one line, not a trace.
  process.on('unhandledRejection', (reason) => {
    const message = reason instanceof Error ? reason.message : String(reason);
    process.stderr.write(`error: unexpected failure: ${sanitizeText(message)}\n`);
    process.exit(1);
  });
  // A command that must account for its output (a bulk load) takes stdout's
  // write errors itself; otherwise a reader that went away (`petstore list |
  // head -1`) ends the command quietly, and any other write error with one line.
  const stdoutHandlers = new Set<(error: NodeJS.ErrnoException) => void>();
  // --json as the parse of the global flags reads it (main tells it before the command runs).
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
  // Should the event loop ever run dry while a command still awaits something,
  // the process must not end as a silent success.
  let finished = false;
  process.on('beforeExit', () => {
    if (finished) return;
    process.stderr.write('error: unexpected failure: petstore stopped before the command finished\n');
    process.exit(1);
  });
  let stderrWatched = false;
  // stdin and stderr are opened on first use: creating a stdio stream costs a
  // few milliseconds, and most calls never read stdin.
  const code = await main(argv, {
    io: {
      stdout: process.stdout,
      get stderr() {
        // A terminal gone away (EIO) or a closed pipe (EPIPE) loses the messages, never the
        // command's work: a bulk load must still write --failed. Later writes go nowhere.
        if (!stderrWatched) process.stderr.on('error', () => undefined);
        stderrWatched = true;
        return process.stderr;
      },
      get stdin() {
        return process.stdin;
      },
      stdoutIsTTY: Boolean(process.stdout.isTTY),
      // Asked of the descriptor, so that asking (the spinner does, per request) does not open process.stderr.
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
    onCommandLine: (line) => {
      json = line.json;
    },
  });
  finished = true;
  process.exitCode = code;
}
