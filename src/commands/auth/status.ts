/** `petstore auth status` run: environment, base URL, key source and origin (never the key), checked with the service. Exit 0 valid, 4 none or rejected, 1 no answer. */
import { ServiceError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { viewOfKeys } from '../../output/views.js';
import { missingApiKey, missingBaseUrl } from '../../settings.js';
import { RecordWithExitCheck, record } from '../runner.js';
import { checkFailed, verifyKey, type KeyCheck } from './http.js';

const CHECK_TEXT: Record<KeyCheck['result'], string> = {
  valid: 'valid',
  rejected: 'rejected (HTTP 401)',
  unreachable: 'not checked: service unreachable',
};

const KEYS = ['environment', 'environmentSource', 'baseUrl', 'baseUrlSource', 'apiKey', 'apiKeySource', 'apiKeyOrigin', 'check'];

/** auth status for the runner (../runner.ts): the status record as key/value lines, then the error the exit code must say. */
export const STATUS = record({
  shape: 'fields',
  view: viewOfKeys(KEYS),
  inputs: {},
  options: () => ({}),
  read: (f) => statusOf(f),
});

/** The status record, then the error to throw once it is printed (none: exit 0). */
async function statusOf(f: Factory): Promise<RecordWithExitCheck> {
  const settings = f.settings;
  const env = await settings.envName();
  const baseUrl = await settings.baseUrl();
  const apiKey = await settings.apiKey();
  const usable = apiKey && baseUrl && (apiKey.source !== 'config' || apiKey.boundTo === baseUrl.value.origin);
  const check = usable ? await verifyKey(f, baseUrl, apiKey.value, apiKey.source, env.value) : undefined;
  const record = {
    environment: env.value,
    environmentSource: env.source === 'default' ? 'default' : env.origin,
    baseUrl: baseUrl?.value.href ?? null,
    baseUrlSource: baseUrl?.origin ?? null,
    apiKey: apiKey ? 'set' : 'not set',
    apiKeySource: apiKey?.origin ?? null,
    apiKeyOrigin: apiKey ? (apiKey.source === 'config' ? (apiKey.boundTo ?? 'unknown') : 'any (PETSTORE_API_KEY)') : null,
    check: check
      ? CHECK_TEXT[check.result]
      : apiKey && baseUrl
        ? `not checked: the key belongs to ${apiKey.boundTo ?? 'no recorded origin'}`
        : 'not checked',
  };
  return new RecordWithExitCheck(record, async () => {
    if (!apiKey) throw missingApiKey(env.value);
    if (!baseUrl) throw missingBaseUrl(env.value);
    if (!check) await settings.apiKeyFor(baseUrl.value);
    if (check?.result === 'rejected') {
      const message = `the service rejected the key of ${env.value} (HTTP 401)`;
      throw new ServiceError(401, 'invalid_api_key', message, check.error.hint, message);
    }
    if (check?.result === 'unreachable') throw checkFailed(check.error, '');
  });
}
