/**
 * Running `petstore api`: sends the request (with `--paginate`, the pages its Link headers name), prints status line and headers with
 * `--include`, then the body: JSON compact with exact numbers (through `--jq`), else as received. A non-2xx answer prints its body on
 * stderr and ends with the client's error (exit 3 for 404, 4 for 401, 2 for 400, else 1). Paged at a terminal.
 */
import { STATUS_CODES } from 'node:http';
import type { PetstoreClient } from '../../api/client.js';
import type { Exchange } from '../../api/exchange.js';
import { parseJson, stringifyJson } from '../../json.js';
import { PageTrail, withPartialOutput } from '../../api/pages.js';
import { describeBody, isJsonType, nextLink } from '../../api/response.js';
import { CliError, RequestError, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../iostreams.js';
import { sanitizeLines } from '../../text.js';
import type { ApiOptions } from './request.js';

export { apiOptions } from './request.js';

/** Every 2xx is a success: the interface does not show these operations. */
const SUCCESS: readonly number[] = Array.from({ length: 100 }, (_, i) => 200 + i);

type Body = { json: unknown } | { text: string; response: Exchange };

/**
 * Sends the request and prints the answer; with `--paginate`, each page as it arrives (gh api --paginate). Throws UsageError (nothing
 * sent) for another origin, the errors of `client()` and `send()`, the failureOf error of a non-2xx status, PageTrail's RequestError,
 * RequestError when `--jq` meets a non-JSON body, and jq's errors; after a first page, each carries what was printed (PartialOutput).
 */
export async function runApi(f: Factory, options: ApiOptions): Promise<void> {
  f.io.pageOutput();
  const client = await f.client();
  let url = targetUrl(client, options);
  const trail = new PageTrail(client.origin, url);
  // Pages that are JSON arrays print as one array, streamed; -i prints each page whole after its head.
  const printer = new BodyPrinter(f, options.paginate && !options.include && f.exporter.jq === undefined);
  const limits = options.paginate ? client.pageLimits : {};
  let linked: URL | undefined;
  try {
    for (;;) {
      const request = { method: options.method, path: url, headers: options.headers, body: options.body, ...limits };
      const response = await client.send(request);
      if (options.include) f.exporter.writeText(head(response));
      // 'as-sent': a 404 with an Error body answers this path (exit 3); it is no sign of a wrong base URL.
      const failure = client.failureOf(response, SUCCESS, 'as-sent');
      if (failure) {
        // With --json the body goes inside the one error object; else before the error line.
        if (f.io.json && failure instanceof CliError && response.text !== '') {
          const body = bodyOf(response);
          failure.body = 'json' in body ? body.json : body.text;
        } else writeErrorBody(f.io, response);
        throw failure;
      }
      const body = response.text === '' ? undefined : bodyOf(response);
      if (body) await printer.print(body);
      const next = options.paginate ? nextLink(response.headers, url) : undefined;
      if (!next) break;
      linked = next;
      url = trail.follow(next, body && 'json' in body && Array.isArray(body.json) ? body.json.length : undefined);
    }
  } catch (error) {
    if (trail.pages === 1 && printer.printed === 0) throw error;
    throw withPartialOutput(error, { printed: printer.printed, what: printer.printed === 1 ? 'item' : 'items', next: linked?.href });
  }
  printer.end();
}

/** The URL of `options.path` with the query fields; another origin is refused (UsageError) before anything is sent. */
function targetUrl(client: PetstoreClient, options: ApiOptions): URL {
  let url: URL;
  if (/^[a-z][a-z0-9+.-]*:/i.test(options.path)) {
    try {
      url = new URL(options.path);
    } catch {
      throw new UsageError(`invalid URL: "${options.path}": give a path under the base URL, such as /store/orders`);
    }
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
      return { json: parseJson(response.text) };
    } catch {
      // Malformed JSON is printed as received.
    }
  }
  return { text: response.text, response };
}

/**
 * Prints bodies as they come: through `--jq` one by one when given, else JSON compact and other text as received. With `merge`, JSON
 * arrays in a row are one array, opened at the first and closed by {@link end} or the next body that is not one (`[1,2][3]` prints
 * `[1,2,3]`); a page that fails after them leaves the array open, so that a JSON reader fails too.
 */
class BodyPrinter {
  /** Items of JSON arrays, and other bodies, printed so far. */
  printed = 0;
  private open = false;
  private wroteItem = false;

  constructor(
    private readonly f: Factory,
    private readonly merge: boolean,
  ) {}

  async print(body: Body): Promise<void> {
    const { f } = this;
    if (f.exporter.jq !== undefined) {
      if ('response' in body) throw notJson(body.response);
      await f.exporter.printJq(stringifyJson(body.json));
      this.printed += Array.isArray(body.json) ? body.json.length : 1;
      return;
    }
    if (this.merge && 'json' in body && Array.isArray(body.json)) {
      const items = body.json.length ? stringifyJson(body.json).slice(1, -1) : '';
      f.io.writeOut(`${this.open ? '' : '['}${items && this.wroteItem ? ',' : ''}${items}`);
      this.open = true;
      this.wroteItem ||= items !== '';
      this.printed += body.json.length;
    } else {
      this.end();
      if ('json' in body) f.io.writeOut(`${stringifyJson(body.json)}\n`);
      else f.exporter.writeText(body.text);
      this.printed += 'json' in body && Array.isArray(body.json) ? body.json.length : 1;
    }
    await f.io.out.drained();
  }

  /** Closes the merged array, if one is open. */
  end(): void {
    if (this.open) this.f.io.writeOut(']\n');
    this.open = false;
    this.wroteItem = false;
  }
}

/** `--jq` on a body that is not JSON: RequestError `not_json` (exit 1). */
function notJson(response: Exchange): RequestError {
  const type = response.headers['content-type'];
  return new RequestError(
    `--jq needs a JSON body; the service answered HTTP ${response.status} (${type ?? 'no content type'}): ${describeBody(response)}`,
    'not_json',
    response.status,
  );
}

/** A non-2xx answer's body on stderr: JSON as one compact line, other text as received, terminal-safe. */
function writeErrorBody(io: IOStreams, response: Exchange): void {
  if (response.text === '') return;
  const body = bodyOf(response);
  if ('json' in body) io.writeError(`${stringifyJson(body.json)}\n`);
  else io.writeError(sanitizeLines(body.text.endsWith('\n') ? body.text : `${body.text}\n`));
}
