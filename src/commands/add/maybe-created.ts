/**
 * What a failed createPet of `add` says about the pet, as a bulk load's outcomes do (docs/bulk-loads.md): an answer that proves nothing
 * (a 3xx, 408, 425, 429 or 503 without Retry-After, any other 5xx, a body cut off after a 2xx) or no answer may have created it; a 2xx
 * whose body cannot be read did; a connection that never opened did not. petstore never sends a POST twice, so the message says how to look.
 */
import type { BodyReadError } from '../../api/exchange.js';
import type { RedirectError } from '../../api/failures.js';
import type { NewPet } from '../../api/schemas.js';
import { CliError, excerptOf, RequestError, ServiceError } from '../../errors.js';

// Told by name, not instanceof: importing their modules would start undici on the path of add's flag errors (test/startup.test.ts).
const isBodyRead = (error: CliError): error is BodyReadError => error.name === 'BodyReadError';
const isRedirect = (error: CliError): error is RedirectError => error.name === 'RedirectError';

/** The code of an answer that leaves the pet's creation unknown (exit 1). */
export const OUTCOME_UNKNOWN = 'outcome_unknown';

/** Longest Location quoted, in characters. */
const LOCATION_LENGTH = 200;

/** How to see whether `pet` is in the store: the listing that would show it. */
function howToLook(pet: NewPet): string {
  const status = pet.status === undefined ? '' : ` --status ${pet.status}`;
  return `See whether a pet named ${JSON.stringify(pet.name)} in category ${pet.categoryId} is in the store before adding it again:\n  petstore list --all${status} --format tsv`;
}

/** Does an answer of `status` prove nothing of a POST (RFC 9110 §15)? `retryAfter`: a 429 or 503 that asked to be sent later (not taken). */
function provesNothing(status: number, retryAfter: boolean): boolean {
  if (status === 429 || status === 503) return !retryAfter;
  return (status >= 300 && status < 400) || status === 408 || status === 425 || status >= 500;
}

/** Says what `error`, of POSTing `pet`, means for the pet (created, perhaps created, or as it is: not); returns the error to throw. */
export function afterCreateFailed(error: unknown, pet: NewPet): unknown {
  if (!(error instanceof CliError) || (error instanceof RequestError && error.notSent) || error.hint) return error;
  const status = error instanceof RequestError || error instanceof ServiceError ? error.status : null;
  if (status === null) {
    if (!['timeout', 'connection_closed'].includes(error.code)) return error;
    return new RequestError(
      error.message,
      error.code,
      null,
      `The pet may have been created; petstore does not send it again. ${howToLook(pet)}`,
    );
  }
  const success = status >= 200 && status < 300;
  if (success && !(isBodyRead(error) && error.code !== 'body_too_large')) {
    return new RequestError(
      error.message,
      error.code,
      status,
      `The service answered HTTP ${status}: the pet was created, but its answer could not be read; petstore does not send it again. ${howToLook(pet)}`,
    );
  }
  if (!success && !provesNothing(status, error instanceof ServiceError && error.retryAfterMs !== undefined)) return error;
  return new RequestError(
    `the pet may have been created: ${describeAnswer(error, status)}, which does not say whether it stored the pet`,
    OUTCOME_UNKNOWN,
    status,
    `${isRedirect(error) ? 'petstore follows no redirect and' : 'petstore'} does not send it again. ${howToLook(pet)}`,
  );
}

/** What came back, after the request was sent: "the service answered HTTP 303 redirecting to /v1/pets/7", its Error, a body cut off. */
function describeAnswer(error: CliError, status: number): string {
  const answered = `the service answered HTTP ${status}`;
  if (error instanceof ServiceError) {
    const at = error.location === undefined ? '' : ` with Location ${cut(error.location)}`;
    return `${answered}${at} (${error.serviceCode}: ${excerptOf(error.serviceMessage)})`;
  }
  if (isBodyRead(error)) return `${answered}, then its body was cut off (${error.message})`;
  if (!isRedirect(error)) return error.message;
  const { location } = error;
  if (location === undefined) return `${answered} without a Location`;
  return `${answered} redirecting to ${cut(location)}`;
}

/** A Location as quoted: its first {@link LOCATION_LENGTH} characters. */
function cut(location: string): string {
  return location.length > LOCATION_LENGTH ? `${location.slice(0, LOCATION_LENGTH)}…` : location;
}
