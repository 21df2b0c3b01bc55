/**
 * Values as the text of one cell of human output: sanitised for the terminal,
 * numbers exactly as sent.
 */
import { stringifyJson, JsonNumber } from '../json.js';
import { sanitizeText } from '../text.js';

/** The text of one value in a table, a row or a key/value line; `-` for none. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '-';
  if (typeof value === 'string') return sanitizeText(value);
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean' || value instanceof JsonNumber)
    return String(value);
  return sanitizeText(stringifyJson(value));
}
