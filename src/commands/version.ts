/** `petstore version`: prints what `petstore --version` prints. */
import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../factory.js';

/** Declares `version`. */
export function newVersionCommand(f: Factory) {
  return new Command('version').description('Print the version of petstore').action(() => void f.io.writeOut(`${f.version}\n`));
}
