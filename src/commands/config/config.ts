/** `petstore config list|get|set|unset|path` declared: settings (only `base-url`) of the environment of `--env` or PETSTORE_ENV. Runs in ./run.ts. */
import { Argument, Command } from '@commander-js/extra-typings';
import { completesTo } from '../../completion/argument-values.js';
import { VERSION_SEGMENT } from '../../interface-values.js';
import type { Factory } from '../../factory.js';
import { contractAction, examples, withGlobalFlags, withOutputFlags } from '../kit.js';
import { CONFIG_KEYS } from './keys.js';

/** The run of each subcommand, for tests to replace (gh's runF): by default the runner with its contract in ./run.ts. */
export interface ConfigRuns {
  list?: () => Promise<void>;
  get?: (key: string) => Promise<void>;
  set?: (options: { key: string; value: string }) => Promise<void>;
  unset?: (key: string) => Promise<void>;
  path?: () => Promise<void>;
}

/** Declares `config` and its subcommands; `runs` replaces their runs. */
export function newConfigCommand(f: Factory, runs: ConfigRuns = {}) {
  const run = () => import('./run.js');
  const config = new Command('config')
    .description(`Show or change settings: ${Object.keys(CONFIG_KEYS).join(', ')} per environment`)
    .addHelpText(
      'after',
      `\nKeys:\n  base-url   base URL of the environment, ending in ${VERSION_SEGMENT}\n` +
        examples('petstore config set base-url https://petstore.example.com/v1 --env staging', 'petstore config list'),
    );
  config.addCommand(
    withOutputFlags(new Command('list'), 'records')
      .description('Show the settings of every environment (never a key)')
      .addHelpText('after', examples('petstore config list', 'petstore config list --format json'))
      .action(contractAction(f, async () => (await run()).LIST, runs.list)),
  );
  config.addCommand(
    new Command('get')
      .description('Print one setting of the selected environment')
      .addArgument(keyArgument())
      .addHelpText('after', examples('petstore config get base-url', 'petstore config get base-url --env staging'))
      .action(contractAction(f, async () => (await run()).GET, runs.get)),
  );
  config.addCommand(
    new Command('set')
      .description('Change one setting of the selected environment (creating it when new)')
      .addArgument(keyArgument())
      .argument('<value>', 'its new value')
      .addHelpText(
        'after',
        examples(
          'petstore config set base-url https://petstore.example.com/v1',
          'petstore config set base-url http://127.0.0.1:4010/v1 --env local',
        ),
      )
      .action(contractAction(f, async () => (await run()).SET, runs.set)),
  );
  config.addCommand(
    new Command('unset')
      .description('Remove one setting of the selected environment')
      .addArgument(keyArgument())
      .addHelpText('after', examples('petstore config unset base-url', 'petstore config unset base-url --env staging'))
      .action(contractAction(f, async () => (await run()).UNSET, runs.unset)),
  );
  config.addCommand(
    new Command('path')
      .description('Print the path of the config file')
      .addHelpText('after', examples('petstore config path', 'ls -l "$(petstore config path)"'))
      .action(contractAction(f, async () => (await run()).PATH, runs.path)),
  );
  // The config store only: no request, so no base URL, deadline, retries or request log.
  return withGlobalFlags(config, ['--env', '--json', '--no-color']);
}

/** The `<key>` of get, set and unset: its one value completes at Tab. */
function keyArgument() {
  return completesTo(new Argument('<key>', 'the setting: base-url'), Object.keys(CONFIG_KEYS));
}
