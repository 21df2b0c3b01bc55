/**
 * A Factory for one command's run without main, nock or a server: captured
 * streams, the service's base URL and key in the environment, the global
 * flags set as the program sets them, and every client it hands out sending
 * through undici's MockAgent (the Factory's client seam, `Seams.dispatcher`).
 */
import { PassThrough, Readable, Writable } from 'node:stream';
import { MockAgent } from 'undici';
import { Factory, type GlobalOptions } from '../../src/factory.js';
import { IOStreams } from '../../src/iostreams.js';
import { tempConfigHome } from '../helpers.js';

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
 * IO streams that append what is written to `written`; stdout a terminal of 80 columns when `tty`. Stdin is empty; with `terminal` it
 * is a terminal where `terminal.answers` are typed, stdout a terminal too, and prompts draw on `written.stderr` (escape sequences and
 * all).
 */
export function capturedStreams(written: { stdout: string; stderr: string }, tty = false, terminal?: FakeTerminal): IOStreams {
  const stdin = terminal ? typedAt(terminal.answers ?? []) : Readable.from([]);
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
      columns: stdoutTTY ? 80 : undefined,
      promptOutput,
    },
    {},
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

/**
 * A Factory whose client answers from `MockAgent` interceptors (`answer`, or `service.intercept(...)` for other headers), what it
 * wrote to stdout and stderr, and the requests that reached the fake service through `answer`. `globals` override the global flags;
 * `env` adds variables; `terminal` makes stdin and stdout terminals with answers typed at prompts ({@link FakeTerminal}).
 */
export function fakeClientFactory({
  globals = {},
  env = {},
  terminal,
}: {
  globals?: Partial<GlobalOptions>;
  env?: NodeJS.ProcessEnv;
  terminal?: FakeTerminal;
} = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const written = { stdout: '', stderr: '' };
  const io = capturedStreams(written, false, terminal);
  const never = new AbortController().signal;
  const variables = { XDG_CONFIG_HOME: tempConfigHome(), PETSTORE_BASE_URL: `${FAKE_ORIGIN}/v1`, PETSTORE_API_KEY: 'test-key', ...env };
  const f = new Factory(io, variables, { stop: never, halt: never }, '1.2.3', { dispatcher: agent });
  f.setGlobals({ json: false, color: false, timeout: 30_000, retries: 0, verbose: false, ...globals });
  const requests: FakeRequest[] = [];
  const service = agent.get(FAKE_ORIGIN);
  /** Answers `method path` once with `status` and the JSON text `body`, recording the request. */
  const answer = (method: string, path: string, status: number, body: string) =>
    service.intercept({ method, path }).reply(
      status,
      (request) => {
        const headers = new Headers(request.headers as Record<string, string>);
        requests.push({ method: request.method, path: request.path, authorization: headers.get('authorization') ?? undefined });
        return body;
      },
      { headers: { 'content-type': 'application/json' } },
    );
  /** Ends the run as main does (closing the client); throws if an answer set up was never asked for. */
  const close = async () => {
    agent.assertNoPendingInterceptors();
    await f.close();
  };
  return { f, written, requests, answer, service, close };
}
