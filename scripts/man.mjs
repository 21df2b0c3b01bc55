// Writes dist/man/petstore.1, one man page with every command, from the
// command tree of the built bundle (the same tree --help and shell completion
// read): usage, description, arguments, flags, examples and the notes of each
// command's help. package.json's "man" field ships it, so that `man petstore`
// works after `npm install -g`. The docs step of `npm run build`, after
// scripts/build.mjs: the page documents the program that ships, as gh's and
// cobra's generators document theirs from its command tree.
//
//   node scripts/man.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Text as roff: backslashes, minus signs and a leading control character escaped. */
const esc = (text) => text.replace(/\\/g, '\\e').replace(/-/g, '\\-').replace(/^[.']/gm, '\\&$&');

/** One flag or argument: its term in bold, its description below. */
const item = (term, description) => `.TP\n.B ${esc(term)}\n${esc(description)}`;

/** The text that `addHelpText('after', ...)` adds to a command's help. */
function afterText(command) {
  let text = '';
  // Unwrapped (src/program.ts): roff fills the text to the reader's width.
  command.emit('afterHelp', { error: false, command, unwrapped: true, write: (chunk) => (text += chunk) });
  return text.trim();
}

/**
 * The indented lines of a help block as roff that man fills to any width:
 * examples one per line in bold (a long one wraps at a space), a table such
 * as "  0    success" as tagged paragraphs, its continuation lines joined.
 */
function indented(lines, title) {
  // A wrapped example goes on two columns further in (.ti: only its first line is out at 4).
  if (title === 'Examples') return ['.RS 6', ...lines.flatMap((line) => ['.ti -2', `\\fB${esc(line.trim())}\\fR`, '.br']), '.RE'];
  const items = [];
  for (const line of lines) {
    const columns = /^ {2}(\S.*?) {2,}(\S.*)$/.exec(line);
    if (columns) items.push([columns[1], columns[2]]);
    else if (items.length) items.at(-1)[1] += ` ${line.trim()}`;
    else items.push(['', line.trim()]);
  }
  return items.map(([term, text]) => item(term, text));
}

/**
 * The added help text as roff: a line such as "Examples:" starts a titled
 * block (its indented lines as {@link indented} makes them), any other text
 * is a paragraph.
 */
function notes(text, heading) {
  const out = [];
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split('\n');
    const title = /^\S.*:$/.test(lines[0]) ? lines.shift().slice(0, -1) : undefined;
    if (title) out.push(heading(title));
    else out.push('.PP');
    if (lines.every((line) => /^\s/.test(line))) out.push(...indented(lines, title));
    else out.push(esc(lines.join(' ').replace(/\s+/g, ' ')));
  }
  return out;
}

/** The section of one command: usage, description, arguments, its own flags, notes. */
function commandSection(command, path) {
  const help = command.createHelp();
  const out = [`.SS "${esc(path)}"`, `.B ${esc(help.commandUsage(command))}`];
  out.push('.PP', esc(help.commandDescription(command)));
  for (const argument of help.visibleArguments(command)) out.push(item(help.argumentTerm(argument), help.argumentDescription(argument)));
  for (const option of help.visibleOptions(command)) out.push(item(help.optionTerm(option), help.optionDescription(option)));
  out.push(...notes(afterText(command), (title) => `.PP\n.I ${esc(title)}:`));
  return out;
}

/** The whole page for the program `program` at `version`, dated `date` (YYYY-MM-DD). */
function manPage(program, version, date) {
  const help = program.createHelp();
  const out = [
    `.TH PETSTORE 1 ${date} "petstore ${esc(version)}" "User Commands"`,
    // No hyphenation, ragged right: flags and values stay whole.
    '.nh',
    '.ad l',
    '.SH NAME',
    `petstore \\- ${esc(program.description().replace(/\.$/, ''))}`,
    '.SH SYNOPSIS',
    '.B petstore',
    '[\\fIglobal flags\\fR] \\fIcommand\\fR [\\fIflags\\fR] [\\fIarguments\\fR]',
    '.SH DESCRIPTION',
    `${esc(program.description())} Every command takes the global flags, before or after its name; ` +
      '\\fBpetstore help\\fR \\fIcommand\\fR and \\fBpetstore\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR print the same help as below.',
    '.SH GLOBAL FLAGS',
    ...help.visibleOptions(program).map((option) => item(help.optionTerm(option), help.optionDescription(option))),
    '.SH COMMANDS',
  ];
  const visit = (command, path) => {
    for (const sub of command.createHelp().visibleCommands(command)) {
      // Each group's own `help` subcommand repeats the root's.
      if (sub.name() === 'help' && command !== program) continue;
      out.push(...commandSection(sub, `${path} ${sub.name()}`));
      visit(sub, `${path} ${sub.name()}`);
    }
  };
  visit(program, 'petstore');
  out.push(...notes(afterText(program), (title) => `.SH ${esc(title.toUpperCase())}`));
  out.push('.SH SEE ALSO', 'The README of petstore: configuration, proxies, certificates, the code cache.');
  return `${out.join('\n')}\n`;
}

const root = new URL('../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const { commandTree } = createRequire(import.meta.url)('../dist/petstore.cjs');
mkdirSync(new URL('dist/man/', root), { recursive: true });
// SOURCE_DATE_EPOCH (reproducible builds) dates the page, else the day of the build.
const epoch = process.env.SOURCE_DATE_EPOCH;
const date = new Date(epoch ? Number(epoch) * 1000 : Date.now()).toISOString().slice(0, 10);
writeFileSync(new URL('dist/man/petstore.1', root), manPage(await commandTree(), version, date));
