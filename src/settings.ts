/**
 * Which environment, base URL and API key a command uses. Precedence for each:
 * flag, then environment variable, then the stored config of the selected
 * environment. The store is opened only when a flag or variable leaves
 * something to look up.
 */
import type { ConfigStore } from './config.js';
import { MissingKeyError, UsageError } from './errors.js';

/** Where a setting came from, as `auth status` reports it. */
export type Source = 'flag' | 'environment variable' | 'config' | 'default';

export interface Resolved<T> {
  value: T;
  source: Source;
  /** The flag, variable or file it came from, for messages. */
  origin: string;
}

export const DEFAULT_ENV = 'production';

/** Environment names: letters, digits, `-` and `_` (a dot would split conf's key path). */
export const ENV_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The global flags that take part in resolution. */
export interface SettingFlags {
  env?: string;
  baseUrl?: string;
}

/**
 * Selected environment name: `--env`, then PETSTORE_ENV, then "production".
 * Throws UsageError for a name outside [A-Za-z0-9_-].
 */
export function resolveEnvName(flags: SettingFlags, env: NodeJS.ProcessEnv): Resolved<string> {
  const picked: Resolved<string> =
    flags.env !== undefined
      ? { value: flags.env, source: 'flag', origin: '--env' }
      : env.PETSTORE_ENV
        ? { value: env.PETSTORE_ENV, source: 'environment variable', origin: 'PETSTORE_ENV' }
        : { value: DEFAULT_ENV, source: 'default', origin: 'default' };
  if (!ENV_NAME.test(picked.value)) {
    throw new UsageError(
      `invalid value for ${picked.origin}: "${picked.value}": an environment name uses letters, digits, "-" and "_"`,
    );
  }
  return picked;
}

/**
 * Base URL: `--base-url`, then PETSTORE_BASE_URL, then the stored one.
 * Returns undefined when none is set. Throws UsageError for a bad URL.
 */
export async function resolveBaseUrl(
  flags: SettingFlags,
  env: NodeJS.ProcessEnv,
  store: () => Promise<ConfigStore>,
  envName: string,
): Promise<Resolved<URL> | undefined> {
  let text: string | undefined;
  let source: Source;
  let origin: string;
  if (flags.baseUrl !== undefined) {
    [text, source, origin] = [flags.baseUrl, 'flag', '--base-url'];
  } else if (env.PETSTORE_BASE_URL) {
    [text, source, origin] = [env.PETSTORE_BASE_URL, 'environment variable', 'PETSTORE_BASE_URL'];
  } else {
    const opened = await store();
    [text, source, origin] = [opened.environment(envName).baseUrl, 'config', opened.path];
  }
  if (text === undefined) return undefined;
  return { value: parseBaseUrl(text, origin), source, origin };
}

/**
 * Checks a base URL: absolute http(s), no credentials, query or fragment; plain
 * http only to a loopback host, since every request carries the API key.
 * Returns it with a trailing slash so that endpoint paths join onto its `/v1`.
 * Throws UsageError naming `origin` (the flag, variable or file).
 */
export function parseBaseUrl(text: string, origin: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`invalid base URL from ${origin}: "${text}" is not an absolute URL`, 'Example: https://petstore.example.com/v1');
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

/**
 * True for localhost, 127.0.0.0/8 and ::1, given a hostname as the WHATWG URL
 * parser normalises it (so "127.1" and "[0:0::1]" arrive as "127.0.0.1" and "[::1]").
 */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]';
}

/**
 * API key: PETSTORE_API_KEY, then the stored key of `envName`. Returns
 * undefined when neither is set.
 */
export async function resolveApiKey(
  env: NodeJS.ProcessEnv,
  store: () => Promise<ConfigStore>,
  envName: string,
): Promise<Resolved<string> | undefined> {
  if (env.PETSTORE_API_KEY) return { value: env.PETSTORE_API_KEY, source: 'environment variable', origin: 'PETSTORE_API_KEY' };
  const opened = await store();
  const key = opened.environment(envName).apiKey;
  return key ? { value: key, source: 'config', origin: opened.path } : undefined;
}

/** The error for a missing base URL: exit 2, naming the command that fixes it. */
export function missingBaseUrl(envName: string): UsageError {
  const envFlag = envName === DEFAULT_ENV ? '' : ` --env ${envName}`;
  return new UsageError(
    `no base URL configured for environment "${envName}"`,
    `Run: petstore config set base-url <url>${envFlag}   (or pass --base-url, or set PETSTORE_BASE_URL)`,
    'missing_base_url',
  );
}

/** The error for a missing key: exit 4, naming the command that fixes it. */
export function missingApiKey(envName: string): MissingKeyError {
  const envFlag = envName === DEFAULT_ENV ? '' : ` --env ${envName}`;
  return new MissingKeyError(
    `no API key for environment "${envName}"`,
    `Run: petstore auth login${envFlag}   (or set PETSTORE_API_KEY)`,
  );
}
