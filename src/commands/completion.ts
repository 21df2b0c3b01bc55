/**
 * `petstore completion bash|zsh|fish|powershell`: prints a shell completion
 * script generated from the command tree as it is at run time, so every
 * command, flag and allowed value appears without touching the generator.
 * `petstore __complete <source>` (hidden) prints the values a script asks for
 * when the user presses Tab, such as the configured environment names; it
 * reads the config only, and never prints a key or sends a request.
 */
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import type { CommandSpec } from '../completion/tree.js';
import { examples, type ValueSource } from './kit.js';

interface Shell {
  name: string;
  title: string;
  /** Help text: how to install the script. */
  install: string[];
  script: () => Promise<(specs: readonly CommandSpec[]) => string>;
}

const SHELLS: readonly Shell[] = [
  {
    name: 'bash',
    title: 'bash',
    install: [
      'petstore completion bash > ~/.local/share/bash-completion/completions/petstore',
      "echo 'source <(petstore completion bash)' >> ~/.bashrc   # without bash-completion",
    ],
    script: async () => (await import('../completion/bash.js')).bashScript,
  },
  {
    name: 'zsh',
    title: 'zsh',
    install: [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh expansion the user types, not a template
      'petstore completion zsh > "${fpath[1]}/_petstore"   # a folder on $fpath, before compinit runs',
      "echo 'source <(petstore completion zsh)' >> ~/.zshrc   # after compinit",
    ],
    script: async () => (await import('../completion/zsh.js')).zshScript,
  },
  {
    name: 'fish',
    title: 'fish',
    install: ['petstore completion fish > ~/.config/fish/completions/petstore.fish'],
    script: async () => (await import('../completion/fish.js')).fishScript,
  },
  {
    name: 'powershell',
    title: 'PowerShell',
    install: [
      'petstore completion powershell >> $PROFILE',
      'petstore completion powershell | Out-String | Invoke-Expression   # this session only',
    ],
    script: async () => (await import('../completion/powershell.js')).powershellScript,
  },
];

const rootOf = (command: CommandUnknownOpts): CommandUnknownOpts => (command.parent ? rootOf(command.parent) : command);

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
        const [{ completionSpecs }, render] = await Promise.all([import('../completion/tree.js'), shell.script()]);
        f.io.writeOut(render(completionSpecs(rootOf(command))));
      });
    completion.addCommand(command);
  }
  return completion;
}

const SOURCES: readonly ValueSource[] = ['environments'];

/** Declares `__complete <source>` (hidden from help: the completion scripts call it). */
export function newCompleteCommand(f: Factory) {
  return new Command('__complete')
    .description('Print the values shell completion offers, one a line (used by the completion scripts)')
    .argument('<source>', `what to print: ${SOURCES.join(', ')}`)
    .action(async (source) => {
      if (!SOURCES.includes(source as ValueSource))
        throw new UsageError(`unknown completion source "${source}" (allowed: ${SOURCES.join(', ')})`);
      await printEnvironmentNames(f);
    });
}

/**
 * Prints the built-in environment names, then the configured ones (names
 * only, never their settings). The built-in ones are printed even when the
 * config cannot be read (its UsageError follows, exit 2).
 */
async function printEnvironmentNames(f: Factory): Promise<void> {
  const { BUILT_IN_ENVS, ENV_NAME } = await import('../settings.js');
  f.io.writeOut(BUILT_IN_ENVS.map((name) => `${name}\n`).join(''));
  const stored = Object.keys((await f.store()).environments()).filter((name) => ENV_NAME.test(name) && !BUILT_IN_ENVS.includes(name));
  f.io.writeOut(stored.map((name) => `${name}\n`).join(''));
}
