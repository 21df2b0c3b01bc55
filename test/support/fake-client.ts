/**
 * A Factory for one command's run without main, nock or a server: captured
 * streams, the service's base URL and key in the environment, the global
 * flags set as the program sets them, and every client it hands out sending
 * through undici's MockAgent (the Factory's client seam, `Seams.dispatcher`).
 */
import { Readable } from 'node:stream';
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

/** IO streams that append what is written to `written`; stdin empty; stdout a terminal of 80 columns when `tty`. */
export function capturedStreams(written: { stdout: string; stderr: string }, tty = false): IOStreams {
  return new IOStreams(
    {
      stdout: { write: (text: string) => (written.stdout += text) },
      stderr: { write: (text: string) => (written.stderr += text) },
      stdin: Readable.from([]),
      stdoutIsTTY: tty,
      stderrIsTTY: false,
      stdinIsTTY: false,
      columns: tty ? 80 : undefined,
    },
    {},
  );
}

/**
 * A Factory whose client answers from `MockAgent` interceptors (`answer`, or `service.intercept(...)` for other headers), what it
 * wrote to stdout and stderr, and the requests that reached the fake service through `answer`. `globals` override the global flags; `env` adds variables.
 */
export function fakeClientFactory({ globals = {}, env = {} }: { globals?: Partial<GlobalOptions>; env?: NodeJS.ProcessEnv } = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const written = { stdout: '', stderr: '' };
  const io = capturedStreams(written);
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
