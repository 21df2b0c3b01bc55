/**
 * Runs petstore in-process through `main` with captured streams and an
 * isolated config folder, and records requests that no nock mock matched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import nock from 'nock';
import { main } from '../src/main.js';

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
  stdin?: string;
  stdoutIsTTY?: boolean;
  stdinIsTTY?: boolean;
  signal?: AbortSignal;
  configHome?: string;
  /** Width of the terminal stdout is (with stdoutIsTTY). */
  columns?: number;
  /** Random numbers for retry jitter (0: retry at once); Math.random when not given. */
  random?: () => number;
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
  nock.emitter.on('no match', onNoMatch);
  try {
    const code = await main(argv, {
      io: {
        stdout: { write: (t: string) => (stdout += t) },
        stderr: { write: (t: string) => (stderr += t) },
        stdin: Readable.from(setup.stdin === undefined ? [] : [setup.stdin]),
        stdoutIsTTY: setup.stdoutIsTTY ?? false,
        stderrIsTTY: setup.stdoutIsTTY ?? false,
        stdinIsTTY: setup.stdinIsTTY ?? false,
        columns: setup.columns,
      },
      env: { XDG_CONFIG_HOME: setup.configHome ?? tempConfigHome(), ...setup.env },
      signal: setup.signal,
      version: '1.2.3',
      random: setup.random,
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

/** Output and exit code of a child process. */
export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command without blocking this process (which may host the servers
 * the command talks to), feeding `stdin` and collecting stdout and stderr.
 */
export function spawnAsync(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin = '',
  options: { cwd?: string } = {},
): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'], cwd: options.cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A command that ends without reading its input (a shell, a usage error) closes the pipe: not a failure.
    child.stdin.on('error', (error: NodeJS.ErrnoException) => error.code !== 'EPIPE' && reject(error));
    child.stdin.end(stdin);
  });
}

/** The built bin/petstore.js. */
export const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));

/**
 * How end-to-end tests start petstore: `node bin/petstore.js`, or, when
 * PETSTORE_E2E_BIN names an executable (the standalone build), that file.
 */
export function petstoreInvocation(): { command: string; prefix: string[] } {
  const standalone = process.env.PETSTORE_E2E_BIN;
  return standalone ? { command: standalone, prefix: [] } : { command: process.execPath, prefix: [BIN] };
}

/** Runs petstore (see petstoreInvocation) as a child process with exactly `env`, feeding `stdin`. */
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
