/** `petstore auth token` run: prints the key in effect for scripts, as `gh auth token`; the only command that prints the key. */
import type { Factory } from '../../factory.js';
import { missingApiKey } from '../../settings.js';
import { task } from '../runner.js';

/** PETSTORE_API_KEY, else the stored key, held to the base URL's origin when there is one. Exit 4 when there is none or it is another origin's. */
async function runToken(f: Factory): Promise<void> {
  const settings = f.settings;
  const baseUrl = await settings.baseUrl();
  const key = baseUrl ? await settings.apiKeyFor(baseUrl.value) : await settings.apiKey();
  if (!key) throw missingApiKey((await settings.envName()).value);
  f.io.writeOut(`${key.value}\n`);
}

/** auth token for the runner (../runner.ts): no options. */
export const TOKEN = task({ inputs: {}, options: () => ({}), run: runToken });
