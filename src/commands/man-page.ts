/**
 * The man page (troff) of the command tree, one page with every command, from the same tree and text as `--help`: usage,
 * description, arguments, flags, examples and the notes of each command's help. scripts/man.mjs writes it to dist/man/petstore.1
 * (package.json's "man", the Debian and RPM packages); `petstore help man` prints the same page, so the standalone executable has it
 * too. The page is filled by man to any width, without hyphenation: a long word in a paragraph may break after a "/", and a command
 * (an example, a line for a startup file) is set as written, wrapped with the shell's " \" for a terminal of 60 columns.
 */
import type { Command, CommandUnknownOpts, Help } from '@commander-js/extra-typings';
import { UNBROKEN, wrapCommand, wrapLine } from '../terminal/wrap.js';

/**
 * The columns a command's line may take: a terminal of 60 columns is 58 wide for man, whose text starts at column 7 and a command
 * block 4 further in.
 */
const COMMAND_COLUMNS = 58 - 7 - 4;

/** Below this many characters a word in a paragraph needs no break point: it fits any line man makes at 60 columns. */
const LONG_WORD = 30;

/** Text as roff: backslashes, minus signs and a leading control character escaped; joined words kept together (`\ `). */
const roff = (text: string) => text.replace(/\\/g, '\\e').replace(/-/g, '\\-').replace(/^[.']/gm, '\\&$&').replaceAll(UNBROKEN, '\\ ');

/** Filled text as roff: a long word (a path, a URL) may break after each "/" (`\:`), so that no line is left that man cannot break. */
const filled = (text: string) =>
  roff(text)
    .split(' ')
    .map((word) => (word.length >= LONG_WORD ? word.replace(/\//g, '/\\:') : word))
    .join(' ');

/** One flag or argument: its term in bold, its description below. */
const item = (term: string, description: string) => `.TP\n.B ${roff(term)}\n${filled(description)}`;

/** Two columns of help, "  0    success": its term, then its text. */
const COLUMNS = /^ {2}(\S.*?) {2,}(\S.*)$/;

/** The text that `addHelpText('after', ...)` adds to a command's help, as written (src/program.ts: `unwrapped`). */
function afterText(command: CommandUnknownOpts): string {
  let text = '';
  (command as unknown as NodeJS.EventEmitter).emit('afterHelp', {
    error: false,
    command,
    unwrapped: true,
    write: (chunk: string) => {
      text += chunk;
    },
  });
  return text.trim();
}

/**
 * Commands set as written (no fill), in bold, each wrapped at {@link COMMAND_COLUMNS} with " \" as help wraps them; a shell comment
 * after a command ("petstore add    # at a terminal: ...") goes below it, wrapped as comment lines.
 */
function commandBlock(lines: readonly string[]): string[] {
  const out = ['.RS 4', '.nf'];
  for (const line of lines) {
    const [, command = line.trim(), comment] = /^\s*(\S.*?)(?: {2,}# (.*))?$/.exec(line) ?? [];
    for (const part of wrapCommand(command, COMMAND_COLUMNS, '', '    ')) out.push(`\\fB${roff(part)}\\fR`);
    if (comment) for (const part of wrapLine(comment, COMMAND_COLUMNS, '    # ', '    # ')) out.push(roff(part));
  }
  out.push('.fi', '.RE');
  return out;
}

/** Indented help lines as roff: a table ("  0    success", its next lines joined) as tagged paragraphs, else commands. */
function indented(lines: readonly string[], title: string | undefined): string[] {
  if (title === 'Examples' || !COLUMNS.test(lines[0] ?? '')) return commandBlock(lines);
  const items: Array<[string, string]> = [];
  for (const line of lines) {
    const columns = COLUMNS.exec(line);
    if (columns) items.push([columns[1]!, columns[2]!]);
    else if (items.length > 0) items.at(-1)![1] += ` ${line.trim()}`;
  }
  return items.map(([term, text]) => item(term, text));
}

/** A short line ending in ":" ("Examples:", "Exit codes:") heads its block; a longer one is a paragraph that leads into it. */
const isHeading = (line: string) => /^\S.*:$/.test(line) && line.split(' ').length <= 3;

/** The added help text as roff: each block a heading with its indented lines, or a paragraph (with the commands it leads into). */
function notes(text: string, heading: (title: string) => string): string[] {
  const out: string[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split('\n');
    const title = isHeading(lines[0] ?? '') ? lines.shift()!.slice(0, -1) : undefined;
    out.push(title ? heading(title) : '.PP');
    const prose = lines.filter((line) => !/^\s/.test(line));
    const commands = lines.filter((line) => /^\s/.test(line));
    if (prose.length > 0) out.push(filled(prose.join(' ').replace(/\s+/g, ' ')));
    if (commands.length > 0) out.push(...indented(commands, title));
  }
  return out;
}

/** The section of one command: usage, description, arguments, its own flags, notes. */
function commandSection(command: CommandUnknownOpts, path: string): string[] {
  const help: Help = command.createHelp();
  const out = [
    `.SS "${roff(path)}"`,
    `.B ${roff(help.commandUsage(command as Command))}`,
    '.PP',
    filled(help.commandDescription(command as Command)),
  ];
  for (const argument of help.visibleArguments(command as Command)) {
    out.push(item(help.argumentTerm(argument), help.argumentDescription(argument)));
  }
  for (const option of help.visibleOptions(command as Command)) out.push(item(help.optionTerm(option), help.optionDescription(option)));
  out.push(...notes(afterText(command), (title) => `.PP\n.I ${roff(title)}:`));
  return out;
}

declare const PETSTORE_BUILD_DATE: string | undefined;
/** The day of the build (YYYY-MM-DD; scripts/build.mjs, from SOURCE_DATE_EPOCH or the clock), which dates the page. */
const BUILD_DATE = typeof PETSTORE_BUILD_DATE === 'string' ? PETSTORE_BUILD_DATE : new Date().toISOString().slice(0, 10);

/** The whole page for `program` at `version`, dated `date` (YYYY-MM-DD; by default the build's). */
export function manPage(program: CommandUnknownOpts, version: string, date = BUILD_DATE): string {
  const help: Help = program.createHelp();
  const out = [
    `.TH PETSTORE 1 ${date} "petstore ${roff(version)}" "User Commands"`,
    // No hyphenation, ragged right: flags and values stay whole.
    '.nh',
    '.ad l',
    '.SH NAME',
    `petstore \\- ${roff(program.description().replace(/\.$/, ''))}`,
    '.SH SYNOPSIS',
    '.B petstore',
    '[\\fIglobal flags\\fR] \\fIcommand\\fR [\\fIflags\\fR] [\\fIarguments\\fR]',
    '.SH DESCRIPTION',
    `${filled(program.description())} A command takes the global flags that apply to it (its help lists them), before or after its name, and refuses the others; ` +
      '\\fBpetstore help\\fR \\fIcommand\\fR and \\fBpetstore\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR print the same help as below, ' +
      'and \\fBpetstore help man\\fR prints this page.',
    '.SH GLOBAL FLAGS',
    ...help.visibleOptions(program as Command).map((option) => item(help.optionTerm(option), help.optionDescription(option))),
    '.SH COMMANDS',
  ];
  const visit = (command: CommandUnknownOpts, path: string) => {
    for (const sub of command.createHelp().visibleCommands(command as Command)) {
      // Each group's own `help` subcommand repeats the root's.
      if (sub.name() === 'help' && command !== program) continue;
      out.push(...commandSection(sub, `${path} ${sub.name()}`));
      visit(sub, `${path} ${sub.name()}`);
    }
  };
  visit(program, 'petstore');
  out.push(...notes(afterText(program), (title) => `.SH ${roff(title.toUpperCase())}`));
  out.push('.SH SEE ALSO', 'The README of petstore: configuration, proxies, certificates, the code cache.');
  return `${out.join('\n')}\n`;
}
