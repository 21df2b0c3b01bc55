/**
 * The fake client: a Factory for one command's run without main, nock or a server (captured streams, the service's base URL and key
 * in the environment, the global flags set as the program sets them), every client it hands out sending through undici's MockAgent
 * (the Factory's client seam, `Seams.dispatcher`); and main run with the same seam, for its exit codes and error reports.
 */
import { PassThrough, Readable, Writable } from 'node:stream';
import { type Dispatcher, MockAgent } from 'undici';
import { onTestFinished } from 'vitest';
import { Factory, type GlobalOptions } from '../../src/factory.js';
import { IOStreams } from '../../src/iostreams.js';
import type { OutputFlags } from '../../src/output/format.js';
import { type RunSetup, run, tempConfigHome } from '../helpers.js';

/** The origin the fake client answers for; the base URL is its `/v1`. */
export const FAKE_ORIGIN = 'https://petstore.example';

/** A request that reached the fake service: method, path with its query, and the Authorization header it carried. */
export interface FakeRequest {
  method: string;
  path: string;
  authorization?: string;
}

/**
 * A terminal for prompts and questions (src/commands/confirm.ts, add's prompt): stdin and stdout are terminals, and `answers` are typed
 * in turn, each when a prompt starts reading, followed by Enter; a lone control character is typed as it is ("\u0003" Ctrl-C).
 */
export interface FakeTerminal {
  answers?: readonly string[];
}

/**
 * IO streams that append what is written to `written`; stdout a terminal of 80 columns (or `columns`) when `tty`. Stdin is empty, or
 * holds `stdin`; with `terminal` it is a terminal where `terminal.answers` are typed, stdout a terminal too, and prompts draw on
 * `written.stderr` (escape sequences and all). `env` is what the streams read (colour, TERM), as main gives them the run's.
 */
export function capturedStreams(
  written: { stdout: string; stderr: string },
  tty = false,
  terminal?: FakeTerminal,
  { env = {}, columns, stdin: piped }: { env?: NodeJS.ProcessEnv; columns?: number; stdin?: string } = {},
): IOStreams {
  const stdin = terminal ? typedAt(terminal.answers ?? []) : Readable.from(piped === undefined ? [] : [piped]);
  // A prompt ends its output when it is done; the real stderr stays open, and so does this one.
  const promptOutput = new Writable({
    write: (chunk, _encoding, done) => {
      written.stderr += String(chunk);
      done();
    },
  });
  promptOutput.end = () => promptOutput;
  const stdoutTTY = tty || terminal !== undefined;
  return new IOStreams(
    {
      stdout: { write: (text: string) => (written.stdout += text) },
      stderr: { write: (text: string) => (written.stderr += text) },
      stdin,
      stdoutIsTTY: stdoutTTY,
      stderrIsTTY: false,
      stdinIsTTY: terminal !== undefined,
      columns: stdoutTTY ? (columns ?? 80) : undefined,
      promptOutput,
    },
    env,
  );
}

/** A terminal's input where `answers` are typed in turn: a prompt's readline resumes stdin when it starts reading. */
function typedAt(answers: readonly string[]): PassThrough {
  const stdin = new PassThrough();
  const left = [...answers];
  stdin.on('resume', () => {
    const answer = left.shift();
    if (answer !== undefined) setImmediate(() => stdin.write(/^[\u0000-\u001f]$/.test(answer) ? answer : `${answer}\r`));
  });
  return stdin;
}

/** A request that reached the fake service in full: its origin, method, path with its query, headers (names in lower case), body text. */
export interface SentRequest {
  origin: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** What {@link fakeClientFactory} takes. Global flags as main sets them by default, but for `color` (false), `retries` (0) and retry jitter (none). */
export interface FakeClientOptions {
  /** Override the global flags (`--json`, `--timeout`, `--retries`, `--verbose`, `--env`, `--base-url`, colour). */
  globals?: Partial<GlobalOptions>;
  /** The command's `--format` and `--jq`. */
  output?: OutputFlags;
  /** Variables added to (or, set to undefined, taken from) the fake's environment: base URL, key, config folder. */
  env?: NodeJS.ProcessEnv;
  /** Stdin and stdout terminals with answers typed at prompts ({@link FakeTerminal}). */
  terminal?: FakeTerminal;
  /** Stdout a terminal (80 columns, or `columns`); stdin stays piped. */
  tty?: boolean;
  columns?: number;
  /** What piped stdin holds (nothing when not given). */
  stdin?: string;
  /** Random numbers for retry jitter: by default 0, a retry at once (main's own default is Math.random). */
  random?: () => number;
}

/** Names in lower case, values as sent (undici's headers: an object, or a flat array of names and values). */
function headersOf(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: Array<[string, unknown]> = Array.isArray(headers)
    ? Array.from({ length: headers.length / 2 }, (_, i) => [String(headers[2 * i]), headers[2 * i + 1]])
    : Object.entries((headers ?? {}) as Record<string, unknown>);
  for (const [name, value] of entries) if (value !== undefined) out[name.toLowerCase()] = String(value);
  return out;
}

/**
 * A Factory whose client answers from `MockAgent` interceptors (`answer`, or `service.intercept(...)` / `agent.get(origin)` for
 * anything else), what it wrote to stdout and stderr, and the requests that reached the fake service (`requests`: method, path,
 * authorization; `sent`: the same in full, headers and body), each attempt of a retry and each request no answer matched included.
 * `dispatcher` is that client seam, for a main of a test's own (`RunOptions.seams.dispatcher`); `main(argv, setup)` runs the whole program (`run` of test/helpers.ts: main, the registry's commands unless `setup.commands`) with this
 * fake service as its client seam and the same environment, for what only main shows: its exit code, the report of an error on stderr.
 * Closed when the test ends (`close()`, which may be called before): it throws if an answer set up was never asked for.
 */
export function fakeClientFactory({
  globals = {},
  output = {},
  env = {},
  terminal,
  tty = false,
  columns,
  stdin,
  random = () => 0,
}: FakeClientOptions = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const written = { stdout: '', stderr: '' };
  const variables = definedOnly({
    XDG_CONFIG_HOME: tempConfigHome(),
    PETSTORE_BASE_URL: `${FAKE_ORIGIN}/v1`,
    PETSTORE_API_KEY: 'test-key',
    ...env,
  });
  const io = capturedStreams(written, tty, terminal, { env: variables, columns, stdin });
  const never = new AbortController().signal;
  const requests: FakeRequest[] = [];
  const sent: SentRequest[] = [];
  const record = (options: Dispatcher.DispatchOptions) => {
    const headers = headersOf(options.headers);
    const body = typeof options.body === 'string' ? options.body : Buffer.isBuffer(options.body) ? options.body.toString() : '';
    const origin = String(options.origin ?? '');
    requests.push({ method: options.method, path: options.path, authorization: headers.authorization });
    sent.push({ origin, method: options.method, path: options.path, headers, body });
  };
  const dispatcher = recording(agent, record);
  const f = new Factory(io, variables, { stop: never, halt: never }, '1.2.3', { dispatcher, random });
  f.setGlobals({ json: false, color: false, timeout: 30_000, retries: 0, verbose: false, ...globals }, output);
  const service = agent.get(FAKE_ORIGIN);
  /** Answers `method path` once with `status`, the JSON text `body` and `headers` (content-type application/json unless given). */
  const answer = (method: string, path: string, status: number, body: string, headers: Record<string, string | string[]> = {}) =>
    service.intercept({ method, path }).reply(status, body, { headers: { 'content-type': 'application/json', ...headers } });
  let closed = false;
  /** Ends the run as main does (closing the client); throws if an answer set up was never asked for. */
  const close = async () => {
    if (closed) return;
    closed = true;
    try {
      agent.assertNoPendingInterceptors();
    } finally {
      await f.close();
      await agent.close();
    }
  };
  try {
    onTestFinished(close);
  } catch {
    // Made outside a test (a beforeAll): the caller closes it.
  }
  /** Runs `argv` through main (see above); resolves to `{ code, stdout, stderr, unmatched }` as `run` does. */
  const main = (argv: string[], setup: RunSetup = {}) =>
    run(argv, { stdin, random, ...setup, env: definedOnly({ ...variables, ...setup.env }), dispatcher });
  return { f, written, requests, sent, answer, service, agent, dispatcher, main, close };
}

function definedOnly(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
}

/**
 * The client seam's dispatcher: `agent` (MockAgent) behind a step that tells `record` each request dispatched. Closing it leaves the
 * agent open, so that main's end of run (or a client a command closes, as `auth login` does) ends nothing the test still reads.
 */
function recording(agent: MockAgent, record: (options: Dispatcher.DispatchOptions) => void): Dispatcher {
  const composed = agent.compose((dispatch) => (options, handler) => {
    record(options);
    return dispatch(options, handler);
  });
  const kept = async () => {};
  return new Proxy(composed, { get: (target, key) => (key === 'close' || key === 'destroy' ? kept : Reflect.get(target, key)) });
}

/** What `running` threw, or undefined when it resolved: for a command's run that is to fail (check its `exitCode`, `message`, `hint`). */
export async function thrownBy(running: Promise<unknown>): Promise<unknown> {
  try {
    await running;
    return undefined;
  } catch (error) {
    return error;
  }
}
