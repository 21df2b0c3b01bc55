/** The shapes the HTTP client (./client.ts) takes: its set-up for one run, and one request under the base URL. */
import type { Dispatcher } from 'undici';

export interface ClientOptions {
  /** Ends in "/" (settings.parseBaseUrl), so endpoint paths join onto it. */
  baseUrl: URL;
  /** Where the base URL came from: `--base-url`, `PETSTORE_BASE_URL` or the config file's path (named in hints). */
  baseUrlFrom: string;
  apiKey: string;
  userAgent: string;
  /** Deadline of the whole command in milliseconds; also the connect, header and body timeout. */
  timeoutMs: number;
  /** When that deadline passes, in performance.now() milliseconds, if the command's clock started first; else it starts with the client. */
  deadlineAt?: number;
  /** Retries of a GET after the first attempt. */
  retries: number;
  signal: AbortSignal;
  /** For HTTPS_PROXY, HTTP_PROXY and NO_PROXY. */
  env: NodeJS.ProcessEnv;
  /** Receives `--verbose` lines (never the key). */
  log?: (line: string) => void;
  /** Receives warnings, such as a Deprecation or Sunset header. */
  warn: (message: string, code: string) => void;
  loginHint?: string;
  /** The hint of a service that cannot be reached (settings.ts's unreachableHint): the base URL, where it came from, how to see it. */
  reachHint?: string;
  /** Random numbers in [0, 1) for retry jitter (Math.random by default). */
  random?: () => number;
  /** Told when a request is sent (with the host), for a spinner; calls what it returns once the answer has come or failed. */
  onWait?: (host: string) => (() => void) | undefined;
  /** Sends through this in place of the transport's pool or proxy (the Factory's client seam: a test's undici MockAgent). */
  dispatcher?: Dispatcher;
}

export interface SendRequest {
  method: string;
  /** Relative to the base URL ("pets/42"), or an absolute URL of its origin. */
  path: string | URL;
  query?: URLSearchParams;
  /** Extra headers; Authorization, Accept and User-Agent are the client's. */
  headers?: Record<string, string>;
  /** Serialised; sent as application/json unless `headers` names another type. */
  body?: string;
  /** Ends the request early: by default the command's deadline and Ctrl-C; `null` for only undici's timeouts; or the caller's signal. */
  signal?: AbortSignal | null;
  /** Over the whole exchange, in milliseconds. */
  deadlineMs?: number;
  /** false: without undici's retry interceptor (a bulk load's POSTs, which bulk/post-policy.ts sends again); else api/retry.ts's policy. */
  retry?: false;
}
