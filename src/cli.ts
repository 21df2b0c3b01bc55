/**
 * The command tree: names, flags and help of every command. It loads only
 * commander; each action imports its command module (and so zod, undici or
 * conf) when it runs, which keeps `--help`, `--version` and flag errors fast.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Context, GlobalOptions } from './context.js';

/** Creates the Context for a parsed command line (supplied by main). */
export type ContextFactory = (options: GlobalOptions) => Context;

export const EXIT_CODES_HELP = `
Exit codes:
  0    success
  1    general failure: network, timeout, 5xx or unexpected response
  2    invalid usage or input: bad flags or values, a 400 from the service,
       no base URL configured, unusable config file
  3    not found (404)
  4    authentication: no API key, or the service answered 401
  130  interrupted (Ctrl-C); 143 terminated (SIGTERM)

Environment variables:
  PETSTORE_ENV, PETSTORE_BASE_URL, PETSTORE_API_KEY   override the stored config
  PETSTORE_NO_DEPRECATION_WARNING=1                    silences the warning of "get"
  PETSTORE_DEBUG=1                                     stack traces on errors
  NO_COLOR, FORCE_COLOR                                colour control
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY                    proxies
  XDG_CONFIG_HOME, XDG_CACHE_HOME                      where config and code cache live
  NODE_DISABLE_COMPILE_CACHE=1                         no code cache (slower start)`;

function integerIn(name: string, min: number, max: number) {
  return (text: string): number => {
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}.`);
    }
    return Number(text);
  };
}

type Action = (ctx: Context, args: string[], flags: Record<string, unknown>) => Promise<void>;

/** Builds the `petstore` program. `run` receives each action with its Context. */
export function buildProgram(version: string, makeContext: ContextFactory, run: (work: (ctx: Context) => Promise<void>, ctx: Context) => Promise<void>): Command {
  const program = new Command('petstore')
    .description('Command-line client for the pet store service.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--env <name>', 'environment: production (default), staging, or one you configured')
    .option('--base-url <url>', 'base URL of the service, ending in /v1 (overrides the config)')
    .option('--json', 'print JSON: exactly what the service sent')
    .option('--no-color', 'disable colour')
    .addOption(
      new Option('--timeout <ms>', 'deadline of the whole command, in milliseconds')
        .default(30_000)
        .argParser(integerIn('--timeout', 1, 3_600_000)),
    )
    .addOption(
      new Option('--retries <n>', 'retries of a GET on network errors, 408, 429, 502, 503, 504')
        .default(2)
        .argParser(integerIn('--retries', 0, 10)),
    )
    .option('--verbose', 'log requests (key redacted) and stack traces to stderr')
    .addHelpText('after', EXIT_CODES_HELP);

  const bind =
    (load: () => Promise<{ default: Action }>) =>
    async (...params: unknown[]): Promise<void> => {
      const command = params[params.length - 1] as Command;
      const flags = command.optsWithGlobals<Record<string, unknown>>();
      const ctx = makeContext(flags as unknown as GlobalOptions);
      const args = command.args.slice(0, command.registeredArguments.length);
      await run(async (c) => (await load()).default(c, args, command.opts()), ctx);
    };

  program
    .command('list')
    .description('List animals (listPets)')
    .option('--status <status>', 'only animals with this status: available, pending or sold')
    .option('--limit <n>', 'maximum number of animals per page, 1 to 100', '20')
    .option('--all', 'follow Link rel="next" pages to the end (same origin, at most 1000 pages)')
    .option('--format <format>', 'table (default on a terminal), tsv (default when piped), json, ndjson')
    .addHelpText(
      'after',
      '\nExamples:\n  petstore list --status available\n  petstore list --limit 100 --json | jq -r \'.[].name\'\n' +
        '  petstore list --all --format ndjson | jq -c \'select(.status == "sold")\'',
    )
    .action(bind(() => import('./commands/list.js')));

  program
    .command('add')
    .description('Add an animal (createPet), or many from a file')
    .option('--name <name>', 'the animal\'s name (required without --file)')
    .option('--category-id <id>', 'identifier of its category, int64 (required without --file)')
    .option('--status <status>', 'available, pending or sold')
    .option('--file <path>', 'add every NewPet of a JSON array or NDJSON file ("-" for stdin)')
    .option('--concurrency <n>', 'with --file: requests in flight at once, 1 to 64 (default 8)')
    .option('--failed <path>', 'with --file: write failed items as NDJSON, to retry with --file')
    .addHelpText(
      'after',
      '\nExamples:\n  petstore add --name Rex --category-id 1 --status available\n' +
        '  petstore add --file pets.ndjson --failed failed.ndjson --json > created.ndjson\n' +
        '  petstore add --file failed.ndjson          # retries exactly the failed items',
    )
    .action(bind(() => import('./commands/add.js')));

  program
    .command('get')
    .description('Get one animal by id (getPet; deprecated, removed on 2030-12-05)')
    .argument('<petId>', 'identifier of the animal (int64)')
    .addHelpText(
      'after',
      '\nThe service removes this operation on 2030-12-05; use "petstore list --status <status>" instead.\n' +
        'Each call warns on stderr; set PETSTORE_NO_DEPRECATION_WARNING=1 to silence it.\n\nExample:\n  petstore get 42 --json',
    )
    .action(bind(() => import('./commands/get.js')));

  const auth = program.command('auth').description('Store, check or remove the API key');
  auth
    .command('login')
    .description('Store an API key for the selected environment (prompts without echo on a terminal)')
    .option('--with-token', 'read the key from standard input')
    .addHelpText('after', '\nExamples:\n  petstore auth login\n  petstore auth login --with-token < key.txt\n  echo "$KEY" | petstore auth login --env staging --with-token')
    .action(bind(() => import('./commands/auth-login.js')));
  auth
    .command('status')
    .description('Show the environment, base URL and where the key comes from (never the key)')
    .action(bind(() => import('./commands/auth-status.js')));
  auth
    .command('logout')
    .description('Remove the stored key of the selected environment')
    .action(bind(() => import('./commands/auth-logout.js')));

  const config = program.command('config').description('Show or change settings: base-url per environment');
  const configCommand = (name: string, description: string, args: string[]) => {
    const command = config.command(name).description(description);
    for (const arg of args) command.argument(arg);
    command.action(bind(async () => ({ default: (await import('./commands/config.js'))[name as 'list'] })));
  };
  configCommand('list', 'Show the settings of every environment', []);
  configCommand('get', 'Print one setting of the selected environment', ['<key>']);
  configCommand('set', 'Change one setting of the selected environment', ['<key>', '<value>']);
  configCommand('unset', 'Remove one setting of the selected environment', ['<key>']);
  configCommand('path', 'Print the path of the config file', []);
  config.addHelpText('after', '\nKeys:\n  base-url   base URL of the environment, ending in /v1\n\nExample:\n  petstore config set base-url https://petstore.example.com/v1 --env staging');

  return program;
}
