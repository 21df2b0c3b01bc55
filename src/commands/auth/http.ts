/** auth's endpoint call: checks a key with `GET /pets?limit=1` (listPets, the cheapest operation every key may call). */
import type { OperationSchemas } from '../../api/schemas.js';
import { CliError, ExitCode, ServiceError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { Resolved } from '../../settings.js';

/** The operation auth calls: only its status code is read. */
export const OPERATIONS: readonly OperationSchemas[] = [{ operationId: 'listPets' }];

/** A key accepted, rejected (a 401), or no usable answer (network, 5xx, anything else). */
export type KeyCheck = { result: 'valid' } | { result: 'rejected'; error: ServiceError } | { result: 'unreachable'; error: Error };

/** Checks `apiKey` (from `keySource`) against `baseUrl`: the answer or a network failure is the result; throws only Ctrl-C's. */
export async function verifyKey(f: Factory, baseUrl: Resolved<URL>, apiKey: string, keySource: string, envName: string): Promise<KeyCheck> {
  const client = await f.clientFor(baseUrl.value, apiKey, envName, baseUrl.origin, keySource);
  try {
    const response = await client.send({ method: 'GET', path: 'pets', query: new URLSearchParams({ limit: '1' }) });
    const failure = client.failureOf(response, [200]);
    if (!failure) return { result: 'valid' };
    if (failure instanceof ServiceError && failure.status === 401) return { result: 'rejected', error: failure };
    return { result: 'unreachable', error: failure };
  } catch (error) {
    if (f.signal.aborted) throw f.signal.reason;
    return { result: 'unreachable', error: error instanceof Error ? error : new Error(String(error)) };
  } finally {
    await client.close();
  }
}

/**
 * The error (exit 1, `verify_failed`) of a key that could not be checked: `error` named, its hint kept (a service out of reach: the base
 * URL and where it came from), then `next`, what to do about it.
 */
export function checkFailed(error: Error, suffix: string, next?: string): CliError {
  const hint = [error instanceof CliError ? error.hint : undefined, next].filter(Boolean).join('\n');
  return new CliError(`cannot check the key: ${error.message}${suffix}`, ExitCode.failure, 'verify_failed', hint || undefined);
}
