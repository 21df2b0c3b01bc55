/**
 * The shapes the HTTP client (./client.ts) takes: how it is set up for one
 * invocation, and one request under the base URL.
 */

/** How the client of one invocation is set up. */
export interface ClientOptions {
  /** Base address ending in "/" (see settings.parseBaseUrl); endpoint paths join onto it. */
  baseUrl: URL;
  apiKey: string;
  /** Sent as User-Agent, e.g. "petstore/0.1.0". */
  userAgent: string;
  /** Deadline of the whole command in milliseconds; also the connect, header and body timeout. */
  timeoutMs: number;
  /**
   * When that deadline passes, in performance.now() milliseconds, when the
   * command's clock started before the client (Factory); else it starts with the client.
   */
  deadlineAt?: number;
  /** Retries of a GET after the first attempt (0 turns retrying off). */
  retries: number;
  /** Aborts every request (Ctrl-C, SIGTERM). */
  signal: AbortSignal;
  /** Environment, for HTTPS_PROXY, HTTP_PROXY and NO_PROXY. */
  env: NodeJS.ProcessEnv;
  /** Receives `--verbose` lines (the key is never in them). */
  log?: (line: string) => void;
  /** Receives warnings, such as a Deprecation or Sunset header (RFC 9745, RFC 8594). */
  warn: (message: string, code: string) => void;
  /** The last line of a 401's message: the command that fixes it. */
  loginHint?: string;
  /** Random numbers in [0, 1) for the jitter of retry back-off (Math.random by default; tests pass their own). */
  random?: () => number;
  /**
   * Told when a request is sent (with the host), for a spinner; the function
   * it returns, if any, is called once the whole answer has come or the request failed.
   */
  onWait?: (host: string) => (() => void) | undefined;
}

/** One request under the base URL. */
export interface SendRequest {
  method: string;
  /** A path relative to the base URL ("pets", "pets/42"), or an absolute URL of the base URL's origin. */
  path: string | URL;
  query?: URLSearchParams;
  /** Extra headers; Authorization, Accept and User-Agent are set by the client. */
  headers?: Record<string, string>;
  /** The body, serialised; sent as application/json unless `headers` names another content type. */
  body?: string;
  /**
   * What ends the request early: by default the command's deadline and
   * Ctrl-C; `null` for only the connect, header and body timeouts; or a signal of the caller's.
   */
  signal?: AbortSignal | null;
  /** A deadline over the whole exchange (connect, headers and body), in milliseconds. */
  deadlineMs?: number;
}
