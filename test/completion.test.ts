// Shell completion, end to end: the scripts that the built petstore prints run
// in the real bash, fish and zsh, against a `petstore` on PATH (the built
// binary) and a config folder with an environment of its own, so that --env
// completes from the config at Tab time. bash's completion function is called
// as readline calls it (COMP_WORDS, COMP_CWORD); fish completes a command line
// with `complete -C`; zsh runs interactively in a pseudo-terminal (zsh/zpty)
// with compinit and a Tab typed. One fish, and one zsh session, completes many
// lines. A shell that is missing fails the test in CI (.ci/run installs zsh and
// fish) and skips it elsewhere.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { interactiveShell } from './support/interactive-shell.js';
import { BIN, petstoreInvocation, run, runsHere, spawnAsync, tempConfigHome, type ChildResult } from './helpers.js';

const ZSH_DRIVER = fileURLToPath(new URL('./fixtures/zsh-complete.zsh', import.meta.url));
const TRACER = fileURLToPath(new URL('./fixtures/trace-requires.cjs', import.meta.url));
const KEY = 'key-that-must-never-show-9f8e7d';

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
const INSTALLED = { bash: has('bash'), zsh: has('zsh'), fish: has('fish') };
/** Tests of one shell: skipped where it is not installed, except in CI, where they fail. */
const RUNS = {
  bash: runsHere(INSTALLED.bash || Boolean(process.env.CI), 'bash completion', 'install bash'),
  zsh: runsHere(
    INSTALLED.zsh || Boolean(process.env.CI),
    'zsh completion',
    'install zsh (apt-get install zsh), then npx vitest run test/completion.test.ts',
  ),
  fish: runsHere(
    INSTALLED.fish || Boolean(process.env.CI),
    'fish completion',
    'install fish (apt-get install fish), then npx vitest run test/completion.test.ts',
  ),
};
const shellTests = (shell: keyof typeof INSTALLED) => test.runIf(RUNS[shell]);
const requireShell = (shell: keyof typeof INSTALLED) =>
  expect(INSTALLED[shell], `${shell} is not installed (CI installs it in .ci/run)`).toBe(true);
/** A test of one shell; `timeoutMs` for one that completes many lines in one session (each line runs petstore). */
function shellTest(shell: keyof typeof INSTALLED, name: string, body: () => Promise<void>, timeoutMs?: number) {
  shellTests(shell)(
    `${shell}: ${name}`,
    async () => {
      requireShell(shell);
      await body();
    },
    timeoutMs,
  );
}
/** The time-out of a test that completes many lines in one shell session, each running petstore: beyond the suite's (vitest.config.ts). */
const SESSION_TIMEOUT_MS = 60_000;

let home: string;
let env: NodeJS.ProcessEnv;
const scripts: Record<string, string> = {};

beforeAll(async () => {
  home = tempConfigHome();
  // `petstore` on PATH, as the scripts call it back for environment names.
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bin-'));
  const { command, prefix } = petstoreInvocation();
  const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
  fs.writeFileSync(path.join(bin, 'petstore'), `#!/bin/sh\nexec ${[command, ...prefix].map(quote).join(' ')} "$@"\n`, { mode: 0o755 });
  env = {
    PATH: `${bin}${path.delimiter}${process.env.PATH}`,
    HOME: home,
    XDG_CONFIG_HOME: home,
    XDG_CACHE_HOME: home,
    XDG_DATA_HOME: home,
    TERM: 'xterm',
  };
  // A configured environment with a stored key: its name completes, its key never shows. (Stored in-process: the
  // config file is the same whoever writes it.)
  expect((await run(['config', 'set', 'base-url', 'http://127.0.0.1:9/v1', '--env', 'local'], { env })).code).toBe(0);
  expect((await run(['auth', 'login', '--env', 'local', '--with-token', '--skip-verify'], { env, stdin: `${KEY}\n` })).code).toBe(0);
  // The scripts, printed in-process (what petstore prints is the same); at Tab time they call the built petstore back.
  for (const shell of ['bash', 'zsh', 'fish', 'powershell']) {
    const r = await run(['completion', shell], { env });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    scripts[shell] = path.join(home, `petstore.${shell}`);
    fs.writeFileSync(scripts[shell], r.stdout);
  }
});

/** Runs a shell with `env` and empty standard input, and collects its output. */
const shell = (name: string, args: string[]): Promise<ChildResult> => spawnAsync(name, args, env);

/** What the words (the last one being completed) complete to in bash: the words, in the order given. */
async function bash(words: string[]): Promise<string[]> {
  const program =
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash expansions, not a template
    'source "$0" || exit 9; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; _petstore; printf "%s\\n" "${COMPREPLY[@]}"';
  const r = await shell('bash', ['--norc', '--noprofile', '-c', program, scripts.bash!, ...words]);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  return r.stdout.split('\n').filter(Boolean);
}

// Each shell completes a few command lines, one of each kind its script handles (a command with its description, a
// flag value, "--flag=value", nothing, an environment from the config, file names); what __complete answers for
// every command line is tested in-process (test/complete.test.ts).
describe('bash', () => {
  shellTest('bash', 'the script registers _petstore for petstore', async () => {
    const r = await shell('bash', ['--norc', '--noprofile', '-c', 'source "$0" && complete -p petstore', scripts.bash!]);
    expect(r).toEqual({ code: 0, stdout: 'complete -F _petstore petstore\n', stderr: '' });
  });

  shellTests('bash').each([
    [['petstore', 'li'], ['list']],
    [
      ['petstore', 'list', '--status', ''],
      ['available', 'pending', 'sold'],
    ],
    // bash splits "--status=p" into three words at "=" (COMP_WORDBREAKS)
    [
      ['petstore', 'list', '--status', '=', ''],
      ['available', 'pending', 'sold'],
    ],
    [['petstore', 'list', '--status', '=', 'p'], ['pending']],
    // and keeps it whole when "=" is not a word break
    [['petstore', 'list', '--status=p'], ['--status=pending']],
    [
      ['petstore', 'list', '--env', ''],
      ['production', 'staging', 'local'],
    ],
    [['petstore', 'get', ''], []],
  ])('%j completes to %j', async (words, expected) => {
    requireShell('bash');
    expect(await bash(words)).toEqual(expected);
  });

  shellTest('bash', 'a file flag completes file names', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-files-'));
    fs.writeFileSync(path.join(folder, 'pets.ndjson'), '');
    fs.writeFileSync(path.join(folder, 'other.txt'), '');
    expect(await bash(['petstore', 'add', '--file', path.join(folder, 'pe')])).toEqual([path.join(folder, 'pets.ndjson')]);
  });
});

/**
 * What each line completes to in one fish: `word<TAB>description` lines, as
 * fish lists them (sorted), a list per line.
 */
async function fish(...lines: string[]): Promise<string[][]> {
  const END = '-- end of completions --';
  const program = `source $argv[1]; or exit 9; for line in $argv[2..-1]; complete -C $line; echo '${END}'; end`;
  const r = await shell('fish', ['--no-config', '-c', program, scripts.fish!, ...lines]);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  const answers = r.stdout.split(`${END}\n`);
  expect(answers.pop()).toBe('');
  return answers.map((answer) => answer.split('\n').filter(Boolean));
}

describe('fish', () => {
  shellTest(
    'fish',
    'commands and flags with their descriptions, flag values, an environment from the config',
    async () => {
      expect(
        await fish(
          'petstore li',
          'petstore list --st',
          'petstore list --status ',
          'petstore list --status=p',
          'petstore list --env ',
          'petstore get ',
        ),
      ).toEqual([
        ['list\tList animals (listPets)'],
        ['--status\tonly animals with this status'],
        ['available', 'pending', 'sold'],
        ['--status=pending'],
        ['local', 'production', 'staging'],
        [],
      ]);
    },
    SESSION_TIMEOUT_MS,
  );

  shellTest('fish', 'a file flag completes file names', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-files-'));
    fs.writeFileSync(path.join(folder, 'pets.ndjson'), '');
    expect(await fish(`petstore add --file ${path.join(folder, 'pe')}`)).toEqual([[path.join(folder, 'pets.ndjson')]]);
  });
});

/**
 * What each line completes to when Tab is pressed in one interactive zsh: the
 * matches compsys added, a list per line. The script is sourced, or autoloaded
 * from `fpath`.
 */
async function zsh(lines: string[], fpath?: string): Promise<string[][]> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-zsh-'));
  const r = await shell('zsh', ['-f', ZSH_DRIVER, fpath ?? scripts.zsh!, out, ...lines]);
  expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  return lines.map((_, i) =>
    fs
      .readFileSync(path.join(out, `${i + 1}`), 'utf8')
      .split('\n')
      .filter(Boolean),
  );
}

describe('zsh', () => {
  shellTest(
    'zsh',
    'Tab completes commands, flag values, an environment from the config, file names (one session)',
    async () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-files-'));
      fs.writeFileSync(path.join(folder, 'pets.ndjson'), '');
      expect(
        await zsh([
          'petstore li',
          'petstore list --status ',
          'petstore list --status=p',
          'petstore list --env ',
          `petstore add --file ${path.join(folder, 'pe')}`,
        ]),
      ).toEqual([['list'], ['available', 'pending', 'sold'], ['pending'], ['production', 'staging', 'local'], ['pets.ndjson']]);
    },
    SESSION_TIMEOUT_MS,
  );

  shellTest('zsh', 'the script works as a file on $fpath (autoloaded by compinit)', async () => {
    const fpath = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-fpath-'));
    fs.copyFileSync(scripts.zsh!, path.join(fpath, '_petstore'));
    expect(await zsh(['petstore auth lo'], fpath)).toEqual([['login', 'logout']]);
  });
});

/** A home folder whose startup file `file` (relative to it) holds `lines`, as `completion <shell> --help` says to add them. */
function homeWith(file: string, lines: string[]): string {
  const user = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-home-'));
  fs.mkdirSync(path.dirname(path.join(user, file)), { recursive: true });
  fs.writeFileSync(path.join(user, file), `${lines.join('\n')}\n`);
  return user;
}

/** The line `completion <shell> --help` says to add to the startup file, and the file, read from that help. */
async function startupLine(shell: string): Promise<{ file: string; line: string }> {
  const help = (await run(['completion', shell, '--help'])).stdout;
  const [, file, line] =
    /^Load it in every new \S+, with or without a completion framework: add this line\s+to (\S+?)[\s(:][^\n]*(?:\n[^\n ][^\n]*)*\n {2}(.+)\n/m.exec(
      help,
    ) ?? [];
  expect(file, help).toBeDefined();
  return { file: file!, line: line! };
}

describe('the line completion --help says to add to the startup file, in a new shell of a user without a completion framework', () => {
  shellTest(
    'bash',
    'eval "$(petstore completion bash)" in ~/.bashrc: Tab completes, with the bash-completion package not loaded',
    async () => {
      const { file, line } = await startupLine('bash');
      expect({ file, line }).toEqual({ file: '~/.bashrc', line: 'eval "$(petstore completion bash)"' });
      const user = homeWith('.bashrc', [line]);
      const bash = interactiveShell('bash', ['-i'], { ...env, HOME: user, PS1: '$ ' }, user);
      // Readline turns bracketed paste on when it waits for input.
      await bash.seen(/\x1b\[\?2004h/);
      // No bash-completion: none of its functions, and petstore's the only completion defined.
      bash.type('declare -F _init_completion _comp_initialize; complete -p | wc -l\r');
      await bash.seen(/\r1\r\n/);
      bash.type('petstore l\t');
      await bash.seen(/petstore list $/);
      bash.type('\x15exit\r');
      expect(await bash.exited).toBe(0);
    },
  );

  shellTest('zsh', 'eval "$(petstore completion zsh)" at the end of ~/.zshrc: Tab completes, no compinit run before it', async () => {
    const { file, line } = await startupLine('zsh');
    expect({ file, line }).toEqual({ file: '~/.zshrc', line: 'eval "$(petstore completion zsh)"' });
    // Without a framework, and without the compinit that Ubuntu's /etc/zsh/zshrc runs.
    const user = homeWith('.zshrc', [line]);
    fs.writeFileSync(path.join(user, '.zshenv'), 'skip_global_compinit=1\n');
    const zsh = interactiveShell('zsh', ['-i'], { ...env, HOME: user, ZDOTDIR: user, PS1: '$ ', PROMPT: '$ ' }, user);
    zsh.type('print -r -- compdef-is-$+functions[compdef]\r');
    await zsh.seen(/compdef-is-1/);
    zsh.type('petstore auth logo\t');
    await zsh.seen(/petstore auth logout/);
    zsh.type('\x15exit\r');
    expect(await zsh.exited).toBe(0);
  });

  shellTest('fish', 'petstore completion fish | source in config.fish: a new fish completes', async () => {
    const { file, line } = await startupLine('fish');
    expect({ file, line }).toEqual({ file: '~/.config/fish/config.fish', line: 'petstore completion fish | source' });
    const user = homeWith('.config/fish/config.fish', [line]);
    const r = await spawnAsync('fish', ['-c', "complete -C 'petstore li'"], {
      ...env,
      HOME: user,
      XDG_CONFIG_HOME: path.join(user, '.config'),
    });
    expect(r).toEqual({ code: 0, stdout: 'list\tList animals (listPets)\n', stderr: '' });
  });
});

describe('powershell', () => {
  // pwsh is not packaged for Debian: the script's text is checked, not run.
  test('registers a native completer that asks petstore __complete', () => {
    const script = fs.readFileSync(scripts.powershell!, 'utf8');
    expect(script).toContain("Register-ArgumentCompleter -Native -CommandName 'petstore' -ScriptBlock {");
    expect(script).toContain('$out = @(& $words[0] __complete @($words | Select-Object -Skip 1) 2>$null)');
    // Braces and parentheses outside strings balance.
    const code = script.replace(/^\s*#.*$/gm, '').replace(/'(?:[^']|'')*'/g, "''");
    for (const [open, close] of [
      ['{', '}'],
      ['(', ')'],
      ['[', ']'],
    ] as const)
      expect(code.split(open).length).toBe(code.split(close).length);
  });
});

describe('__complete', () => {
  test('--env: the built-in names, then the configured ones, with no network stack loaded; never a key', async () => {
    const trace = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-trace-')), 'resolved.txt');
    const r = await spawnAsync(process.execPath, ['--require', TRACER, BIN, '__complete', 'list', '--env', ''], {
      ...env,
      TRACE_REQUIRES_FILE: trace,
    });
    expect(r).toMatchObject({ code: 0, stdout: 'production\nstaging\nlocal\n:4\n', stderr: '' });
    expect(fs.readFileSync(path.join(home, 'petstore', 'config.json'), 'utf8')).toContain(KEY);
    const resolved = fs.readFileSync(trace, 'utf8').split('\n');
    expect(resolved).not.toContain('node:crypto'); // read without conf, which loads only to write
    expect(resolved.filter((s) => s === 'node:net' || s === 'node:http' || s === 'node:https' || s === 'node:tls')).toEqual([]);
  });
});
