/**
 * Every command of petstore, once: its name and how to load its declaration.
 * The program, the code-cache keys of launch.ts (through the build) and shell
 * completion all derive from this list. Adding a command is its folder and
 * one line here. A command module is loaded only when its command runs (or
 * help, completion or an unknown command needs the whole tree), so that each
 * call starts only the code it uses.
 */
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Factory } from '../factory.js';

/** A top-level command: its name, and its declaration, loaded on demand. */
export interface CommandEntry {
  name: string;
  load: () => Promise<(f: Factory) => CommandUnknownOpts>;
  /** Its action reads the whole command tree (`__complete` answers from it). */
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
