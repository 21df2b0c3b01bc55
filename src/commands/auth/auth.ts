/** `petstore auth`: the API key of each environment. */
import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { examples } from '../kit.js';
import { newLoginCommand } from './login.js';
import { newLogoutCommand } from './logout.js';
import { newStatusCommand } from './status.js';
import { newTokenCommand } from './token.js';

/** Declares `auth` and its subcommands. */
export function newAuthCommand(f: Factory) {
  return new Command('auth')
    .description('Store, check, print or remove the API key')
    .addHelpText('after', examples('petstore auth login', 'petstore auth status', 'petstore auth logout --env staging'))
    .addCommand(newLoginCommand(f))
    .addCommand(newStatusCommand(f))
    .addCommand(newTokenCommand(f))
    .addCommand(newLogoutCommand(f));
}
