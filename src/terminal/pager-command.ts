/** Which pager runs, and whether the terminal can run one (docs/terminal.md): PETSTORE_PAGER, else PAGER, else `less -FRX`. */

/** A pager command: its words, and whether the user chose it (PETSTORE_PAGER or PAGER) rather than the default. */
export interface PagerCommand {
  words: string[];
  chosen: boolean;
}

/** Folders where curses looks up a terminal's description (terminfo(5)), besides $TERMINFO, ~/.terminfo and $TERMINFO_DIRS. */
const TERMINFO_DIRS = ['/etc/terminfo', '/lib/terminfo', '/usr/share/terminfo', '/usr/lib/terminfo', '/usr/local/share/terminfo'];

/** True when TERM is set, not `dumb`, and has a terminfo entry (without one less stops at "terminal is not fully functional"). */
export function terminalCanPage(env: NodeJS.ProcessEnv): boolean {
  const term = env.TERM;
  if (!term || term === 'dumb' || term.includes('/')) return false;
  const dirs = [env.TERMINFO, env.HOME && `${env.HOME}/.terminfo`];
  for (const dir of (env.TERMINFO_DIRS ?? '').split(':')) dirs.push(dir || undefined);
  dirs.push(...TERMINFO_DIRS);
  const fs = process.getBuiltinModule('node:fs');
  const letters = [term[0]!, term.charCodeAt(0).toString(16)];
  return dirs.some((dir) => dir && letters.some((letter) => fs.existsSync(`${dir}/${letter}/${term}`)));
}

/** The pager to run for `env`; undefined when PETSTORE_PAGER or PAGER (set, even empty, wins) is blank or `cat`. */
export function pagerCommand(env: NodeJS.ProcessEnv): PagerCommand | undefined {
  const chosen = env.PETSTORE_PAGER ?? env.PAGER;
  const words = splitWords(chosen ?? 'less -FRX');
  if (words.length === 0 || (words.length === 1 && words[0] === 'cat')) return undefined;
  return { words, chosen: chosen !== undefined };
}

/** `text` split into words as sh splits a simple command (quotes and backslashes; no expansion, no operators). */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      word = (word ?? '') + text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    } else if (c === '"') {
      word ??= '';
      for (i += 1; i < text.length && text[i] !== '"'; i += 1) {
        if (text[i] === '\\' && '"\\$`'.includes(text[i + 1] ?? '')) i += 1;
        word += text[i];
      }
    } else {
      if (c === '\\' && i + 1 < text.length) i += 1;
      word = (word ?? '') + text[i];
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
