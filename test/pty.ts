/**
 * Runs the built petstore on a pseudo-terminal (@lydell/node-pty: node-pty's
 * API with prebuilt binaries, so nothing compiles at install time) and keeps
 * what a user would see: the raw bytes the terminal received and the screen
 * they draw, rendered by a headless xterm.js with Unicode 11 widths (CJK and emoji
 * two columns), scrollback included. Tests check the screen, not the bytes,
 * where the question is what the user sees.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import xterm from '@xterm/headless';
import pty from '@lydell/node-pty';
import { startPetService } from '../sandbox/pet-service.mjs';
import { petstoreInvocation, tempConfigHome } from './helpers.js';

/** One line of the emulated screen. */
export interface ScreenLine {
  /** Its text, trailing blanks cut. */
  text: string;
  /** It continues the line above: that line was wider than the terminal. */
  wrapped: boolean;
  /** The column after its last visible character, as the terminal laid it out (wide characters take two). */
  end: number;
}

export interface PtyOptions {
  /** Variables besides PATH, HOME, TERM, LANG (C.UTF-8) and a fresh XDG_CONFIG_HOME; undefined removes one. PETSTORE_PAGER is empty unless given. */
  env?: NodeJS.ProcessEnv;
  cols?: number;
  rows?: number;
  /** A shell command line around petstore, `$PETSTORE` standing for it (redirections, pipes). */
  shell?: string;
  /** A script Node runs in place of petstore (test/pty-confirm.test.ts: a build of test/fixtures/kit-cli.ts). */
  script?: string;
}

/** A petstore process on a pseudo-terminal. */
export interface PtyRun {
  /** Everything the terminal received so far, as sent. */
  output(): string;
  /** Resolves once the output so far matches `pattern` (the test's time-out bounds the wait). */
  waitFor(pattern: RegExp | string): Promise<void>;
  /** Types `keys` at the terminal ("\x03" is Ctrl-C, "\x04" Ctrl-D, "\r" Enter). */
  type(keys: string): void;
  /** The exit code, once the process has exited. */
  exited: Promise<number>;
  /** The screen and scrollback once all output so far is drawn, trailing empty lines cut. */
  screen(): Promise<ScreenLine[]>;
  /** The screen's lines as text (see {@link screen}). */
  text(): Promise<string[]>;
}

/** Starts `petstore args` on a terminal of `cols` x `rows` (default 80 x 24). */
export function runInPty(args: string[], options: PtyOptions = {}): PtyRun {
  const cols = options.cols ?? 80;
  const rows = options.rows ?? 24;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.homedir(),
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    XDG_CONFIG_HOME: tempConfigHome(),
    PETSTORE_PAGER: '',
  };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const { command, prefix } = options.script ? { command: process.execPath, prefix: [options.script] } : petstoreInvocation();
  const [file, argv] = options.shell
    ? ['/bin/sh', ['-c', options.shell.replace('$PETSTORE', [command, ...prefix, ...args].map(quote).join(' '))]]
    : [command, [...prefix, ...args]];
  const child = pty.spawn(file, argv, { name: 'xterm-256color', cols, rows, env, cwd: process.cwd() });
  const terminal = new xterm.Terminal({ cols, rows, scrollback: 5000, allowProposedApi: true });
  terminal.loadAddon(new Unicode11Addon());
  terminal.unicode.activeVersion = '11';
  let output = '';
  const waiters = new Set<() => void>();
  child.onData((data) => {
    output += data;
    terminal.write(data);
    for (const check of waiters) check();
  });
  const exited = new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)));
  const screen = async (): Promise<ScreenLine[]> => {
    await new Promise<void>((resolve) => terminal.write('', resolve));
    const buffer = terminal.buffer.active;
    const lines: ScreenLine[] = [];
    for (let i = 0; i < buffer.length; i += 1) {
      const line = buffer.getLine(i)!;
      let end = 0;
      for (let x = 0; x < cols; x += 1) {
        const cell = line.getCell(x)!;
        if (cell.getChars().trim() !== '') end = x + cell.getWidth();
      }
      lines.push({ text: line.translateToString(true), wrapped: line.isWrapped, end });
    }
    while (lines.length && lines.at(-1)!.text === '') lines.pop();
    return lines;
  };
  return {
    output: () => output,
    waitFor: (pattern) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (typeof pattern === 'string' ? output.includes(pattern) : pattern.test(output)) {
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        check();
      }),
    type: (keys) => child.write(keys),
    exited,
    screen,
    text: async () => (await screen()).map((line) => line.text),
  };
}

/** `text` quoted for sh. */
export function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A fresh temporary folder. */
export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-pty-'));
}

/** `text` without ANSI escape sequences (colours, cursor moves). */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}

/** A service whose answers wait for the test: see {@link gatedService}. */
export interface GatedService {
  baseUrl: string;
  /** Resolves once a request has arrived. */
  arrived: Promise<void>;
  /** Lets every held request, and any later one, have its answer. */
  release(): void;
  close(): Promise<void>;
}

/**
 * The fake service (sandbox/pet-service.mjs) holding every request until
 * `release()`, then answering it with `answer(method, url)`: a slow service
 * whose slowness the test controls, without sleeping.
 */
export async function gatedService(
  answer: (method: string, url: string) => { status: number; json: unknown; headers?: Record<string, string> },
): Promise<GatedService> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const service = await startPetService({
    key: 'k',
    faults: (request) => {
      arrive();
      return { until: gate, ...answer(request.method, request.url) };
    },
  });
  return { baseUrl: service.baseUrl, arrived, release, close: () => service.close() };
}
