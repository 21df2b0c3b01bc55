/**
 * Display widths on a terminal (CJK and most emoji count two columns) and
 * truncation by them. Loaded only by the renderers that align columns: it
 * creates an Intl.Segmenter, which loads ICU data.
 */
import stringWidth from 'string-width';

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
