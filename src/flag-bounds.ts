/** Bounds and defaults of petstore's own numeric flags, checked by commands/parse-flag.ts and printed by help. */

export interface Bounds {
  min: number;
  max: number;
  default: number;
}

/** `--timeout`: deadline of the whole command (of each page of a whole listing, of each request in a bulk load), in milliseconds. */
export const TIMEOUT_MS: Bounds = { min: 1, max: 3_600_000, default: 30_000 };
/** `--retries <n>`: retries of a GET after the first attempt. */
export const RETRIES: Bounds = { min: 0, max: 10, default: 2 };
/** `--concurrency <n>` of `add --file` and of `get` of several ids: requests in flight at once. */
export const CONCURRENCY: Bounds = { min: 1, max: 64, default: 8 };

/** The message of a value outside `bounds`. */
export function rangeMessage(bounds: Pick<Bounds, 'min' | 'max'>): string {
  return `must be a whole number from ${bounds.min} to ${bounds.max}`;
}
