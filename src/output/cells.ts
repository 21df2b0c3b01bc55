/**
 * Values as the text of one cell of human output: sanitised for the terminal,
 * numbers exactly as sent, and truncation by display width.
 */
import stringWidth from 'string-width';
import { stringifyJson, JsonNumber } from '../api/json.js';
import { sanitizeText } from '../text.js';

/** The text of one value in a table, a row or a key/value line; `-` for none. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '-';
  if (typeof value === 'string') return sanitizeText(value);
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean' || value instanceof JsonNumber)
    return String(value);
  return sanitizeText(stringifyJson(value));
}

/** Columns `text` takes on a terminal (CJK and most emoji count two). */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

const segmenter = new Intl.Segmenter();

/**
 * `text` cut to at most `width` columns, ending in `…` when it was cut;
 * graphemes are never split.
 */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return width === 1 ? '…' : '';
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = displayWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}
