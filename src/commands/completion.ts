/** `petstore completion <shell>` prints a script (completion/scripts.ts) whose Tab runs the hidden `petstore __complete <words…>`. */
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Factory } from '../factory.js';
import { examples, withGlobalFlags } from './kit.js';

interface Shell {
  name: 'bash' | 'zsh' | 'fish' | 'powershell';
  title: string;
  install: string[];
}

const SHELLS: readonly Shell[] = [
  {
    name: 'bash',
    title: 'bash',
    install: [
      'petstore completion bash > ~/.local/share/bash-completion/completions/petstore',
      "echo 'source <(petstore completion bash)' >> ~/.bashrc   # without bash-completion",
    ],
  },
  {
    name: 'zsh',
    title: 'zsh',
    install: [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh expansion the user types, not a template
      'petstore completion zsh > "${fpath[1]}/_petstore"   # a folder on $fpath, before compinit runs',
      "echo 'source <(petstore completion zsh)' >> ~/.zshrc   # after compinit",
    ],
  },
  { name: 'fish', title: 'fish', install: ['petstore completion fish > ~/.config/fish/completions/petstore.fish'] },
  {
    name: 'powershell',
    title: 'PowerShell',
    install: [
      'petstore completion powershell >> $PROFILE',
      'petstore completion powershell | Out-String | Invoke-Expression   # this session only',
    ],
  },
];

/** Declares `completion` and one subcommand per shell. */
export function newCompletionCommand(f: Factory) {
  const completion = new Command('completion')
    .description(`Print a shell completion script: ${SHELLS.map((s) => s.name).join(', ')}`)
    .addHelpText('after', examples(...SHELLS.slice(0, 3).map((shell) => shell.install[0]!)));
  for (const shell of SHELLS) {
    const command = new Command(shell.name)
      .description(`Print the completion script for ${shell.title}`)
      .addHelpText(
        'after',
        `\nTo install it, run one of:\n${shell.install.map((line) => `  ${line}`).join('\n')}\n` +
          examples(`petstore completion ${shell.name}`, shell.install[0]!),
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
