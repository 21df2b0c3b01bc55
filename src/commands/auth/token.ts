/**
 * `petstore auth token`: prints the API key in effect, for scripts
 * (`curl -H "Authorization: Bearer $(petstore auth token)"`), as `gh auth token`
 * does. The only command that prints the key, and only on explicit request.
 */
import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { missingApiKey } from '../../settings.js';
import { examples } from '../kit.js';

/** Declares `auth token`. */
export function newTokenCommand(f: Factory, runF: () => Promise<void> = () => runToken(f)) {
  return new Command('token')
    .description('Print the API key in effect (for scripts)')
    .addHelpText('after', examples('petstore auth token', 'petstore auth token --env staging'))
    .action(async () => runF());
}

/**
 * Prints the key: PETSTORE_API_KEY, else the stored key of the environment,
 * held to the origin of the base URL in effect when there is one. Exit 4 when
 * there is no key or it belongs to another origin.
 */
export async function runToken(f: Factory): Promise<void> {
  const settings = f.settings;
  const baseUrl = await settings.baseUrl();
  const key = baseUrl ? await settings.apiKeyFor(baseUrl.value) : await settings.apiKey();
  if (!key) throw missingApiKey((await settings.envName()).value);
  f.io.writeOut(`${key.value}\n`);
}
