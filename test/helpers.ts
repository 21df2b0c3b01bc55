/**
 * What tests share: petstore run in-process through `main` (captured streams,
 * an isolated config folder, requests that no nock mock matched), and the one
 * way to start a child process (the built bin, a shell, the sandbox), to its
 * end or to signal it, with the one poller, {@link until}.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import nock from 'nock';
import { onTestFinished } from 'vitest';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Dispatcher } from 'undici';
import type { Factory } from '../src/factory.js';
import type { RunOptions } from '../src/main.js';
import type { OutputSpec } from '../src/output/format.js';
import { wrapMessage } from '../src/terminal/wrap.js';

export const BASE = 'https://api.petstore.test';
export const BASE_URL = `${BASE}/v1`;

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
  /** Requests that reached the network layer without a matching mock. */
  unmatched: string[];
}

export interface RunSetup {
  env?: NodeJS.ProcessEnv;
  /** Standard input: its whole text, or a stream the test writes to as the command runs. */
  stdin?: string | Readable;
  stdoutIsTTY?: boolean;
  stdinIsTTY?: boolean;
  signal?: AbortSignal;
  /** Aborted on the second Ctrl-C (`signal` on the first): stop waiting at once. */
  halt?: AbortSignal;
  configHome?: string;
  /** Width of the terminal stdout is (with stdoutIsTTY). */
  columns?: number;
  /** Random numbers for retry jitter (0: retry at once); Math.random when not given. */
  random?: () => number;
  /** What a --jq thread may hold, in MiB (1024 when not given). */
  jqMemoryLimitMb?: number;
  /** A bulk load's lock stale time in milliseconds (30,000 when not given): renewed, and checked for a take-over, every third of it. */
  lockStaleMs?: number;
  /** How a bulk load's journal writes (fs.writeSync when not given): a full disk injected at any byte. */
  bulkFileWrite?: (fd: number, data: Buffer, offset: number) => number;
  /** How long a bulk load waits for a service that refuses every connection before it stops (5,000 ms when not given). */
  unreachableMs?: number;
  /** The program's commands in place of the registry's: a command built with its runF, to see what reaches its run. */
  commands?: RunOptions['commands'];
  /** The launcher's leading command (src/launch.ts): only its declaration is built. */
  command?: string;
  /** Told each write to stderr as it happens, to wait for a message while the command runs. */
  onStderr?: (text: string) => void;
  /** Told each write to stdout as it happens, to wait for output while the command runs. */
  onStdout?: (text: string) => void;
  /** The client seam (`Seams.dispatcher`): every request goes there, not to the network; the fake client's `main` sets it. */
  dispatcher?: Dispatcher;
}

/** What one run of a command handed its runF: the options, and the output format settled before it (`api` settles none). */
export interface Reached<T> {
  options: T;
  output?: OutputSpec;
}

function settledOutput(f: Factory): OutputSpec | undefined {
  try {
    return f.exporter.spec;
  } catch {
    return undefined;
  }
}

/**
 * Runs `argv` in-process (see {@link run}) with the command `declare` makes, given a runF that records what reached it, as the
 * program's only command (gh's NewCmdX tests): the real parse and checks run, the command's run does not. Resolves to `{ code, stdout,
 * stderr, unmatched, reached }`: `reached` holds one {@link Reached} (`{ options, output }`) per run reached, none for a command line
 * refused before it ({@link refusedBeforeRun}). For a group's subcommand, `declare` hands runF on: `(f, runF) => newXCommand(f, { list: runF })`.
 */
export async function parseCommand<T>(
  declare: (f: Factory, runF: (options: T) => Promise<void>) => CommandUnknownOpts,
  argv: string[],
  setup: RunSetup = {},
): Promise<Result & { reached: Array<Reached<T>> }> {
  const reached: Array<Reached<T>> = [];
  const runF = (f: Factory) => async (options: T) => void reached.push({ options, output: settledOutput(f) });
  const result = await run(argv, { ...setup, commands: [(f) => declare(f, runF(f))] });
  return { ...result, reached };
}

/** What {@link parseCommand} returns for a command line refused before the run: exit 2, `message` as the error (wrapped at 80 columns). */
export function refusedBeforeRun(message: string) {
  return { code: 2, stdout: '', stderr: wrapped(`error: ${message}\n`), unmatched: [], reached: [] };
}

/**
 * Message lines as petstore writes them to a stderr that is not a terminal (these runs' stderr, a pipe, a file): each line longer than
 * 80 columns broken at spaces, its next lines indented by two, a hint's indented command continued with ` \` (src/terminal/wrap.ts; its rule
 * is tested on its own in test/wrap.test.ts and test/width.test.ts). Not for JSON lines, which are never wrapped.
 */
export function wrapped(text: string): string {
  return wrapMessage(text, 80);
}

/**
 * Stderr with the lines that {@link wrapped} broke joined again (a line indented by two continues the one above, a command's ` \`
 * its next line), for a test that looks for part of a message; a hint's indented command joins its line too.
 */
export function unwrapped(text: string): string {
  return text.replace(/ \\\n +(?=\S)/g, ' ').replace(/\n {2}(?=\S)/g, ' ');
}

/** A fresh XDG_CONFIG_HOME folder. */
export function tempConfigHome(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-test-'));
}

/** Default env: base URL and key of the mocked service, a fresh config folder. */
export function serviceEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PETSTORE_BASE_URL: BASE_URL, PETSTORE_API_KEY: 'test-key', ...extra };
}

export async function run(argv: string[], setup: RunSetup = {}): Promise<Result> {
  let stdout = '';
  let stderr = '';
  const unmatched: string[] = [];
  const onNoMatch = (req: { method?: string; path?: string; href?: string }) =>
    unmatched.push(`${req.method ?? ''} ${req.href ?? req.path ?? ''}`);
  // Loaded here, so that test files that only start child processes do not load src/.
  const { main } = await import('../src/main.js');
  nock.emitter.on('no match', onNoMatch);
  try {
    const code = await main(argv, {
      io: {
        stdout: {
          write: (t: string) => {
            stdout += t;
            setup.onStdout?.(t);
          },
        },
        stderr: {
          write: (t: string) => {
            stderr += t;
            setup.onStderr?.(t);
          },
        },
        stdin: typeof setup.stdin === 'object' ? setup.stdin : Readable.from(setup.stdin === undefined ? [] : [setup.stdin]),
        stdoutIsTTY: setup.stdoutIsTTY ?? false,
        stderrIsTTY: setup.stdoutIsTTY ?? false,
        stdinIsTTY: setup.stdinIsTTY ?? false,
        columns: setup.columns,
      },
      env: { XDG_CONFIG_HOME: setup.configHome ?? tempConfigHome(), ...setup.env },
      signal: setup.signal,
      haltSignal: setup.halt,
      version: '1.2.3',
      seams: {
        random: setup.random,
        jqMemoryLimitMb: setup.jqMemoryLimitMb,
        lockStaleMs: setup.lockStaleMs,
        bulkFileWrite: setup.bulkFileWrite,
        unreachableMs: setup.unreachableMs,
        dispatcher: setup.dispatcher,
      },
      commands: setup.commands,
      command: setup.command,
    });
    return { code, stdout, stderr, unmatched };
  } finally {
    nock.emitter.off('no match', onNoMatch);
  }
}

/** A Pet as a fixed answer of a fake service carries it. */
export const PET = { id: 1, name: 'Rex', categoryId: 2, status: 'available' };

/** The interface's Error body. */
export function errorBody(status: number, code: string, message: string) {
  return { code, message, status };
}

/** Output and exit code of a child process (`code` is null when a signal ended it). */
export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** How often {@link until} looks at its condition, in milliseconds. */
const POLL_MS = 5;

/**
 * Resolves once `condition()` holds, looking every few milliseconds: for
 * conditions no event announces (a request reaching a fake service, a file, a
 * process state in /proc). The test's time-out bounds the wait.
 */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
}

export interface StartOptions {
  /** The child's whole environment. */
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /**
   * Written to stdin, which is then closed (default: nothing); null leaves
   * stdin open for {@link Child.write} and {@link Child.end}.
   */
  input?: string | null;
  /** stdin, stdout and stderr: 'pipe' (the default; stdout and stderr are then collected), 'ignore' or a file descriptor. */
  stdio?: [StdioTarget, StdioTarget, StdioTarget];
  /** A concurrent test's own onTestFinished (of its context): vitest's global one may reach another test that runs meanwhile. */
  onTestFinished?: typeof onTestFinished;
}

type StdioTarget = 'pipe' | 'ignore' | number;

/** A child process started by {@link startChild}, with what it wrote so far. */
export interface Child {
  readonly process: ChildProcess;
  readonly pid: number;
  /** What it wrote to stdout so far (when piped). */
  readonly stdout: string;
  /** What it wrote to stderr so far (when piped). */
  readonly stderr: string;
  /** Its exit code, null while it runs or when a signal ended it. */
  readonly exitCode: number | null;
  /** Whether it has exited (by itself or by a signal). */
  readonly exited: boolean;
  /** Settles once it has exited and its output is read; rejects if it could not start. */
  readonly done: Promise<ChildResult>;
  kill(signal?: NodeJS.Signals): void;
  /** Writes to its stdin (started with `input: null`). */
  write(text: string): void;
  /** Writes `text` to its stdin and closes it. */
  end(text?: string): void;
  /** Resolves once `condition()` holds; rejects, with its output, if it exits first. */
  waitFor(condition: () => boolean, what?: string): Promise<void>;
  /** Resolves once its stdout or stderr (default) holds `text`; rejects, with its output, if it exits first. */
  waitForText(text: string | RegExp, stream?: 'stdout' | 'stderr'): Promise<void>;
}

/**
 * Starts `command args` without blocking this process (which may host the
 * servers the command talks to), collecting stdout and stderr. A child still
 * running when the test that started it ends is killed (SIGKILL), so that a
 * failed test leaves nothing behind.
 */
export function startChild(command: string, args: string[], options: StartOptions): Child {
  const stdio = options.stdio ?? ['pipe', 'pipe', 'pipe'];
  const child = spawn(command, args, { env: options.env, cwd: options.cwd, stdio });
  let stdout = '';
  let stderr = '';
  let failed = false;
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  const done = new Promise<ChildResult>((resolve, reject) => {
    child.on('error', (error) => {
      failed = true;
      reject(error);
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A command that ends without reading its input (a shell, a usage error) closes the pipe: not a failure.
    child.stdin?.on('error', (error: NodeJS.ErrnoException) => error.code !== 'EPIPE' && reject(error));
  });
  if (child.stdin && options.input !== null) child.stdin.end(options.input ?? '');
  const exited = () => failed || child.exitCode !== null || child.signalCode !== null;
  try {
    (options.onTestFinished ?? onTestFinished)(() => void (exited() ? undefined : child.kill('SIGKILL')));
  } catch {
    // Started outside a test (in a beforeAll): the hook that stops it is the file's.
  }
  const endedBefore = (what: string) =>
    new Error(
      `${command} ${args.join(' ')} exited (${child.exitCode ?? child.signalCode}) before ${what}\nstdout: ${stdout}\nstderr: ${stderr}`,
    );
  const handle: Child = {
    process: child,
    pid: child.pid ?? -1,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    get exitCode() {
      return child.exitCode;
    },
    get exited() {
      return exited();
    },
    done,
    kill: (signal = 'SIGTERM') => void child.kill(signal),
    write: (text) => void child.stdin!.write(text),
    end: (text = '') => void child.stdin!.end(text),
    async waitFor(condition, what = 'the condition held') {
      await until(() => condition() || exited());
      if (!condition()) throw endedBefore(what);
    },
    waitForText(text, stream = 'stderr') {
      const holds = () => {
        const output = stream === 'stdout' ? stdout : stderr;
        return typeof text === 'string' ? output.includes(text) : text.test(output);
      };
      return handle.waitFor(holds, `its ${stream} held ${text}`);
    },
  };
  return handle;
}

/**
 * Runs `command args` to its end with exactly `env`, feeding `stdin`; resolves
 * with its exit code and output (see {@link startChild}).
 */
export function spawnAsync(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin = '',
  options: Pick<StartOptions, 'cwd' | 'onTestFinished'> = {},
): Promise<ChildResult> {
  return startChild(command, args, { env, input: stdin, cwd: options.cwd, onTestFinished: options.onTestFinished }).done;
}

/** `node --import` of a module that makes the process look like Node `version`, its stderr a terminal of `columns` when given. */
export function posingAs(version: string, columns?: number): string[] {
  const tty = columns === undefined ? '' : `process.stderr.isTTY = true; process.stderr.columns = ${columns};`;
  const code = `Object.defineProperty(process.versions, 'node', { value: '${version}' }); ${tty}`;
  return ['--import', `data:text/javascript,${encodeURIComponent(code)}`];
}

/** The built bin/petstore.js. */
export const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));

/**
 * How end-to-end tests start petstore: `node bin/petstore.js`, or, when
 * PETSTORE_E2E_BIN names an executable (the standalone build), that file.
 * (.ci/run reruns against the standalone the test files that name
 * spawnPetstore or petstoreInvocation.)
 */
export function petstoreInvocation(): { command: string; prefix: string[] } {
  const standalone = process.env.PETSTORE_E2E_BIN;
  return standalone ? { command: standalone, prefix: [] } : { command: process.execPath, prefix: [BIN] };
}

/** Runs petstore (see petstoreInvocation) to its end with exactly `env`, feeding `stdin`. */
export function spawnPetstore(args: string[], env: NodeJS.ProcessEnv, stdin = '', options: { cwd?: string } = {}): Promise<ChildResult> {
  const { command, prefix } = petstoreInvocation();
  return spawnAsync(command, [...prefix, ...args], env, stdin, options);
}

/** The JSON values of an NDJSON file, one per non-blank line. */
// biome-ignore lint/suspicious/noExplicitAny: tests read --failed records of several shapes
export function readNdjson(file: string): any[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

/**
 * Whether tests that need `what` run here: `runs`. When they do not, says so on stdout, which vitest shows under the
 * test file, with how to run them (docs/testing.md, "Skipped tests"), so that no skip goes unexplained.
 */
export function runsHere(runs: boolean, what: string, howToRun: string): boolean {
  const notice = `skipped: the tests of ${what} (to run them: ${howToRun})`;
  if (!runs && !skipsSaid.has(notice)) console.info(notice);
  skipsSaid.add(notice);
  return runs;
}
const skipsSaid = new Set<string>();

/** {@link runsHere} for tests that need root, as they chown files to another user; `file` is the test file that holds them. */
export function runsAsRoot(what: string, file: string): boolean {
  return runsHere(
    process.getuid?.() === 0,
    what,
    `as root (they chown files to another user): sudo env "PATH=$PATH" npx vitest run ${file}`,
  );
}
