/** `petstore auth logout` run: removes the stored key (and its origin) of the selected environment. */
import type { Factory } from '../../factory.js';
import { task } from '../runner.js';

/** auth logout for the runner (../runner.ts): no options. */
export const LOGOUT = task({ inputs: {}, options: () => ({}), run: runLogout });

/** Removes the key; says so, or that there was none. */
async function runLogout(f: Factory): Promise<void> {
  const envName = (await f.settings.envName()).value;
  const store = await f.store();
  if (store.environment(envName).apiKey === undefined) {
    f.io.info(`No key stored for ${envName}; nothing to do.`, 'not_logged_in');
  } else {
    await store.update(envName, { apiKey: undefined, apiKeyOrigin: undefined });
    f.io.info(`Logged out of ${envName}: key removed from ${store.path}`, 'logged_out');
  }
  if (f.env.PETSTORE_API_KEY) f.io.warn('PETSTORE_API_KEY is still set in this shell', 'env_key_set');
}
