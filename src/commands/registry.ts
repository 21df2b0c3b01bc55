/** Every command once, its name and lazy declaration: the program, completion and launch.ts's cache keys derive from it. A new command is its folder and a line here. */
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Factory } from '../factory.js';

export interface CommandEntry {
  name: string;
  load: () => Promise<(f: Factory) => CommandUnknownOpts>;
  /** Its action reads the whole command tree (`__complete`). */
  needsTree?: boolean;
}

/** The top-level commands, in the order help lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'list', load: async () => (await import('./list/list.js')).newListCommand },
  { name: 'add', load: async () => (await import('./add/add.js')).newAddCommand },
  { name: 'get', load: async () => (await import('./get/get.js')).newGetCommand },
  { name: 'api', load: async () => (await import('./api/api.js')).newApiCommand },
  { name: 'auth', load: async () => (await import('./auth/auth.js')).newAuthCommand },
  { name: 'config', load: async () => (await import('./config/config.js')).newConfigCommand },
  { name: 'version', load: async () => (await import('./version.js')).newVersionCommand },
  { name: 'completion', load: async () => (await import('./completion.js')).newCompletionCommand },
  { name: '__complete', load: async () => (await import('./completion.js')).newCompleteCommand, needsTree: true },
];
