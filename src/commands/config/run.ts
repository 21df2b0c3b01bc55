/** `petstore config` runs: settings of the environment of `--env` or PETSTORE_ENV; `set` creates it if new. */
import { VERSION_SEGMENT } from '../../interface-values.js';
import type { StoredEnvironment } from '../../config.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { BUILT_IN_ENVS, hasVersionSegment, loginCommand, parseBaseUrl } from '../../settings.js';
import * as z from 'zod/mini';
import { viewOfKeys } from '../../output/views.js';
import { listing, task } from '../runner.js';
import { CONFIG_KEYS } from './keys.js';

function fieldOf(key: string): keyof StoredEnvironment {
  const field = CONFIG_KEYS[key];
  if (!field) throw new UsageError(`unknown config key "${key}" (allowed: ${Object.keys(CONFIG_KEYS).join(', ')})`);
  return field;
}

/** config list: every environment (built-in and stored) from the config store, one page; through the pager at a terminal. */
export const LIST = listing({
  shape: 'records',
  view: viewOfKeys(['environment', 'baseUrl', 'apiKeyStored', 'apiKeyOrigin']),
  inputs: {},
  options: () => ({}),
  async *read(f) {
    yield { items: await environments(f), hasNext: false };
  },
  fullPage: () => undefined,
  count: (n) => (n === 1 ? '1 environment' : `${n} environments`),
});

/** Each environment's base URL, whether a key is stored and for which origin (never the key). */
async function environments(f: Factory) {
  const stored = (await f.store()).environments();
  const names = [...new Set([...BUILT_IN_ENVS, ...Object.keys(stored)])];
  return names.map((name) => ({
    environment: name,
    baseUrl: stored[name]?.baseUrl ?? null,
    apiKeyStored: stored[name]?.apiKey !== undefined,
    apiKeyOrigin: stored[name]?.apiKey === undefined ? null : (stored[name]?.apiKeyOrigin ?? null),
  }));
}

const KEY = ['argument <key>', z.string()] as const;

/** config get: `<key>`. */
export const GET = task({ inputs: { arguments: [KEY] as const }, options: ({ arguments: [key] }) => key, run: getSetting });

/** config set: `<key> <value>`. */
export const SET = task({
  inputs: { arguments: [KEY, ['argument <value>', z.string()]] as const },
  options: ({ arguments: [key, value] }) => ({ key, value }),
  run: (f, { key, value }) => setSetting(f, key, value),
});

/** config unset: `<key>`. */
export const UNSET = task({ inputs: { arguments: [KEY] as const }, options: ({ arguments: [key] }) => key, run: unsetSetting });

/** config path: prints the path of the config file. */
export const PATH = task({ inputs: {}, options: () => ({}), run: async (f) => void f.io.writeOut(`${(await f.store()).path}\n`) });

/** Prints one setting; exits 1 when it is not set (like `git config --get`). */
async function getSetting(f: Factory, key: string): Promise<void> {
  const field = fieldOf(key);
  const envName = (await f.settings.envName()).value;
  const value = (await f.store()).environment(envName)[field];
  if (value === undefined) throw new CliError(`${key} is not set for environment "${envName}"`, ExitCode.failure, 'not_set');
  f.io.writeOut(`${value}\n`);
}

/** Stores one setting after checking it (a base URL must be https, or http on loopback); warns when it lacks /v1. */
async function setSetting(f: Factory, key: string, value: string): Promise<void> {
  const field = fieldOf(key);
  const env = await f.settings.envName({ mayCreate: true });
  const url = parseBaseUrl(value, 'the value given');
  const store = await f.store();
  await store.update(env.value, { [field]: url.href });
  if (!env.exists) f.io.info(`Created environment ${env.value}`, 'environment_created');
  f.io.info(`Set ${key} of ${env.value} to ${url.href}`, 'config_set');
  if (!hasVersionSegment(url)) {
    f.io.warn(
      `${url.href} does not end in ${VERSION_SEGMENT}; the interface's base addresses do (as in https://petstore.example.com${VERSION_SEGMENT})`,
      'base_url_without_version',
    );
  }
  const keyOrigin = store.environment(env.value).apiKeyOrigin;
  if (keyOrigin !== undefined && keyOrigin !== url.origin) {
    f.io.warn(`the stored key of ${env.value} belongs to ${keyOrigin} and will not be sent to ${url.origin}`, 'key_for_other_origin', {
      hint: `Log in again:\n  ${loginCommand(env.value)}`,
    });
  }
}

/** Removes one setting; one not set is said to be so, exit 0 (as `auth logout` without a key). */
async function unsetSetting(f: Factory, key: string): Promise<void> {
  const field = fieldOf(key);
  const envName = (await f.settings.envName()).value;
  const store = await f.store();
  if (store.environment(envName)[field] === undefined) {
    f.io.info(`${key} is not set for ${envName}; nothing to do.`, 'config_not_set');
    return;
  }
  await store.update(envName, { [field]: undefined });
  f.io.info(`Unset ${key} of ${envName}`, 'config_unset');
}
