/** Every command once, its name and lazy declaration: the program, completion and launch.ts's cache keys derive from it. A new command is its folder and a line here. */
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { OperationSchemas } from '../api/schemas.js';
import type { Factory } from '../factory.js';

export interface CommandEntry {
  name: string;
  load: () => Promise<(f: Factory) => CommandUnknownOpts>;
  /** The interface operations it calls, with their schemas (its http.ts); none for a command that calls none of its own. */
  operations?: () => Promise<readonly OperationSchemas[]>;
  /** Its action reads the whole command tree (`__complete`). */
  needsTree?: boolean;
}

/** The top-level commands, in the order help lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'list',
    load: async () => (await import('./list/list.js')).newListCommand,
    operations: async () => (await import('./list/http.js')).OPERATIONS,
  },
  {
    name: 'add',
    load: async () => (await import('./add/add.js')).newAddCommand,
    operations: async () => (await import('./add/http.js')).OPERATIONS,
  },
  {
    name: 'get',
    load: async () => (await import('./get/get.js')).newGetCommand,
    operations: async () => (await import('./get/http.js')).OPERATIONS,
  },
  { name: 'api', load: async () => (await import('./api/api.js')).newApiCommand },
  {
    name: 'auth',
    load: async () => (await import('./auth/auth.js')).newAuthCommand,
    operations: async () => (await import('./auth/http.js')).OPERATIONS,
  },
  { name: 'config', load: async () => (await import('./config/config.js')).newConfigCommand },
  { name: 'version', load: async () => (await import('./version.js')).newVersionCommand },
  { name: 'completion', load: async () => (await import('./completion.js')).newCompletionCommand },
  { name: '__complete', load: async () => (await import('./completion.js')).newCompleteCommand, needsTree: true },
];
