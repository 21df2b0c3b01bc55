/**
 * Process glue for bin/petstore.js: wires real stdio, signals and broken pipes
 * to `main`, then sets the exit code. Nothing else touches `process`.
 */
import { InterruptedError } from './errors.js';
import { main } from './main.js';
import { sanitizeText } from './text.js';

/** Runs petstore for this process and sets `process.exitCode`. */
export async function start(): Promise<void> {
  const controller = new AbortController();
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    if (controller.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
    controller.abort(new InterruptedError(signal));
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  // Every promise is awaited; should one still reject unobserved, it ends the
  // command as a failure with one line, not a trace.
  process.on('unhandledRejection', (reason) => {
    const message = reason instanceof Error ? reason.message : String(reason);
    process.stderr.write(`error: unexpected failure: ${sanitizeText(message)}\n`);
    process.exit(1);
  });
  // A reader that went away (`petstore list | head -1`) is not an error worth a trace.
  const onPipeError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  };
  process.stdout.on('error', onPipeError);
  let stderrWatched = false;
  // stdin and stderr are opened on first use: creating a stdio stream costs a
  // few milliseconds, and most calls never read stdin.
  const code = await main(process.argv.slice(2), {
    io: {
      stdout: process.stdout,
      get stderr() {
        if (!stderrWatched) process.stderr.on('error', onPipeError);
        stderrWatched = true;
        return process.stderr;
      },
      get stdin() {
        return process.stdin;
      },
      stdoutIsTTY: Boolean(process.stdout.isTTY),
      get stderrIsTTY() {
        return Boolean(process.stderr.isTTY);
      },
      get stdinIsTTY() {
        return Boolean(process.stdin.isTTY);
      },
    },
    env: process.env,
    signal: controller.signal,
    closeConnections: false,
  });
  process.exitCode = code;
}
