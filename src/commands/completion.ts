/** `petstore completion <shell>` prints a script (completion/scripts.ts) whose Tab runs the hidden `petstore __complete <words…>`. */
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Factory } from '../factory.js';
import { examples, withGlobalFlags } from './kit.js';

interface Shell {
  name: 'bash' | 'zsh' | 'fish' | 'powershell';
  title: string;
  /** The shell's startup file, and the line there that loads the script in every new shell, with or without a completion framework. */
  startup: { file: string; line: string; where?: string };
  /** Where a completion framework or the shell itself finds the script as a file, for those who use that: the text, then commands. */
  folder: { text: string; commands: string[] };
}

const SHELLS: readonly Shell[] = [
  {
    name: 'bash',
    title: 'bash',
    startup: { file: '~/.bashrc', line: 'eval "$(petstore completion bash)"' },
    folder: {
      text: "Or, where the bash-completion package is loaded (Debian's and Ubuntu's ~/.bashrc load it for a new user), save it in its folder, read on first use:",
      // Through a variable: the folder's path alone is nearly as wide as a terminal of 60 columns (the man page's examples).
      commands: ['dir=~/.local/share/bash-completion/completions', 'mkdir -p "$dir" && petstore completion bash > "$dir/petstore"'],
    },
  },
  {
    name: 'zsh',
    title: 'zsh',
    startup: {
      file: '~/.zshrc',
      line: 'eval "$(petstore completion zsh)"',
      where: 'at the end, after a framework such as oh-my-zsh; without one, the script runs compinit itself',
    },
    folder: {
      // A folder of one's own: those already on $fpath are the system's, which a user cannot write to.
      text: 'Or save it as _petstore in a folder of your own, put on $fpath by the line fpath+=~/.zfunc in ~/.zshrc, before compinit runs:',
      commands: ['mkdir -p ~/.zfunc', 'petstore completion zsh > ~/.zfunc/_petstore'],
    },
  },
  {
    name: 'fish',
    title: 'fish',
    startup: { file: '~/.config/fish/config.fish', line: 'petstore completion fish | source' },
    folder: {
      text: 'Or save it in the folder fish reads completions from, in every new fish:',
      commands: ['petstore completion fish > ~/.config/fish/completions/petstore.fish'],
    },
  },
  {
    name: 'powershell',
    title: 'PowerShell',
    // A pipeline continues on the next line after its "|": each line is short enough for any terminal.
    startup: { file: '$PROFILE', line: 'petstore completion powershell |\n    Out-String | Invoke-Expression' },
    folder: { text: 'Or copy the script itself into $PROFILE:', commands: ['petstore completion powershell >> $PROFILE'] },
  },
];

/** The shell command that adds `shell`'s startup line to its startup file (PowerShell's has two: its folder form is the example). */
const addToStartup = (shell: Shell) =>
  shell.name === 'powershell' ? shell.folder.commands[0]! : `echo '${shell.startup.line}' >> ${shell.startup.file}`;

/** Declares `completion` and one subcommand per shell. */
export function newCompletionCommand(f: Factory) {
  const completion = new Command('completion')
    .description(`Print a shell completion script: ${SHELLS.map((s) => s.name).join(', ')}`)
    .addHelpText(
      'after',
      "\nA line in the shell's startup file loads it in every new shell, with or without a completion framework; the help of each shell's command says which, and where the script can go as a file.\n" +
        examples(...SHELLS.slice(0, 3).map(addToStartup)),
    );
  for (const shell of SHELLS) {
    const command = new Command(shell.name)
      .description(`Print the completion script for ${shell.title}`)
      .addHelpText(
        'after',
        `\nLoad it in every new ${shell.title}, with or without a completion framework: add ${shell.name === 'powershell' ? 'these lines' : 'this line'} to ${shell.startup.file}${shell.startup.where && shell.name !== 'powershell' ? ` (${shell.startup.where})` : ''}:\n` +
          `  ${shell.startup.line}\n\n${shell.folder.text}\n${shell.folder.commands.map((line) => `  ${line}`).join('\n')}\n` +
          examples(`petstore completion ${shell.name}`, addToStartup(shell)),
      )
      .action(async () => {
        f.io.writeOut((await import('../completion/scripts.js'))[shell.name]);
      });
    completion.addCommand(command);
  }
  return withGlobalFlags(completion, []);
}

/** Declares the hidden `__complete [words...]`; main.ts hands it the words unparsed. */
export function newCompleteCommand(f: Factory) {
  const command = new Command('__complete')
    .description('Print what completes the last word of a command line (used by the completion scripts)')
    .argument('[words...]', 'the words after "petstore" up to the cursor')
    .action(async (words) => {
      const { complete } = await import('../completion/complete.js');
      f.io.writeOut(await complete(rootOf(command), words, () => environmentNames(f)));
    });
  return command;
}

const rootOf = (command: CommandUnknownOpts): CommandUnknownOpts => (command.parent ? rootOf(command.parent) : command);

/** Built-in then configured environment names (names only); an unreadable config leaves the built-in ones, for the command to report later. */
async function environmentNames(f: Factory): Promise<string[]> {
  const { BUILT_IN_ENVS, ENV_NAME } = await import('../settings.js');
  let stored: string[] = [];
  try {
    stored = Object.keys((await f.store()).environments());
  } catch {}
  return [...BUILT_IN_ENVS, ...stored.filter((name) => ENV_NAME.test(name) && !BUILT_IN_ENVS.includes(name))];
}
