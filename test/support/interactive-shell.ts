/**
 * A shell started interactively in a pseudo-terminal of 80 x 24 (@lydell/node-pty), as a user opens one: what it draws so far,
 * a wait for a pattern to show, typed keys and its exit code. For the tests of the lines that load shell completion.
 */
import pty from '@lydell/node-pty';

export interface InteractiveShell {
  /** Resolves once everything drawn so far matches `pattern` (the test's time-out bounds the wait). */
  seen(pattern: RegExp): Promise<void>;
  /** Types `keys` ("\t" is Tab, "\x15" Ctrl-U, "\r" Enter). */
  type(keys: string): void;
  /** The exit code, once it has exited. */
  exited: Promise<number>;
}

/** Starts `shell args` in `cwd` with exactly `env`. */
export function interactiveShell(shell: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): InteractiveShell {
  const child = pty.spawn(shell, args, { name: 'xterm', cols: 80, rows: 24, cwd, env: env as Record<string, string> });
  let screen = '';
  const waiters = new Set<() => void>();
  child.onData((data) => {
    screen += data;
    for (const check of waiters) check();
  });
  const exited = new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)));
  const seen = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!pattern.test(screen)) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  return { seen, type: (keys) => child.write(keys), exited };
}
