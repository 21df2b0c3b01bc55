/** Terminal safety for text from the server or files: escape sequences (also C1 forms such as U+009B) and controls are removed. */
import stripAnsi from 'strip-ansi';

// What strip-ansi leaves: lone ESC, BEL, backspace, CR, DEL, C1 controls, bidi overrides.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// Every escape sequence strip-ansi removes begins with ESC or a C1 control: text without any of these is safe as it is.
const HAS_CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** `text` without escape sequences, each other control character a space. */
export function sanitizeText(text: string): string {
  return HAS_CONTROL.test(text) ? stripAnsi(text).replace(CONTROLS, ' ') : text;
}

/** `word` as one word of a shell command a hint names: as it is when only safe characters, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** {@link sanitizeText} line by line, keeping line breaks. */
export function sanitizeLines(text: string): string {
  return text.split('\n').map(sanitizeText).join('\n');
}

/** The code of the warning {@link repeatsWarning}. */
export const REPEATS_DROPPED = 'repeats_dropped';

/** The warning of a listing that left out `described` ("50 pets") as printed before (api/pages.ts's Repeats). */
export function repeatsWarning(described: string): string {
  return `left out ${described} already printed: the store changed while it was read (anything added or removed meanwhile may be missing)`;
}
