/** Which environment, base URL and API key a command uses (flag, variable, config); a stored key goes only to its own origin. */
import { join } from 'node:path';
import { VERSION_SEGMENT } from './interface-values.js';
import type { ConfigStore } from './config.js';
import { CliError, ExitCode, MissingKeyError, UsageError } from './errors.js';
import { isLoopback } from './loopback.js';
import { closest } from './suggest.js';
import { shellWord } from './text.js';

/** Where a setting came from, as `auth status` reports it. */
export type Source = 'flag' | 'environment variable' | 'config' | 'default';

export interface Resolved<T> {
  value: T;
  source: Source;
  origin: string;
}

/** A key and the origin it may be sent to (undefined for PETSTORE_API_KEY, which goes wherever the caller points it). */
export interface ResolvedKey extends Resolved<string> {
  boundTo?: string;
}

export const DEFAULT_ENV = 'production';
/** Environments that exist without being configured. */
export const BUILT_IN_ENVS: readonly string[] = ['production', 'staging'];

/** Environment names: letters, digits, `-` and `_` (a dot would split conf's key path). */
export const ENV_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export interface SettingFlags {
  env?: string;
  baseUrl?: string;
}

/** The config folder: $XDG_CONFIG_HOME/petstore when set, else conf's per-platform default. */
export function configDir(env: NodeJS.ProcessEnv): string | undefined {
  return env.XDG_CONFIG_HOME ? join(env.XDG_CONFIG_HOME, 'petstore') : undefined;
}

export class Settings {
  constructor(
    private readonly flags: SettingFlags,
    private readonly env: NodeJS.ProcessEnv,
    private readonly store: () => Promise<ConfigStore>,
  ) {}

  /** `--env`, then PETSTORE_ENV, then "production". Throws UsageError for a malformed name, or (unless `mayCreate`) an unknown one. */
  async envName({ mayCreate = false } = {}): Promise<Resolved<string> & { exists: boolean }> {
    const picked = this.pickEnv();
    if (BUILT_IN_ENVS.includes(picked.value)) return { ...picked, exists: true };
    const known = [...new Set([...BUILT_IN_ENVS, ...Object.keys((await this.store()).environments())])];
    const exists = known.includes(picked.value);
    if (!exists && !mayCreate) {
      const near = closest(picked.value, known);
      throw new UsageError(
        `unknown environment "${picked.value}" (from ${picked.origin})${near ? `; did you mean "${near}"?` : ''}`,
        `Known environments: ${known.join(', ')}. Create one with:\n  petstore config set base-url <url> --env ${picked.value}`,
        'unknown_environment',
      );
    }
    return { ...picked, exists };
  }

  private pickEnv(): Resolved<string> {
    const { flags, env } = this;
    const picked: Resolved<string> =
      flags.env !== undefined
        ? { value: flags.env, source: 'flag', origin: '--env' }
        : env.PETSTORE_ENV
          ? { value: env.PETSTORE_ENV, source: 'environment variable', origin: 'PETSTORE_ENV' }
          : { value: DEFAULT_ENV, source: 'default', origin: 'default' };
    if (!ENV_NAME.test(picked.value)) {
      throw new UsageError(`invalid value for ${picked.origin}: "${picked.value}": an environment name uses letters, digits, "-" and "_"`);
    }
    return picked;
  }

  /** `--base-url`, then PETSTORE_BASE_URL, then the stored one; undefined when none. Throws UsageError for a bad URL. */
  async baseUrl(): Promise<Resolved<URL> | undefined> {
    const { flags, env } = this;
    const opened = flags.baseUrl === undefined && !env.PETSTORE_BASE_URL ? await this.store() : undefined;
    const [text, source, origin]: [string | undefined, Source, string] =
      flags.baseUrl !== undefined
        ? [flags.baseUrl, 'flag', '--base-url']
        : opened
          ? [opened.environment(this.pickEnv().value).baseUrl, 'config', opened.path]
          : [env.PETSTORE_BASE_URL, 'environment variable', 'PETSTORE_BASE_URL'];
    if (text === undefined) return undefined;
    return { value: parseBaseUrl(text, origin), source, origin };
  }

  /** PETSTORE_API_KEY, else the environment's stored key with the origin it belongs to; undefined when neither. */
  async apiKey(): Promise<ResolvedKey | undefined> {
    if (this.env.PETSTORE_API_KEY) return { value: this.env.PETSTORE_API_KEY, source: 'environment variable', origin: 'PETSTORE_API_KEY' };
    const opened = await this.store();
    const stored = opened.environment(this.pickEnv().value);
    if (!stored.apiKey) return undefined;
    // A key stored before origins were recorded belongs to the stored base URL.
    const boundTo = stored.apiKeyOrigin ?? (stored.baseUrl === undefined ? undefined : URL.parse(stored.baseUrl)?.origin);
    return { value: stored.apiKey, source: 'config', origin: opened.path, boundTo };
  }

  /** As {@link apiKey}, but a stored key for another origin than `baseUrl`'s throws (exit 4), naming both and the fix. */
  async apiKeyFor(baseUrl: URL): Promise<ResolvedKey | undefined> {
    const key = await this.apiKey();
    if (key?.source !== 'config' || key.boundTo === baseUrl.origin) return key;
    const envName = this.pickEnv().value;
    const href = shellWord(baseUrl.href);
    throw new CliError(
      `the stored API key of environment "${envName}" belongs to ${key.boundTo ?? 'no recorded origin'}, not to ${baseUrl.origin}; nothing was sent`,
      ExitCode.auth,
      'key_for_other_origin',
      `To use ${baseUrl.origin}, log in for it:\n  petstore auth login${envFlagOf(envName)} --base-url ${href}\n` +
        'Or keep a separate environment for it (or set PETSTORE_API_KEY):\n' +
        `  petstore config set base-url ${href} --env <name>\n  petstore auth login --env <name>`,
    );
  }
}

/**
 * Checks a base URL: absolute http(s) without credentials, query or fragment, plain http only to loopback; returns it ending in "/".
 * Throws UsageError naming `origin` (the flag, variable or file).
 */
export function parseBaseUrl(text: string, origin: string): URL {
  const url = URL.parse(text);
  if (!url) {
    throw new UsageError(
      `invalid base URL from ${origin}: "${text}" is not an absolute URL`,
      `Example: https://petstore.example.com${VERSION_SEGMENT}`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`invalid base URL from ${origin}: scheme must be https (or http for loopback), not ${url.protocol}`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new UsageError(`invalid base URL from ${origin}: it must not carry credentials, a query or a fragment`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new UsageError(
      `refusing plain http base URL ${url.origin}: the API key would be sent in plain text`,
      'Use https, or http only for a loopback host (127.0.0.0/8, ::1, localhost).',
      'insecure_base_url',
    );
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** True when a base URL's path ends with `/v1`. */
export function hasVersionSegment(url: URL): boolean {
  return url.pathname.replace(/\/+$/, '').endsWith(VERSION_SEGMENT);
}

/** ` --env <name>` for a command to suggest, or nothing for the default environment. */
export function envFlagOf(envName: string): string {
  return envName === DEFAULT_ENV ? '' : ` --env ${envName}`;
}

/**
 * The hint of every error of a service that cannot be reached (connection refused, no such host, no route, no connection in time): the
 * base URL `baseUrl`, where it came from (`from`: `--base-url`, `PETSTORE_BASE_URL`, or the config file's path), and for the config's
 * the command that shows it, on a line of its own. The Factory hands it to the client (ClientOptions.reachHint), which puts it on them.
 */
export function unreachableHint(baseUrl: URL, from: string, envName: string): string {
  const running = `Is the service running at ${baseUrl.href}?`;
  if (from === '--base-url' || from === 'PETSTORE_BASE_URL') return `${running}\nThe base URL is from ${from}.`;
  return `${running}\nThe base URL is from the config:\n  petstore config get base-url${envFlagOf(envName)}`;
}

/** Exit 2, naming the command that fixes it (on a line of its own, as every hint's command). */
export function missingBaseUrl(envName: string): UsageError {
  return new UsageError(
    `no base URL configured for environment "${envName}"`,
    `Set one (or pass --base-url, or set PETSTORE_BASE_URL):\n  petstore config set base-url <url>${envFlagOf(envName)}`,
    'missing_base_url',
  );
}

/** Exit 4, naming the command that fixes it. */
export function missingApiKey(envName: string): MissingKeyError {
  return new MissingKeyError(`no API key for environment "${envName}"`, `Log in (or set PETSTORE_API_KEY):\n  ${loginCommand(envName)}`);
}

/** The lines that end every 401 message: the command that fixes it (and the variable, when the key came from it). */
export function loginHint(envName: string, keySource?: string): string {
  if (keySource === 'environment variable')
    return `The key came from PETSTORE_API_KEY: check it, or unset it and log in:\n  ${loginCommand(envName)}`;
  return `Log in again:\n  ${loginCommand(envName)}`;
}

/** `petstore auth login`, with `--env` for another environment than the default. */
export function loginCommand(envName: string): string {
  return `petstore auth login${envFlagOf(envName)}`;
}
