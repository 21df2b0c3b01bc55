/**
 * Terminal safety for strings that come from the server or from files: escape
 * sequences (CSI, OSC, also their single-byte C1 forms such as U+009B) and every
 * other C0/C1 control character are removed before human output.
 */
import stripAnsi from 'strip-ansi';

// What strip-ansi leaves: lone ESC, BEL, backspace, CR, DEL, C1 controls, bidi overrides.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Returns `text` with escape sequences removed and each other control character replaced by a space. */
export function sanitizeText(text: string): string {
  return stripAnsi(text).replace(CONTROLS, ' ');
}

/** Like {@link sanitizeText}, line by line: the line breaks of `text` are kept. */
export function sanitizeLines(text: string): string {
  return text.split('\n').map(sanitizeText).join('\n');
}
