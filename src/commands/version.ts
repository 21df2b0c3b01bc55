/** `petstore version`: prints what `petstore --version` prints. */
import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../factory.js';
import { examples, withGlobalFlags } from './kit.js';

/** Declares `version`. */
export function newVersionCommand(f: Factory) {
  const version = new Command('version')
    .description('Print the version of petstore')
    .addHelpText('after', examples('petstore version', 'petstore --version'))
    .action(() => void f.io.writeOut(`${f.version}\n`));
  return withGlobalFlags(version, []);
}
