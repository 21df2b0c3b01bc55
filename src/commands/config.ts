/**
 * `petstore config list|get|set|unset|path`: settings of each environment.
 * The only key today is `base-url`; keys act on the environment chosen with
 * `--env` or PETSTORE_ENV (production by default).
 */
import { CONFIG_KEYS, type ConfigKey, type StoredEnvironment } from '../config.js';
import type { Context } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { renderJson } from '../render.js';
import { parseBaseUrl } from '../settings.js';

const FIELDS: Record<ConfigKey, keyof StoredEnvironment> = { 'base-url': 'baseUrl' };
const BUILT_IN_ENVS = ['production', 'staging'];

function checkKey(key: string): ConfigKey {
  if (!(CONFIG_KEYS as readonly string[]).includes(key)) {
    throw new UsageError(`unknown config key "${key}" (allowed: ${CONFIG_KEYS.join(', ')})`);
  }
  return key as ConfigKey;
}

/** Every environment (built-in and stored): its base URL and whether a key is stored. */
export async function list(ctx: Context): Promise<void> {
  const stored = (await ctx.store()).environments();
  const names = [...new Set([...BUILT_IN_ENVS, ...Object.keys(stored)])];
  const rows = names.map((name) => ({
    environment: name,
    baseUrl: stored[name]?.baseUrl ?? null,
    apiKeyStored: stored[name]?.apiKey !== undefined,
  }));
  if (ctx.options.json) {
    renderJson(ctx.out, rows);
    return;
  }
  for (const row of rows) {
    ctx.out.write(`${row.environment}\tbase-url=${row.baseUrl ?? ''}\tapi-key=${row.apiKeyStored ? 'stored' : 'none'}\n`);
  }
}

/** Prints one setting; exits 1 with a message when it is not set (like `git config --get`). */
export async function get(ctx: Context, [key]: string[]): Promise<void> {
  const field = FIELDS[checkKey(key!)];
  const envName = ctx.envName().value;
  const value = (await ctx.store()).environment(envName)[field];
  if (value === undefined) throw new CliError(`${key} is not set for environment "${envName}"`, ExitCode.failure, 'not_set');
  ctx.out.write(`${value}\n`);
}

/** Stores one setting after checking it (a base URL must be https, or http on loopback). */
export async function set(ctx: Context, [key, value]: string[]): Promise<void> {
  const field = FIELDS[checkKey(key!)];
  const envName = ctx.envName().value;
  const checked = parseBaseUrl(value!, 'the value given').href;
  const store = await ctx.store();
  store.setField(envName, field, checked);
  ctx.warn(`Set ${key} of ${envName} to ${checked}`);
}

/** Removes one setting. */
export async function unset(ctx: Context, [key]: string[]): Promise<void> {
  const field = FIELDS[checkKey(key!)];
  const envName = ctx.envName().value;
  (await ctx.store()).setField(envName, field, undefined);
  ctx.warn(`Unset ${key} of ${envName}`);
}

/** Prints the config file's path. */
export async function path(ctx: Context): Promise<void> {
  ctx.out.write(`${(await ctx.store()).path}\n`);
}
