/**
 * Flag validation shared by commands: runs a zod schema on one flag's text and
 * turns a failure into a UsageError that names the flag and the allowed values.
 */
import type * as z from 'zod/mini';
import { UsageError } from '../errors.js';

/**
 * Parses `text` with `schema`. Throws UsageError (exit 2):
 * `invalid value for --limit: "0": must be a whole number from 1 to 100`.
 */
export function parseFlag<T extends z.ZodMiniType>(schema: T, text: string, flag: string, allowed?: string): z.output<T> {
  const result = schema.safeParse(text);
  if (result.success) return result.data;
  const detail = allowed ?? result.error.issues[0]?.message ?? 'invalid';
  throw new UsageError(`invalid value for ${flag}: "${text}": ${detail}`);
}

export const STATUS_ALLOWED = 'allowed values: available, pending, sold';
