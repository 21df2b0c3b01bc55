/**
 * Every command of petstore, once. The program, the code-cache keys of
 * launch.ts (through the build) and shell completion all derive from this list.
 * Adding a command is its module and one line here.
 */
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Factory } from '../factory.js';
import { newApiCommand } from './api/api.js';
import { newAuthCommand } from './auth/auth.js';
import { newCompleteCommand, newCompletionCommand } from './completion.js';
import { newConfigCommand } from './config/config.js';
import { newAddCommand } from './pets/add.js';
import { newGetCommand } from './pets/get.js';
import { newListCommand } from './pets/list.js';
import { newVersionCommand } from './version.js';

/** The top-level commands, in the order help lists them. */
export const COMMANDS: ReadonlyArray<(f: Factory) => CommandUnknownOpts> = [
  newListCommand,
  newAddCommand,
  newGetCommand,
  newApiCommand,
  newAuthCommand,
  newConfigCommand,
  newVersionCommand,
  newCompletionCommand,
  newCompleteCommand,
];
