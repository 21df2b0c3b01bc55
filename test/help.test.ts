// Help as gh users expect it: every way of asking prints that command's help on
// stdout and exits 0 with nothing on stderr; each command's help lists the
// global flags it inherits and examples; an unknown command exits 2 with a
// suggestion. In-process through main (no request is made: no base URL is set, and test/setup.ts refuses any connection).
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, test } from 'vitest';
import { findCommand } from '../src/commands/help.js';
import { globalFlagsOf, type GlobalFlag } from '../src/commands/kit.js';
import { COMMANDS } from '../src/commands/registry.js';
import { Factory } from '../src/factory.js';
import { IOStreams } from '../src/iostreams.js';
import { commandTree } from '../src/main.js';
import { leadingCommand } from '../src/launch.js';
import { run, spawnPetstore, tempConfigHome, wrapped } from './helpers.js';

const SIGNALS = { stop: new AbortController().signal, halt: new AbortController().signal };
const GLOBAL_FLAGS = ['--env <name>', '--base-url <url>', '--json', '--no-color', '--timeout <ms>', '--retries <n>', '--verbose'];

/** Every command a user can reach, as the words after `petstore` (the root is []). */
async function commandPaths(): Promise<string[][]> {
  const paths: string[][] = [];
  const visit = (command: CommandUnknownOpts, path: string[]) => {
    paths.push(path);
    for (const sub of command.createHelp().visibleCommands(command)) visit(sub, [...path, sub.name()]);
  };
  visit(await commandTree(), []);
  return paths;
}

/** The lines of one section of help ("Options:", "Examples:"), up to the next blank line. */
function section(help: string, title: string): string[] {
  const start = help.indexOf(`\n${title}\n`);
  if (start < 0) return [];
  const rest = help.slice(start + title.length + 2).trimEnd();
  return rest.slice(0, rest.search(/\n\n|$/)).split('\n');
}

describe('asking for help', () => {
  test('bare petstore, help, --help and -h print the same root help on stdout, exit 0', async () => {
    const results = await Promise.all([run([]), run(['help']), run(['--help']), run(['-h'])]);
    for (const r of results) {
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toBe(results[0]!.stdout);
    }
    const help = results[0]!.stdout;
    expect(help.startsWith('Usage: petstore [options] [command]\n\nCommand-line client for the pet store service.\n')).toBe(true);
    expect(
      section(help, 'Commands:')
        .filter((line) => /^ {2}\S/.test(line))
        .map((line) => line.trim().split(/\s+/)[0]),
    ).toEqual([...COMMANDS.map((c) => c.name).filter((name) => !name.startsWith('__')), 'help']);
    expect(help).toContain('\nExit codes:\n  0    success\n');
    // Every variable petstore reads, by name.
    const variables = section(help, 'Environment variables:').join('\n');
    for (const name of [
      'PETSTORE_NO_DEPRECATION_WARNING',
      'PETSTORE_GET_VIA_LIST',
      'PETSTORE_NO_PROMPT',
      'PETSTORE_DEBUG',
      'CLICOLOR_FORCE',
    ])
      expect(variables).toContain(name);
    expect(help.split('\n').filter((line) => line.length > 80)).toEqual([]);
    expect(help).not.toContain('__complete');
  });

  test.each([
    [['help', 'list'], ['list', '--help'], 'Usage: petstore list [options]\n'],
    [['help', 'auth', 'login'], ['auth', 'login', '--help'], 'Usage: petstore auth login [options]\n'],
    [['auth', 'help', 'login'], ['auth', 'login', '-h'], 'Usage: petstore auth login [options]\n'],
    [['help', 'auth'], ['auth'], 'Usage: petstore auth [options] [command]\n'],
    [['config', 'help'], ['config', '--help'], 'Usage: petstore config [options] [command]\n'],
    [['help', 'completion', 'bash'], ['completion', 'bash', '--help'], 'Usage: petstore completion bash [options]\n'],
  ])('%j prints what %j prints, on stdout, exit 0', async (asked, same, usage) => {
    const [a, b] = await Promise.all([run(asked), run(same)]);
    expect(a).toEqual({ code: 0, stdout: b.stdout, stderr: '', unmatched: [] });
    expect(b).toMatchObject({ code: 0, stderr: '' });
    expect(a.stdout.startsWith(usage)).toBe(true);
  });

  test.each([
    [['help', 'lsit'], 'unknown command "lsit" for "petstore"; did you mean "list"?', 'For its commands, run:\n  petstore --help'],
    [
      ['help', 'auth', 'logn'],
      'unknown command "logn" for "petstore auth"; did you mean "login"?',
      'For its commands, run:\n  petstore auth --help',
    ],
    [
      ['auth', 'help', 'stauts'],
      'unknown command "stauts" for "petstore auth"; did you mean "status"?',
      'For its commands, run:\n  petstore auth --help',
    ],
    [
      ['help', 'completion', 'bsh'],
      'unknown command "bsh" for "petstore completion"; did you mean "bash"?',
      'For its commands, run:\n  petstore completion --help',
    ],
    [['help', 'zzzzzz'], 'unknown command "zzzzzz" for "petstore"', 'For its commands, run:\n  petstore --help'],
    [['help', 'list', 'all'], '"petstore list" has no subcommands (found "all")', 'For its usage, run:\n  petstore list --help'],
  ])('%j exits 2 naming the command, with a suggestion when one is close', async (argv, message, hint) => {
    expect(await run(argv)).toEqual({ code: 2, stdout: '', stderr: wrapped(`error: ${message}\n${hint}\n`), unmatched: [] });
  });

  test.each([
    [['lisst', '--status', 'available'], 'lisst', 'petstore', 'list'],
    [['--env', 'staging', 'lisst', '--limit', '5', '--all'], 'lisst', 'petstore', 'list'],
    [['ad', '--name', 'Rex', '--category-id', '1'], 'ad', 'petstore', 'add'],
    [['gte', '1', '--no-color'], 'gte', 'petstore', 'get'],
    [['config', 'st', 'base-url', 'x'], 'st', 'petstore config', 'set'],
    [['config', '--env', 'local', 'lsit', '--format', 'json'], 'lsit', 'petstore config', 'list'],
    [['auth', 'logn'], 'logn', 'petstore auth', 'login'],
    [['auth', 'logn', '--with-token', '--skip-verify'], 'logn', 'petstore auth', 'login'],
    [['auth', 'stauts', '--env', 'staging'], 'stauts', 'petstore auth', 'status'],
    [['completion', 'bsh', '--bogus'], 'bsh', 'petstore completion', 'bash'],
    [['help', 'lisst', '--bogus'], 'lisst', 'petstore', 'list'],
  ])('%j: an unknown command whatever flags follow, exit 2, nothing sent', async (argv, word, parent, near) => {
    expect(await run(argv)).toEqual({
      code: 2,
      stdout: '',
      stderr: wrapped(
        `error: unknown command "${word}" for "${parent}"; did you mean "${near}"?\nFor its commands, run:\n  ${parent} --help\n`,
      ),
      unmatched: [],
    });
  });

  test('a typo followed by flags with --json is one JSON error', async () => {
    const r = await run(['config', 'st', 'base-url', 'x', '--json']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(JSON.parse(r.stderr)).toEqual({
      code: 'unknown_command',
      message: 'unknown command "st" for "petstore config"; did you mean "set"?',
      status: null,
      hint: 'For its commands, run:\n  petstore config --help',
    });
  });

  test('a flag a known command does not take is reported as an unknown flag', async () => {
    expect(await run(['list', '--bogus'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: unknown flag "--bogus" for "petstore list"\nFor its flags, run:\n  petstore list --help\n',
      unmatched: [],
    });
  });

  test('an unknown command with --json is one JSON error on stderr; help, which takes no --json, refuses it in JSON too', async () => {
    const r = await run(['lsit', '--json']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(JSON.parse(r.stderr)).toEqual({
      code: 'unknown_command',
      message: 'unknown command "lsit" for "petstore"; did you mean "list"?',
      status: null,
      hint: 'For its commands, run:\n  petstore --help',
    });
    const help = await run(['help', 'lsit', '--json']);
    expect(help).toMatchObject({ code: 2, stdout: '' });
    expect(JSON.parse(help.stderr)).toEqual({
      code: 'unknown_flag',
      message: 'unknown flag "--json" for "petstore help"',
      status: null,
      hint: 'For its flags, run:\n  petstore help --help',
    });
  });

  test('the hidden __complete is not suggested for a typo', async () => {
    expect((await run(['help', '__complet'])).stderr).toBe(
      'error: unknown command "__complet" for "petstore"\nFor its commands, run:\n  petstore --help\n',
    );
  });
});

const paths = await commandPaths();

describe('what each help shows', () => {
  test('the tree has every command of the registry, in its order, then help; every group ends with its help', async () => {
    const registered = COMMANDS.map((c) => c.name).filter((name) => !name.startsWith('__'));
    expect(paths.filter((p) => p.length === 1).map((p) => p[0])).toEqual([...registered, 'help']);
    const tree = await commandTree();
    const groups = paths.filter((p) => findCommand(tree, p).commands.length > 0);
    for (const group of groups) {
      expect(paths.filter((p) => p.length === group.length + 1 && group.every((w, i) => p[i] === w)).at(-1)).toEqual([...group, 'help']);
    }
    // Each registry entry's declaration is what the tree holds under its name.
    for (const entry of COMMANDS.filter((c) => !c.name.startsWith('__'))) {
      const made = (await entry.load())(new Factory(new IOStreams({} as never, {}), {}, SIGNALS, '0'));
      const subcommands = made.commands.map((c) => c.name());
      expect(findCommand(tree, [entry.name]).commands.map((c) => c.name())).toEqual(subcommands.length ? [...subcommands, 'help'] : []);
    }
  });

  test.each(paths.filter((p) => p.length > 0).map((p) => [p.join(' ')]))(
    '"petstore %s --help": the global flags that apply to it, examples, unquoted defaults',
    async (name) => {
      const path = name.split(' ');
      const r = await run([...path, '--help']);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout.startsWith(`Usage: petstore ${name} [options]`)).toBe(true);
      // The global flags that apply to it, as its declaration says (kit.ts, withGlobalFlags), and no other.
      const applies = globalFlagsOf(findCommand(await commandTree(), path));
      const globals = section(r.stdout, 'Global Options:')
        .filter((line) => line.startsWith('  -'))
        .map((line) => line.trim().split(/ {2,}/)[0]);
      expect(globals).toEqual(applies ? GLOBAL_FLAGS.filter((flag) => applies.includes(flag.split(' ')[0] as GlobalFlag)) : GLOBAL_FLAGS);
      if (applies?.length === 0) expect(r.stdout).not.toContain('Global Options:');
      // An example wider than the help (80 columns here) continues on lines four columns further in.
      const examples: string[] = [];
      for (const line of section(r.stdout, 'Examples:')) {
        if (line.startsWith('      ')) examples.push(`${examples.pop()} ${line.trim()}`);
        else examples.push(line);
      }
      for (const line of section(r.stdout, 'Examples:')) expect(line.length).toBeLessThanOrEqual(80);
      // docs/design.md, "A command is a folder": a command that runs shows one to three examples; a group may.
      const isGroup = findCommand(await commandTree(), path).commands.length > 0;
      if (!isGroup) expect(examples.length).toBeGreaterThanOrEqual(1);
      expect(examples.length).toBeLessThanOrEqual(3);
      for (const line of examples) expect(line).toMatch(/^ {2}(\S+ )*\S*petstore\b/);
      expect(r.stdout).not.toMatch(/default: "/);
      // `help <command>` shows the same.
      expect((await run(['help', ...path])).stdout).toBe(r.stdout);
    },
  );

  test('list: its own flags, then --format and --jq, then --help; the --limit default unquoted, never split from its value', async () => {
    const { stdout } = await run(['list', '--help']);
    const flags = section(stdout, 'Options:')
      .filter((line) => line.startsWith('  -'))
      .map((line) => line.trim().split(/\s+/)[0]);
    expect(flags).toEqual(['--status', '--limit', '--all', '--format', '--jq', '-h,']);
    expect(stdout).toContain('\n  --limit <n>        animals per page, 1 to 100 (default: 20)\n');
    expect(stdout).toContain(
      '\n  --timeout <ms>     deadline in milliseconds: of the command, of each page of a\n                     whole listing, of each request of add --file\n                     (default: 30000)\n',
    );
  });

  test("--format's help says each command's default as output/format.ts picks it (a record: key/value lines, piped too), in one bracket with the formats", async () => {
    const status = await run(['auth', 'status', '--help']);
    expect(section(status.stdout, 'Options:').slice(0, 2)).toEqual([
      '  --format <format>  output format (one of: table, kv, tsv, json, ndjson;',
      '                     default: key/value lines, json with --json)',
    ]);
    const list = await run(['config', 'list', '--help']);
    expect(list.stdout.replace(/\s+/g, ' ')).toContain(
      '--format <format> output format (one of: table, kv, tsv, json, ndjson; default: table on a terminal, tab-separated when piped, json with --json)',
    );
    const add = await run(['add', '--help']);
    expect(add.stdout.replace(/\s+/g, ' ')).toContain(
      '--format <format> output format; with --file: tsv or ndjson (one of: table, kv, tsv, json, ndjson; default: key/value lines on a terminal, tab-separated when piped, json with --json)',
    );
    // No bracket follows another, in any command's help.
    for (const path of [[], ['list'], ['get'], ['add'], ['api'], ['auth', 'status'], ['config', 'list'], ['completion', 'bash']]) {
      expect((await run([...path, '--help'])).stdout.replace(/\s+/g, ' '), path.join(' ')).not.toMatch(/\) \(/);
    }
  });

  test('get lists --json among its global flags, as its example uses it', async () => {
    const { stdout } = await run(['get', '--help']);
    expect(section(stdout, 'Global Options:')).toContain('  --json             print JSON: exactly what the service sent; messages on');
    expect(section(stdout, 'Examples:')).toEqual([
      '  petstore get 42',
      '  petstore get 42 43 44 --json',
      "  petstore list --status sold --jq '.[].id' | petstore get - --format ndjson",
    ]);
  });

  test("the root help names the man page among its commands (help man); a group's help command does not", async () => {
    expect(section((await run(['--help'])).stdout, 'Commands:')).toContain(
      '  help [command...]         Show help for a command; help man: the man page',
    );
    expect(section((await run(['auth', '--help'])).stdout, 'Commands:')).toContain('  help [command...]  Show help for a command');
  });
});

describe('version', () => {
  test('petstore version prints what --version prints', async () => {
    const [a, b] = await Promise.all([run(['version']), run(['--version'])]);
    expect(a).toEqual({ code: 0, stdout: '1.2.3\n', stderr: '', unmatched: [] });
    expect(b).toEqual(a);
  });

  test('as a process too, where --version is answered before the bundle loads', async () => {
    const env = { PATH: process.env.PATH, XDG_CONFIG_HOME: tempConfigHome() };
    const [a, b] = await Promise.all([spawnPetstore(['version'], env), spawnPetstore(['--version'], env)]);
    expect(a).toEqual({ code: 0, stdout: b.stdout, stderr: '' });
    expect(b.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
  });
});

describe('only the command asked for is built', () => {
  test.each([
    [['get', '1'], 'get'],
    [['list', '--env', 'staging'], 'list'],
    [['help', 'list'], 'help'],
    // A line that starts with a flag names none: only the parse tells a flag's value from the command.
    [['--env', 'staging', 'list'], undefined],
    [['--env', 'list', 'version'], undefined],
    [['--json'], undefined],
    [[], undefined],
  ])("the launcher's leadingCommand of %j is %s", (argv, word) => {
    expect(leadingCommand(argv)).toBe(word);
  });

  test("a global flag's value that is also a command name is not taken for the command", async () => {
    const configHome = tempConfigHome();
    const r = await run(['--env', 'list', 'config', 'path'], { configHome });
    expect(r).toMatchObject({ code: 0, stderr: '', unmatched: [] });
    expect(r.stdout.startsWith(configHome)).toBe(true);
  });

  test('with the leading command given, its help and its errors are as with every command built', async () => {
    const [one, all] = await Promise.all([run(['list', '--help'], { command: 'list' }), run(['list', '--help'])]);
    expect(one).toEqual(all);
    expect(one).toMatchObject({ code: 0, stderr: '' });
    expect(await run(['list', '--bogus'], { command: 'list' })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: unknown flag "--bogus" for "petstore list"\nFor its flags, run:\n  petstore list --help\n',
      unmatched: [],
    });
  });
});

describe('a global flag that does not apply to the command is refused as an unknown flag', () => {
  test.each([
    [['version', '--timeout', '5'], '--timeout', 'petstore version'],
    [['--retries', '1', 'version'], '--retries', 'petstore version'],
    [['help', '--base-url', 'https://h/v1'], '--base-url', 'petstore help'],
    [['completion', 'bash', '--verbose'], '--verbose', 'petstore completion bash'],
    [['completion', '--no-color'], '--no-color', 'petstore completion'],
    [['config', 'path', '--timeout', '5'], '--timeout', 'petstore config path'],
    [['config', '--retries=2', 'list'], '--retries', 'petstore config list'],
  ])('%j: exit 2 naming %s, nothing on stdout', async (argv, flag, path) => {
    expect(await run(argv)).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: unknown flag "${flag}" for "${path}"\nFor its flags, run:\n  ${path} --help\n`,
      unmatched: [],
    });
  });

  test('with --json given to a command it applies to, the refusal is one JSON line', async () => {
    const r = await run(['config', 'path', '--json', '--verbose']);
    expect(r).toMatchObject({ code: 2, stdout: '', unmatched: [] });
    expect(JSON.parse(r.stderr)).toEqual({
      code: 'unknown_flag',
      message: 'unknown flag "--verbose" for "petstore config path"',
      status: null,
      hint: 'For its flags, run:\n  petstore config path --help',
    });
  });

  test('a global flag that applies is taken: config path --env staging', async () => {
    const configHome = tempConfigHome();
    const r = await run(['config', 'path', '--env', 'staging', '--no-color'], { configHome });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout.startsWith(configHome)).toBe(true);
  });

  test('a flag before an unknown command is the first thing refused, as commander refuses it', async () => {
    expect(await run(['--bogus', 'lisst'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: unknown flag "--bogus" for "petstore"\nFor its flags, run:\n  petstore --help\n',
      unmatched: [],
    });
    expect(await run(['--jsn'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: unknown flag "--jsn" for "petstore"; did you mean "--json"?\nFor its flags, run:\n  petstore --help\n',
      unmatched: [],
    });
  });
});

describe('help wraps at word boundaries at the terminal width, 80 when not a terminal', () => {
  const words = (text: string) => text.split(/\s+/).filter(Boolean);

  // A wrapped shell comment repeats its "#", a wrapped example command ends its lines in the shell's "\\".
  const uncommented = (text: string) => words(text).filter((word) => word !== '#' && word !== '\\');
  const oneWord = (line: string) =>
    line
      .trim()
      .replace(/ \\$/, '')
      .replace(/'[^']*'|"[^"]*"/g, 'quoted')
      // A flag and its value, a redirection and its file, are kept together, as one word.
      .replace(/(^| )(-\S+|>>?|<) (?=[^\s\-|<>&;])/g, '$1$2_');

  test.each(paths.map((p) => [p.join(' ') || '(root)', p]))('"petstore %s --help" at 60, 40 and 80 columns', async (_, path) => {
    const wide = await run([...path, '--help'], { stdoutIsTTY: true, columns: 1000 });
    for (const columns of [60, 40]) {
      const r = await run([...path, '--help'], { stdoutIsTTY: true, columns });
      // The same words in the same order: only line breaks moved, no word split (a wrapped shell comment repeats its "#").
      expect(uncommented(r.stdout)).toEqual(uncommented(wide.stdout));
      // A line is wider only when it is one word wider than the terminal (a quoted shell word, and the " \\" after it, are one).
      for (const line of r.stdout.split('\n')) if (line.length > columns) expect(oneWord(line)).not.toContain(' ');
    }
    const piped = await run([...path, '--help']);
    expect(uncommented(piped.stdout)).toEqual(uncommented(wide.stdout));
    for (const line of piped.stdout.split('\n')) if (line.length > 80) expect(oneWord(line)).not.toContain(' ');
  });

  test('an example that wraps continues with " \\\\", so that pasting its lines runs the whole command (add --help at 60 columns)', async () => {
    const r = await run(['add', '--help'], { stdoutIsTTY: true, columns: 60 });
    expect(r.stdout).toContain('\n  petstore add --file pets.ndjson --failed failed.ndjson \\\n      --json > created.ndjson\n');
    // At 80 columns it fits on one line, as written.
    expect((await run(['add', '--help'])).stdout).toContain(
      '\n  petstore add --file pets.ndjson --failed failed.ndjson --json > created.ndjson\n',
    );
  });

  test('the root help lays out every environment variable alike: at 60 columns each description below its name', async () => {
    const r = await run(['--help'], { stdoutIsTTY: true, columns: 60 });
    const table = r.stdout.split('Environment variables:\n')[1]!.trimEnd().split('\n');
    expect(table.filter((_, i) => i % 2 === 0).every((line) => /^ {2}[A-Z_]/.test(line) && !/ {2,}\S/.test(line.trim()))).toBe(true);
    expect(table.filter((_, i) => i % 2 === 1).every((line) => /^ {6}\S/.test(line))).toBe(true);
    expect(table).toContain('  PETSTORE_DEBUG=1');
  });

  test("an example's shell comment wraps as comment lines, so that pasting the example runs nothing but the command", async () => {
    const r = await run(['add', '--help'], { stdoutIsTTY: true, columns: 60 });
    expect(r.stdout).toContain('  petstore add    # at a terminal: asks for the name,\n                  # category id and status\n');
    const narrow = await run(['add', '--help'], { stdoutIsTTY: true, columns: 40 });
    expect(narrow.stdout).toContain('  petstore add\n      # at a terminal: asks for the\n      # name, category id and status\n');
  });

  test('a command that wraps continues with " \\" between words, never inside a quoted word', async () => {
    const narrow = await run(['completion', 'zsh', '--help'], { stdoutIsTTY: true, columns: 40 });
    expect(section(narrow.stdout, 'Examples:')).toEqual([
      '  petstore completion zsh',
      '  echo \\',
      `      'eval "$(petstore completion zsh)"' \\`,
      '      >> ~/.zshrc',
    ]);
    expect(narrow.stdout).toContain('compinit runs:\n  mkdir -p ~/.zfunc\n  petstore completion zsh \\\n      > ~/.zfunc/_petstore\n');
  });
});
