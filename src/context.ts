/**
 * The context built once in main and handed to every command: IO streams,
 * global flags, environment, and the config store and API client, created
 * lazily so that a command loads conf and undici only when it needs them.
 */
import { join } from 'node:path';
import type { PetstoreClient } from './api/client.js';
import type { ConfigStore } from './config.js';
import type { OutputTarget } from './render.js';
import {
  missingApiKey,
  missingBaseUrl,
  resolveApiKey,
  resolveBaseUrl,
  resolveEnvName,
  type Resolved,
} from './settings.js';
import { sanitizeText } from './text.js';
import { UsageError } from './errors.js';

/** An API key as it can travel in an Authorization header: printable ASCII, no spaces. */
export const API_KEY_FORMAT = /^[\x21-\x7e]+$/;

/** The streams of one invocation. */
export interface IO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
}

/** Global flags, after validation. */
export interface GlobalOptions {
  env?: string;
  baseUrl?: string;
  json: boolean;
  color: boolean;
  /** Deadline of the whole command, in milliseconds. */
  timeout: number;
  /** Retries of a GET after the first attempt. */
  retries: number;
  verbose: boolean;
}

export class Context {
  private storePromise?: Promise<ConfigStore>;
  private clientPromise?: Promise<PetstoreClient>;
  private outTarget?: OutputTarget;

  constructor(
    readonly io: IO,
    readonly env: NodeJS.ProcessEnv,
    readonly options: GlobalOptions,
    /** Aborted on SIGINT or SIGTERM, with an InterruptedError as its reason. */
    readonly signal: AbortSignal,
    readonly version: string,
  ) {}

  /** Standard output as a render target: colour per --no-color, NO_COLOR, FORCE_COLOR and the TTY. */
  get out(): OutputTarget {
    this.outTarget ??= {
      write: (text) => this.io.stdout.write(text),
      isTTY: this.io.stdoutIsTTY,
      colorLevel: colorLevel(this.options.color, this.env, this.io.stdoutIsTTY),
    };
    return this.outTarget;
  }

  /** Writes one line to stderr, sanitised for the terminal. */
  warn(line: string): void {
    this.io.stderr.write(`${sanitizeText(line)}\n`);
  }

  /** `--verbose` diagnostics on stderr. */
  log(line: string): void {
    if (this.options.verbose) this.warn(line);
  }

  /** The selected environment name (`--env`, PETSTORE_ENV, "production"). */
  envName(): Resolved<string> {
    return resolveEnvName(this.options, this.env);
  }

  /** Opens the config store once; throws UsageError naming the file when it is unusable. */
  store(): Promise<ConfigStore> {
    this.storePromise ??= import('./config.js').then(({ ConfigStore }) =>
      ConfigStore.open(configDir(this.env), (line) => this.warn(line)),
    );
    return this.storePromise;
  }

  /** Base URL of the selected environment, or undefined when none is configured. */
  baseUrl(): Promise<Resolved<URL> | undefined> {
    return resolveBaseUrl(this.options, this.env, () => this.store(), this.envName().value);
  }

  /** API key of the selected environment, or undefined. */
  apiKey(): Promise<Resolved<string> | undefined> {
    return resolveApiKey(this.env, () => this.store(), this.envName().value);
  }

  /**
   * The API client, created once. Throws UsageError (exit 2) when no base URL
   * is configured and MissingKeyError (exit 4) when no key is; nothing is sent then.
   */
  client(): Promise<PetstoreClient> {
    this.clientPromise ??= (async () => {
      const envName = this.envName().value;
      const baseUrl = await this.baseUrl();
      if (!baseUrl) throw missingBaseUrl(envName);
      const apiKey = await this.apiKey();
      if (!apiKey) throw missingApiKey(envName);
      if (!API_KEY_FORMAT.test(apiKey.value)) {
        throw new UsageError(`the API key from ${apiKey.origin} is not usable: it must be printable ASCII without spaces (the key is not shown)`);
      }
      const { PetstoreClient } = await import('./api/client.js');
      this.log(`* environment ${envName}, base URL ${baseUrl.value.href} (from ${baseUrl.origin}), key from ${apiKey.source}`);
      return new PetstoreClient({
        baseUrl: baseUrl.value,
        apiKey: apiKey.value,
        userAgent: `petstore/${this.version}`,
        timeoutMs: this.options.timeout,
        retries: this.options.retries,
        signal: this.signal,
        env: this.env,
        log: this.options.verbose ? (line) => this.warn(line) : undefined,
        warn: (line) => this.warn(line),
      });
    })();
    return this.clientPromise;
  }

  /** Closes the client's connections, if one was created. */
  async close(): Promise<void> {
    const client = await this.clientPromise?.catch(() => undefined);
    await client?.close();
  }
}

/** The config folder: $XDG_CONFIG_HOME/petstore when set, else conf's per-platform default. */
export function configDir(env: NodeJS.ProcessEnv): string | undefined {
  return env.XDG_CONFIG_HOME ? join(env.XDG_CONFIG_HOME, 'petstore') : undefined;
}

/** chalk level from --no-color, NO_COLOR (https://no-color.org), FORCE_COLOR and whether the stream is a TTY. */
export function colorLevel(colorFlag: boolean, env: NodeJS.ProcessEnv, isTTY: boolean): 0 | 1 | 2 | 3 {
  if (!colorFlag) return 0;
  if (env.NO_COLOR) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    if (force === '2' || force === '3') return Number(force) as 2 | 3;
    return 1;
  }
  if (!isTTY || env.TERM === 'dumb') return 0;
  return env.COLORTERM === 'truecolor' ? 3 : /256/.test(env.TERM ?? '') ? 2 : 1;
}
