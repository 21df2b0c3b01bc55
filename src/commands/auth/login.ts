/** `petstore auth login` run: checks a key and stores it with the origin it was checked against, the only one it is sent to; prompts, or `--with-token`. */
import { text } from 'node:stream/consumers';
import { InterruptedError, ServiceError, UsageError } from '../../errors.js';
import { API_KEY_FORMAT, type Factory, type GlobalOptions } from '../../factory.js';
import { loginCommand, missingBaseUrl } from '../../settings.js';
import { shellWord } from '../../text.js';
import { task } from '../runner.js';
import { checkFailed, verifyKey } from './http.js';

export interface LoginOptions {
  withToken: boolean;
  skipVerify: boolean;
}

/** A key as typed or piped, trimmed: non-empty printable ASCII without spaces (an HTTP header value). Throws UsageError without echoing it. */
export function checkApiKey(raw: string): string {
  const key = raw.trim();
  if (!key) throw new UsageError('no API key given: the input was empty');
  if (!API_KEY_FORMAT.test(key)) throw new UsageError('invalid API key: it must be printable ASCII without spaces (the key is not shown)');
  return key;
}

/** Prompts without echo. Throws InterruptedError (exit 130) on Ctrl-C, UsageError (exit 2) at the end of input or for an empty key. */
async function promptForKey(f: Factory, envName: string): Promise<string> {
  const { read } = await import('read');
  const input = f.io.std.stdin;
  // read() never settles when its readline closes at the end of input; that close pauses the input (after a line too, once read() settled).
  let settled = false;
  let onPause: () => void = () => undefined;
  const ended = new Promise<never>((_, reject) => {
    onPause = () => setImmediate(() => settled || reject(new UsageError('no API key given: the input ended')));
    input.once('pause', onPause);
  });
  try {
    return await Promise.race([
      read({
        prompt: `API key for ${envName}: `,
        silent: true,
        replace: '',
        input: input as never,
        output: f.io.std.promptOutput as never,
      }),
      ended,
    ]);
  } catch (error) {
    if (error instanceof Error && error.message === 'canceled') throw new InterruptedError('SIGINT');
    throw error;
  } finally {
    settled = true;
    input.removeListener('pause', onPause);
    // The silent prompt swallows the Enter (or Ctrl-C) too; end its line.
    f.io.writeError('\n');
  }
}

/** Why no prompt can ask for the key: stdin is not a terminal (then only --with-token reads it, as in gh), or no terminal to prompt on. */
function notPrompted(stdinIsTTY: boolean, given: Pick<GlobalOptions, 'env' | 'baseUrl'>): UsageError {
  if (!stdinIsTTY) {
    const env = given.env === undefined ? '' : ` --env ${shellWord(given.env)}`;
    const flags = `${env}${given.baseUrl === undefined ? '' : ` --base-url ${shellWord(given.baseUrl)}`}`;
    const command = `petstore auth login${flags} --with-token`;
    return new UsageError(
      'standard input is not a terminal, so there is no prompt for the key',
      `To read the key from standard input, add --with-token:\n  ${command}`,
    );
  }
  return new UsageError('no terminal to prompt for the key on', 'Give it on standard input with --with-token.');
}

/** auth login for the runner (../runner.ts): `--with-token` and `--skip-verify`, then {@link runLogin}. */
export const LOGIN = task({
  inputs: {},
  options: ({ flags }): LoginOptions => ({ withToken: flags.withToken === true, skipVerify: flags.skipVerify === true }),
  run: runLogin,
});

/** Reads the key, checks it with `GET /pets?limit=1` unless `skipVerify`, and stores it with the origin; nothing stored on a 401 (exit 4) or no answer (exit 1). */
async function runLogin(f: Factory, options: LoginOptions): Promise<void> {
  const settings = f.settings;
  const env = await settings.envName({ mayCreate: true });
  const baseUrl = await settings.baseUrl();
  if (!baseUrl) throw missingBaseUrl(env.value);
  let raw: string;
  if (options.withToken) raw = await text(f.io.std.stdin as AsyncIterable<Buffer>);
  else if (f.io.std.stdinIsTTY && f.io.std.promptOutput) raw = await promptForKey(f, env.value);
  else throw notPrompted(f.io.std.stdinIsTTY, f.globals);
  const key = checkApiKey(raw);
  const origin = baseUrl.value.origin;
  if (!options.skipVerify) {
    const check = await verifyKey(f, baseUrl, key, options.withToken ? 'standard input' : 'the prompt', env.value);
    if (check.result === 'rejected') {
      const message = `${origin} rejected the key (HTTP 401, code ${check.error.serviceCode}); nothing was stored`;
      throw new ServiceError(401, 'invalid_api_key', message, `Check the key, then log in again:\n  ${loginCommand(env.value)}`, message);
    }
    if (check.result === 'unreachable')
      throw checkFailed(check.error, '; nothing was stored', 'Try again, or store it unchecked with --skip-verify.');
  }
  const store = await f.store();
  const storeBaseUrl = baseUrl.source === 'flag' || store.environment(env.value).baseUrl === undefined;
  await store.update(env.value, { apiKey: key, apiKeyOrigin: origin, ...(storeBaseUrl ? { baseUrl: baseUrl.value.href } : {}) });
  if (!env.exists) f.io.info(`Created environment ${env.value}`, 'environment_created');
  if (storeBaseUrl) f.io.info(`Base URL of ${env.value} set to ${baseUrl.value.href}`, 'base_url_set');
  const checked = options.skipVerify ? 'not checked (--skip-verify)' : 'checked';
  f.io.info(`Logged in to ${env.value} (${origin}, key ${checked}): key stored in ${store.path}`, 'logged_in');
  if (f.env.PETSTORE_API_KEY) f.io.warn('PETSTORE_API_KEY is set and takes precedence over the stored key', 'env_key_precedence');
}
