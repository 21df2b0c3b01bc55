/** `petstore auth` declared: the API key of each environment (login, status, token, logout). Each run loads when it runs. */
import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { contractAction, examples, withOutputFlags } from '../kit.js';
import type { LoginOptions } from './login.js';

/** The run of each subcommand, for tests to replace (gh's runF): by default the runner with the contract in its file. */
export interface AuthRuns {
  login?: (options: LoginOptions) => Promise<void>;
  status?: () => Promise<void>;
  token?: () => Promise<void>;
  logout?: () => Promise<void>;
}

/** Declares `auth` and its subcommands; `runs` replaces their runs. */
export function newAuthCommand(f: Factory, runs: AuthRuns = {}) {
  return new Command('auth')
    .description('Store, check, print or remove the API key')
    .addHelpText('after', examples('petstore auth login', 'petstore auth status', 'petstore auth logout --env staging'))
    .addCommand(
      new Command('login')
        .description('Check an API key against the service and store it for the selected environment')
        .option('--with-token', 'read the key from standard input')
        .option('--skip-verify', 'store the key without checking it against the service')
        .addHelpText(
          'after',
          examples(
            'petstore auth login',
            'petstore auth login --with-token < key.txt',
            'echo "$KEY" | petstore auth login --env staging --with-token',
          ),
        )
        .action(contractAction(f, async () => (await import('./login.js')).LOGIN, runs.login)),
    )
    .addCommand(
      withOutputFlags(new Command('status'), 'fields')
        .description('Show the environment, base URL and key in effect (never the key) and check the key with the service')
        .addHelpText('after', examples('petstore auth status', 'petstore auth status --env staging --json'))
        .action(contractAction(f, async () => (await import('./status.js')).STATUS, runs.status)),
    )
    .addCommand(
      new Command('token')
        .description('Print the API key in effect (for scripts)')
        .addHelpText('after', examples('petstore auth token', 'petstore auth token --env staging'))
        .action(contractAction(f, async () => (await import('./token.js')).TOKEN, runs.token)),
    )
    .addCommand(
      new Command('logout')
        .description('Remove the stored key of the selected environment')
        .addHelpText('after', examples('petstore auth logout', 'petstore auth logout --env staging'))
        .action(contractAction(f, async () => (await import('./logout.js')).LOGOUT, runs.logout)),
    );
}
