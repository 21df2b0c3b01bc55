/** `petstore config` runs: settings of the environment of `--env` or PETSTORE_ENV; `set` creates it if new. */
import { VERSION_SEGMENT } from '../../interface-values.js';
import type { StoredEnvironment } from '../../config.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { BUILT_IN_ENVS, envFlagOf, hasVersionSegment, parseBaseUrl } from '../../settings.js';
import { CONFIG_KEYS } from './keys.js';

function fieldOf(key: string): keyof StoredEnvironment {
  const field = CONFIG_KEYS[key];
  if (!field) throw new UsageError(`unknown config key "${key}" (allowed: ${Object.keys(CONFIG_KEYS).join(', ')})`);
  return field;
}

/** Every environment (built-in and stored): its base URL, whether a key is stored and for which origin; through the pager at a terminal. */
export async function listEnvironments(f: Factory): Promise<void> {
  f.io.pageOutput();
  f.exporter.choose('records');
  const stored = (await f.store()).environments();
  const names = [...new Set([...BUILT_IN_ENVS, ...Object.keys(stored)])];
  const rows = names.map((name) => ({
    environment: name,
    baseUrl: stored[name]?.baseUrl ?? null,
    apiKeyStored: stored[name]?.apiKey !== undefined,
    apiKeyOrigin: stored[name]?.apiKey === undefined ? null : (stored[name]?.apiKeyOrigin ?? null),
  }));
  const { viewOfKeys } = await import('../../output/views.js');
  await f.exporter.printList(rows, viewOfKeys(['environment', 'baseUrl', 'apiKeyStored', 'apiKeyOrigin']));
}

/** Prints one setting; exits 1 when it is not set (like `git config --get`). */
export async function getSetting(f: Factory, key: string): Promise<void> {
  const field = fieldOf(key);
  const envName = (await f.settings.envName()).value;
  const value = (await f.store()).environment(envName)[field];
  if (value === undefined) throw new CliError(`${key} is not set for environment "${envName}"`, ExitCode.failure, 'not_set');
  f.io.writeOut(`${value}\n`);
}

/** Stores one setting after checking it (a base URL must be https, or http on loopback); warns when it lacks /v1. */
export async function setSetting(f: Factory, key: string, value: string): Promise<void> {
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
    f.io.warn(
      `the stored key of ${env.value} belongs to ${keyOrigin} and will not be sent to ${url.origin}; run petstore auth login${envFlagOf(env.value)}`,
      'key_for_other_origin',
    );
  }
}

/** Removes one setting. */
export async function unsetSetting(f: Factory, key: string): Promise<void> {
  const field = fieldOf(key);
  const envName = (await f.settings.envName()).value;
  await (await f.store()).update(envName, { [field]: undefined });
  f.io.info(`Unset ${key} of ${envName}`, 'config_unset');
}

/** Prints the path of the config file. */
export async function printPath(f: Factory): Promise<void> {
  f.io.writeOut(`${(await f.store()).path}\n`);
}
