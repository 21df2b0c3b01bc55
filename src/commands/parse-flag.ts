/** Flag checks: a zod schema on one flag's text, a failure a UsageError naming the flag. Loads zod: import only when running. */
import * as z from 'zod/mini';
import { wholeNumberText } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import { rangeMessage, type Bounds } from '../flag-bounds.js';
import { didYouMean } from '../suggest.js';

/** Parses `text` with `schema`; throws UsageError (exit 2) like `invalid value for --limit: "0": must be a whole number from 1 to 100`. */
export function parseFlag<T extends z.ZodMiniType>(schema: T, text: string, flag: string): z.output<T> {
  const result = schema.safeParse(text);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  // A value not among the allowed ones (`--status availble`): the closest named.
  const near = issue?.code === 'invalid_value' ? didYouMean(text, issue.values.map(String)) : '';
  throw new UsageError(`invalid value for ${flag}: "${text}": ${issue?.message ?? 'invalid'}${near}`);
}

/** A whole number within `bounds` (digits only), or `bounds.default` when not given. Throws UsageError. */
export function parseWholeNumber(text: string | undefined, bounds: Bounds, flag: string): number {
  if (text === undefined) return bounds.default;
  const message = rangeMessage(bounds);
  return parseFlag(
    wholeNumberText(z.number().check(z.int(message), z.gte(bounds.min, message), z.lte(bounds.max, message)), message),
    text,
    flag,
  );
}
