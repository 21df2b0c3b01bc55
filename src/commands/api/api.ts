/**
 * `petstore api <path>`: an authenticated request to any path under the base URL, for operations the interface names but does not show
 * (its store section, GET /store/orders), as `gh api`; key, retries, timeouts, redaction, size cap and exact numbers as elsewhere.
 */
import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { contractAction, examples, valueOption, withJqFlag } from '../kit.js';
import { API_METHODS } from './methods.js';
import type { ApiOptions, FieldArg } from './request.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Declares `api`; its action checks the flags and calls `runF`, by default the runner with api's contract (./run.ts). */
export function newApiCommand(f: Factory, runF?: (options: ApiOptions) => Promise<void>) {
  // -f and -F in the order given: the JSON object's keys (and the query's) keep it.
  const fields: FieldArg[] = [];
  const field = (flag: FieldArg['flag']) => (text: string) => {
    fields.push({ flag, text });
    return fields;
  };
  const command = new Command('api')
    .description('Send an authenticated request to any path under the base URL (such as the store section, /store/orders)')
    .argument('<path>', 'a path under the base URL (/store/orders), or a URL of its origin')
    .addOption(
      valueOption('-X, --method <method>', 'the HTTP method', { choices: API_METHODS, defaultText: 'GET; POST when a body is given' }),
    )
    .option('--input <file>', 'the request body, sent as is: a file, or - for standard input (fields then go to the query string)')
    .option(
      '-f, --raw-field <key=value>',
      'a string field of the JSON body, or of the query string for GET (repeatable; a[b]=, a[]= nest)',
      field('--raw-field'),
    )
    .option(
      '-F, --field <key=value>',
      'a typed field: numbers, true, false and null as JSON, @file (@- stdin) as its text (repeatable)',
      field('--field'),
    )
    .option('-H, --header <header>', 'a request header, "Name: value" (repeatable)', collect)
    .option('-i, --include', 'print the status line and response headers before the body')
    .option('--paginate', 'follow Link rel="next" to the last page; JSON array pages are merged into one array');
  return withJqFlag(command)
    .addHelpText(
      'after',
      '\nPrints the response body: JSON compact with exact numbers, anything else as received.\n' +
        'An answer other than 2xx prints its body on stderr and exits 3 for 404, 4 for 401,\n' +
        '2 for 400, else 1. -H Authorization is refused: the key is that of auth login.\n' +
        examples(
          'petstore api /store/orders',
          "petstore api /pets -X GET -F limit=2 --paginate --jq '.[].id'",
          'petstore api /pets -f name=Rex -F categoryId=9007199254740993 -f status=available -i',
        ),
    )
    .action(contractAction(f, async () => (await import('./run.js')).API, runF));
}
