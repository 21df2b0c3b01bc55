/**
 * Running `petstore api`: sends the request (and with `--paginate` its next pages), prints the head with `--include`, then the body:
 * JSON compact and exact (through `--jq`), else as received. A non-2xx body goes to stderr, then the client's error.
 */
import { STATUS_CODES } from 'node:http';
import type { PetstoreClient } from '../../api/client.js';
import type { Exchange } from '../../api/exchange.js';
import { parseAnswerJson, stringifyJson } from '../../json.js';
import { describeBody, isJsonType } from '../../api/response.js';
import { CliError, isCutListing, RequestError, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../iostreams.js';
import { REPEATS_DROPPED, repeatsWarning, sanitizeLines } from '../../text.js';
import * as z from 'zod/mini';
import { task } from '../runner.js';
import { PageRepeats } from './page-repeats.js';
import { type ApiFlags, type ApiOptions, apiOptions, type FieldArg } from './request.js';

const API_INPUTS = { arguments: [['argument <path>', z.string()]] as const };

/** The flags of `api` as commander parses them (api.ts declares them; `contractAction` holds the two to one type). */
interface ApiCommandFlags extends Omit<ApiFlags, 'fields'> {
  /** -f and -F share one list, in the order given (api.ts): either flag's value is all of them. */
  rawField?: FieldArg[];
  field?: FieldArg[];
}

/** api for the runner: `<path>` and the flags to a request (stdin read for `--input -` or `-F key=@-`), then {@link runApi}. */
export const API = task<typeof API_INPUTS, ApiOptions, ApiCommandFlags>({
  inputs: API_INPUTS,
  options: ({ flags, arguments: [path] }, f): Promise<ApiOptions> =>
    apiOptions(path, { ...flags, fields: flags.rawField ?? flags.field ?? [] }, f.io.std.stdin, f.signal),
  run: (f, options: ApiOptions) => runApi(f, options),
});

/** Every 2xx is a success: the interface does not show these operations. */
const SUCCESS: readonly number[] = Array.from({ length: 100 }, (_, i) => 200 + i);

type Body = { json: unknown } | { text: string; response: Exchange };

/**
 * Sends the request and prints the answer, with `--paginate` each page as it arrives (through `--jq`: once all are in). Throws the
 * errors of `client()` and `send()`, failureOf's for a non-2xx status, PageTrail's, a ListingCutError, and jq's.
 */
export async function runApi(f: Factory, options: ApiOptions): Promise<void> {
  f.io.pageOutput();
  // A whole listing: --timeout bounds each page and the --jq run, not the whole command.
  if (options.paginate) f.readsWholeListing();
  const client = await f.client();
  const request = { method: options.method, headers: options.headers, body: options.body };
  // One request keeps the command's deadline (no signal of its own); pages have one each.
  const walk = client.walk(
    targetUrl(client, options),
    options.paginate ? request : { ...request, signal: undefined, deadlineMs: undefined },
  );
  const jq = f.exporter.jq !== undefined;
  const sink = new BodySink(f, options.paginate && !options.include && !jq);
  const bodies: Body[] = [];
  const repeats = new PageRepeats();
  let dropped = 0;
  try {
    for (;;) {
      const response = await walk.fetch();
      if (options.include) f.exporter.writeText(head(response));
      // 'as-sent': a 404 with an Error body answers this path (exit 3); it is no sign of a wrong base URL.
      const failure = client.failureOf(response, SUCCESS, 'as-sent');
      if (failure) {
        // With --json the body goes inside the one error object; else before the error line.
        if (f.io.json && failure instanceof CliError && response.text !== '') {
          const body = bodyOf(response);
          failure.body = 'json' in body ? body.json : body.text;
        } else writeErrorBody(f.io, response);
        throw walk.cut(failure);
      }
      // Asked for before this page is parsed, so that it travels meanwhile.
      if (options.paginate) await walk.lookAhead(response);
      let body = response.text === '' ? undefined : bodyOf(response);
      const items = body === undefined ? 0 : 'json' in body && Array.isArray(body.json) ? body.json.length : undefined;
      let linkError: unknown;
      if (options.paginate) {
        let next: URL | undefined;
        try {
          next = walk.nextOf(response);
        } catch (error) {
          // The page arrived whole: it is printed, then the walk stops here.
          linkError = walk.stopHere(error);
        }
        const passed = body && repeats.pass('json' in body ? body.json : undefined, response.text);
        if (passed && !passed.fresh && next) throw walk.repeatedPage(next, 'items');
        if (passed && body && 'json' in body) body = { json: passed.json };
        dropped += passed ? passed.dropped : 0;
      }
      if (body && jq) bodies.push(body);
      else if (body) {
        sink.add(body);
        // The page after next waits for stdout to take this one.
        await f.io.drained();
      }
      if (linkError) throw linkError;
      if (!options.paginate || !walk.advance(response, items)) break;
    }
  } catch (error) {
    warnRepeats(f, dropped);
    if (isCutListing(error))
      error.setPrinted(sink.items, `${itemCount(sink.items)} on ${sink.pages === 1 ? '1 page' : `${sink.pages} pages`}`);
    throw error;
  }
  warnRepeats(f, dropped);
  sink.end();
  if (jq) await printBodies(f, options.paginate ? merged(bodies) : bodies);
}

const itemCount = (n: number) => (n === 1 ? '1 item' : `${n} items`);

/** The warning of items left out as printed before, if any. */
function warnRepeats(f: Factory, dropped: number): void {
  if (dropped > 0) f.io.warn(repeatsWarning(itemCount(dropped)), REPEATS_DROPPED);
}

/**
 * Prints bodies as they arrive; with `merge` (`--paginate` without `-i`) JSON array pages in a row as one array (`[1,2][3]` prints as
 * `[1,2,3]`), left unclosed when the listing fails.
 */
class BodySink {
  private open = false;
  /** Array elements and other bodies printed, and pages. */
  items = 0;
  pages = 0;

  constructor(
    private readonly f: Factory,
    private readonly merge: boolean,
  ) {}

  add(body: Body): void {
    this.pages += 1;
    if (this.merge && 'json' in body && Array.isArray(body.json)) {
      const inner = stringifyJson(body.json).slice(1, -1);
      if (!this.open) this.f.io.writeOut(`[${inner}`);
      else if (inner) this.f.io.writeOut(`,${inner}`);
      this.open = true;
      this.items += body.json.length;
      return;
    }
    this.end();
    this.items += 1;
    if ('json' in body) this.f.io.writeOut(`${stringifyJson(body.json)}\n`);
    else this.f.exporter.writeText(body.text);
  }

  /** Closes the array being written, if one is. */
  end(): void {
    if (this.open) this.f.io.writeOut(']\n');
    this.open = false;
  }
}

/** The URL of `options.path` with the query fields; another origin is refused (UsageError) before anything is sent. */
function targetUrl(client: PetstoreClient, options: ApiOptions): URL {
  let url: URL;
  if (/^[a-z][a-z0-9+.-]*:/i.test(options.path)) {
    const parsed = URL.parse(options.path);
    if (!parsed) throw new UsageError(`invalid URL: "${options.path}": give a path under the base URL, such as /store/orders`);
    url = parsed;
    if (url.origin !== client.origin) {
      throw new UsageError(
        `refusing to send the API key to another origin: ${url.origin}; give a path under the base URL or a URL of ${client.origin}`,
      );
    }
  } else url = new URL(client.url(options.path));
  for (const [name, value] of options.query) url.searchParams.append(name, value);
  return url;
}

/** `HTTP/1.1 200 OK`, the headers as received (lower-case names), and a blank line. */
function head(response: Exchange): string {
  let text = `${`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`.trimEnd()}\n`;
  for (const [name, value] of Object.entries(response.headers)) {
    for (const line of Array.isArray(value) ? value : [value ?? '']) text += `${name}: ${line}\n`;
  }
  return `${text}\n`;
}

function bodyOf(response: Exchange): Body {
  if (isJsonType(response)) {
    try {
      return { json: parseAnswerJson(response.text) };
    } catch {
      // Malformed JSON is printed as received.
    }
  }
  return { text: response.text, response };
}

/** Pages that are all JSON arrays become one array (gh 2.23 prints them one after another); other pages stay one value each. */
function merged(bodies: Body[]): Body[] {
  if (bodies.length < 2 || !bodies.every((body) => 'json' in body && Array.isArray(body.json))) return bodies;
  return [{ json: bodies.flatMap((body) => (body as { json: unknown[] }).json) }];
}

/** Prints the bodies through `--jq`; throws RequestError (`not_json`) for a body that is not JSON, and jq's errors. */
async function printBodies(f: Factory, bodies: readonly Body[]): Promise<void> {
  const text = bodies.find((body) => 'text' in body);
  if (text && 'response' in text) {
    const type = text.response.headers['content-type'];
    throw new RequestError(
      `--jq needs a JSON body; the service answered HTTP ${text.response.status} (${type ?? 'no content type'}): ${describeBody(text.response)}`,
      'not_json',
      text.response.status,
    );
  }
  if (bodies.length === 0) return;
  return f.exporter.printJq(bodies.map((body) => stringifyJson((body as { json: unknown }).json)).join('\n'));
}

/** A non-2xx answer's body on stderr: JSON as one compact line, other text as received, terminal-safe. */
function writeErrorBody(io: IOStreams, response: Exchange): void {
  if (response.text === '') return;
  const body = bodyOf(response);
  if ('json' in body) io.writeError(`${stringifyJson(body.json)}\n`);
  else io.writeError(sanitizeLines(body.text.endsWith('\n') ? body.text : `${body.text}\n`));
}
