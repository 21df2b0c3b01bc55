/**
 * The request of `petstore api` from its flags (as `gh api`): method, headers, and `-f`/`-F` fields as a JSON body or, for GET, HEAD or
 * an `--input` body, as the query string. Every problem is a UsageError (exit 2) naming the flag, before anything is sent.
 */
import fs from 'node:fs';
import { isJsonObject, parseJson, stringifyJson } from '../../json.js';
import { UsageError } from '../../errors.js';
import { openFifo } from '../../fifo.js';
import { didYouMean } from '../../suggest.js';
import { API_METHODS } from './methods.js';

/** Headers -H may not set: the key is petstore's to send, and the rest frame the connection. */
const REFUSED_HEADERS: Readonly<Record<string, string>> = {
  authorization:
    'petstore sends the API key of "auth login" (or PETSTORE_API_KEY) itself, and a key on the command line ends up in shell history',
  'proxy-authorization': 'proxy credentials belong in the proxy URL (HTTPS_PROXY)',
  host: "the host is the base URL's",
  'content-length': 'petstore frames the body itself',
  'transfer-encoding': 'petstore frames the body itself',
  connection: 'petstore manages its connections',
};

/** One `-f` (string) or `-F` (typed) as given. */
export interface FieldArg {
  flag: '--raw-field' | '--field';
  text: string;
}

/** The flags of `api` as parsed, -f and -F in the order given. */
export interface ApiFlags {
  method?: string;
  input?: string;
  fields: FieldArg[];
  header?: string[];
  include?: true;
  paginate?: true;
  jq?: string;
}

export interface ApiOptions {
  method: string;
  /** As given: a path under the base URL ("/store/orders?x=1") or an absolute URL. */
  path: string;
  /** Added to the URL's query string, in order. */
  query: Array<[string, string]>;
  /** Names in lower case. */
  headers: Record<string, string>;
  /** `--input` as is, or the JSON object of the fields. */
  body?: string;
  include: boolean;
  paginate: boolean;
}

/** The largest request body read from a file or stdin, in bytes. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/**
 * Reads a file or stdin ("-") as exact UTF-8 text (a BOM kept), a FIFO waiting in the thread pool. Throws UsageError naming `what` when
 * unreadable, over {@link MAX_INPUT_BYTES} (`/dev/zero`) or not UTF-8; the reason of `signal` when it aborts first.
 */
async function readText(file: string, stdin: NodeJS.ReadableStream, what: string, signal: AbortSignal): Promise<string> {
  let bytes: Buffer;
  try {
    const isFifo = file !== '-' && fs.statSync(file, { throwIfNoEntry: false })?.isFIFO();
    const source = file === '-' ? stdin : isFifo ? openFifo(file, signal) : fs.createReadStream(file);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of source) {
      if (signal.aborted) throw signal.reason;
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buffer.length;
      if (size > MAX_INPUT_BYTES) {
        (source as { destroy?: () => void }).destroy?.();
        throw new UsageError(`cannot read ${what}: it holds more than the ${MAX_INPUT_BYTES / 1024 / 1024} MiB petstore sends`);
      }
      chunks.push(buffer);
    }
    if (signal.aborted) throw signal.reason;
    bytes = Buffer.concat(chunks);
  } catch (error) {
    if (error instanceof UsageError || signal.aborted) throw signal.aborted ? signal.reason : error;
    throw new UsageError(`cannot read ${what}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UsageError(`cannot read ${what}: not UTF-8 text`);
  }
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** `-F`'s value: true, false, null and JSON numbers (exact) as such, `@file` (`@-`: stdin) as its text, else the string. */
async function typedValue(text: string, stdin: NodeJS.ReadableStream, flag: string, signal: AbortSignal): Promise<unknown> {
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null') return null;
  if (JSON_NUMBER.test(text)) return parseJson(text);
  if (!text.startsWith('@')) return text;
  if (text === '@') throw new UsageError(`invalid value for ${flag}: "@" names no file (@path, or @- for standard input)`);
  return readText(text.slice(1), stdin, `${flag} ${text}`, signal);
}

/** Sets `value` at `key` (`a`, `a[b]`, `a[]` appends: gh's nested keys); throws UsageError for a key set twice or both value and object. */
function assign(body: Record<string, unknown>, key: string, value: unknown, flag: string): void {
  const nested = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(key);
  const path = nested ? [nested[1]!, ...[...nested[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)] : [key];
  const clash = (why: string) => new UsageError(`invalid value for ${flag}: "${key}": ${why}`);
  let node = body;
  for (let i = 0; i < path.length - 1; i += 1) {
    const name = path[i]!;
    if (name === '') throw clash('[] goes only at the end of a key');
    const appends = path[i + 1] === '' && i + 1 === path.length - 1;
    node[name] ??= appends ? [] : Object.create(null);
    const child = node[name];
    if (appends) {
      if (!Array.isArray(child)) throw clash(`${name} is already set to something that is not an array`);
      child.push(value);
      return;
    }
    if (!isJsonObject(child)) throw clash(`${name} is already set to something that is not an object`);
    node = child;
  }
  const last = path.at(-1)!;
  if (last === '') throw clash('[] goes only at the end of a key');
  if (Object.hasOwn(node, last)) throw clash('set twice');
  node[last] = value;
}

/** `Name: value` lines to lower-case headers; a repeated name's values joined with ", " (RFC 9110 §5.3). */
function parseHeaders(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/s.exec(line);
    if (!match || /[\r\n\0]/.test(match[2]!))
      throw new UsageError(`invalid value for --header: "${line}": expected "Name: value" on one line`);
    const name = match[1]!.toLowerCase();
    const refused = REFUSED_HEADERS[name];
    if (refused) throw new UsageError(`--header ${match[1]} is not allowed: ${refused}`);
    headers[name] = headers[name] === undefined ? match[2]! : `${headers[name]}, ${match[2]}`;
  }
  return headers;
}

/** `-X` in upper case, or GET (POST with a body). Throws UsageError for another. */
function parseMethod(text: string | undefined, hasBody: boolean): string {
  if (text === undefined) return hasBody ? 'POST' : 'GET';
  const method = text.toUpperCase();
  if (!(API_METHODS as readonly string[]).includes(method))
    throw new UsageError(
      `invalid value for --method: "${text}": allowed values: ${API_METHODS.join(', ')}${didYouMean(method, API_METHODS)}`,
    );
  return method;
}

/** Flags to the request, reading `--input` and `@file` (ending with `signal`'s reason if it aborts first). Throws UsageError (exit 2). */
export async function apiOptions(
  path: string,
  flags: ApiFlags,
  stdin: NodeJS.ReadableStream,
  signal: AbortSignal = new AbortController().signal,
): Promise<ApiOptions> {
  if (path.trim() === '') throw new UsageError('the path is empty: give one under the base URL, such as /store/orders');
  const method = parseMethod(flags.method, flags.input !== undefined || flags.fields.length > 0);
  const headers = parseHeaders(flags.header ?? []);
  const typed = flags.fields.filter((f) => f.flag === '--field').map((f) => f.text.slice(f.text.indexOf('=') + 1));
  const readsStdin = [flags.input, ...typed].filter((v) => v === '-' || v === '@-');
  if (readsStdin.length > 1) throw new UsageError('standard input can be read once: give "-" to one of --input and -F key=@-');
  if (flags.paginate && method !== 'GET') throw new UsageError(`--paginate follows the pages of a GET, not of ${method}`);
  const bodyless = method === 'GET' || method === 'HEAD';
  if (bodyless && flags.input !== undefined)
    throw new UsageError(`--input sends a body, which ${method} does not take: use -X POST, PUT or PATCH`);
  const fields: Array<[string, unknown, string]> = [];
  for (const { flag, text } of flags.fields) {
    const at = text.indexOf('=');
    if (at < 1) throw new UsageError(`invalid value for ${flag}: "${text}": expected key=value`);
    const raw = text.slice(at + 1);
    fields.push([text.slice(0, at), flag === '--field' ? await typedValue(raw, stdin, flag, signal) : raw, flag]);
  }
  const options: ApiOptions = {
    method,
    path,
    query: [],
    headers,
    include: flags.include ?? false,
    paginate: flags.paginate ?? false,
  };
  if (bodyless || flags.input !== undefined) {
    options.query = fields.map(([key, value]) => [key, typeof value === 'string' ? value : stringifyJson(value)]);
    if (flags.input !== undefined) options.body = await readText(flags.input, stdin, `--input ${flags.input}`, signal);
  } else if (fields.length) {
    const body: Record<string, unknown> = Object.create(null);
    for (const [key, value, flag] of fields) assign(body, key, value, flag);
    options.body = stringifyJson(body);
  }
  return options;
}
