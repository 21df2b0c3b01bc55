/**
 * What happened to each item of a bulk load, and what a line of an earlier
 * `--failed` file stands for. Every item has exactly one outcome: created, or
 * one of the Outcomes of failed-file.ts.
 */
import path from 'node:path';
import { BodyReadError } from '../api/exchange.js';
import { CliError, InterruptedError, RequestError, ServiceError, type ErrorReport } from '../errors.js';
import type { Outcome } from './failed-file.js';
import { itemFromBytes, itemFromText, type InputItem } from './read-items.js';

/** An item of the input, resolved: a line of a `--failed` file stands for its item (see {@link resolveItem}). */
export interface ResolvedItem extends InputItem {
  /** The outcome an earlier load recorded, when the line came from a `--failed` file. */
  previous?: Outcome;
  /** That line as it was read, to carry it over unchanged. */
  record?: Record<string, unknown>;
  /** Where the item was first read from, when the line came from a `--failed` file: its `line` and `source`. */
  origin?: Origin;
}

/** An item's first input: the line it started on there, and that input's path ("-" for standard input) when known. */
export interface Origin {
  line: number;
  source?: string;
}

const OUTCOMES: readonly string[] = ['failed', 'not_sent', 'unknown'];

function isFailedLine(
  value: unknown,
): value is Record<string, unknown> & { item: unknown; text?: unknown; text_base64?: unknown; outcome?: unknown } {
  return typeof value === 'object' && value !== null && 'item' in value && 'error' in value && 'line' in value;
}

/**
 * The item a line of `--file` stands for. A line of a `--failed` file stands
 * for its `item`, or, when it kept the `text` of input that was not JSON, for
 * that text read again: mended, it is sent; still malformed, it fails again
 * and keeps its text. Source bytes that were not UTF-8 (`text_base64`) are
 * read from those bytes, so they fail again and are kept. Its recorded outcome comes along (a line written before
 * outcomes were recorded counts as `failed`). Any other item is returned as it is.
 */
export function resolveItem(item: InputItem): ResolvedItem {
  const line = item.value;
  if (!isFailedLine(line)) return item;
  const previous = (OUTCOMES.includes(line.outcome as string) ? line.outcome : 'failed') as Outcome;
  const source =
    line.item !== null
      ? { ...item, value: line.item }
      : typeof line.text_base64 === 'string'
        ? (itemFromBytes(Buffer.from(line.text_base64, 'base64'), item.line, item.index) ?? { ...item, value: line.item })
        : typeof line.text === 'string'
          ? itemFromText(line.text, item.line, item.index)
          : { ...item, value: line.item };
  // Integers are read as bigints (int64-exact JSON).
  const first = typeof line.line === 'bigint' || typeof line.line === 'number' ? Number(line.line) : Number.NaN;
  const origin: Origin = { line: Number.isSafeInteger(first) && first > 0 ? first : item.line };
  if (typeof line.source === 'string') origin.source = line.source;
  return { ...source, previous, record: line, origin };
}

/** How a sent item ended when it was not plainly created. */
export type SendResult =
  | { outcome: 'created_unreadable'; status: number; why: string }
  | {
      outcome: Outcome;
      report: ErrorReport;
      stop?: { reason: 'auth' | 'no_such_path' | 'proxy'; error: CliError };
      /** A 429 or 503 with Retry-After: the service did not take the request; it may be sent again after this many milliseconds. */
      retryAfterMs?: number;
    };

/**
 * Classifies the error of one createPet. A 2xx answer whose body arrived but
 * cannot be read (not JSON, not a Pet, larger than the cap) means created. A
 * 4xx from the service means `failed` (a 401, or a 404 of a path the service
 * does not have, also stops the load); a 429 or 503 with Retry-After is
 * `failed` with the wait it asks for (the load may send it again); any other
 * 5xx is `unknown`, since a gateway answers 502 or 504 after the service may
 * have created the pet. A
 * failure that proves the request never left means `not_sent`. Anything else
 * means `unknown`, since the pet may have been created: a timeout, a dropped
 * connection, a body that stopped coming (a dripping answer cut at the
 * deadline, even after a 2xx status line), a second Ctrl-C.
 */
export function classifySendError(error: unknown): SendResult {
  const status = error instanceof RequestError || error instanceof ServiceError ? error.status : null;
  const success = status !== null && status >= 200 && status < 300;
  if (error instanceof BodyReadError) {
    if (success && error.code === 'body_too_large') return { outcome: 'created_unreadable', status, why: describeCause(error.cause) };
    const report = {
      code: error.code,
      message: `the service answered HTTP ${error.answeredStatus}, but its body did not arrive whole: ${describeCause(error.cause)}`,
      status: error.answeredStatus,
    };
    return success || error.answeredStatus >= 500 ? { outcome: 'unknown', report } : { outcome: 'failed', report };
  }
  if (success) return { outcome: 'created_unreadable', status, why: (error as Error).message };
  const report = reportOf(error);
  if (error instanceof ServiceError) {
    if (error.status === 401) return { outcome: 'failed', report, stop: { reason: 'auth', error } };
    // A 429 or 503 with Retry-After: the service says it did not take the request.
    if (error.retryAfterMs !== undefined) return { outcome: 'failed', report, retryAfterMs: error.retryAfterMs };
    // A 5xx proves nothing: a gateway's 502 or 504 may come after the service created the pet.
    if (error.status >= 500) return { outcome: 'unknown', report };
    return { outcome: 'failed', report };
  }
  // A path the service does not have (a wrong base URL) fails every item alike: the load stops.
  if (error instanceof RequestError && error.code === 'no_such_path')
    return { outcome: 'failed', report, stop: { reason: 'no_such_path', error } };
  if (error instanceof RequestError && error.status !== null) return { outcome: error.status >= 500 ? 'unknown' : 'failed', report };
  // A proxy that refuses the tunnel refuses every item alike: the load stops, nothing of them sent.
  if (error instanceof RequestError && error.code === 'proxy_refused')
    return { outcome: 'not_sent', report, stop: { reason: 'proxy', error } };
  if (error instanceof RequestError && error.notSent) return { outcome: 'not_sent', report };
  if (error instanceof InterruptedError)
    return {
      outcome: 'unknown',
      report: { code: 'interrupted', message: 'sent, then the load was stopped before the service answered', status: null },
    };
  return { outcome: 'unknown', report };
}

function describeCause(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** The error object of a `--failed` line, without a hint: an item's failure message prints none. */
export function reportOf(error: unknown): ErrorReport {
  if (!(error instanceof CliError)) return { code: 'request_failed', message: describeCause(error), status: null };
  const { hint: _hint, ...report } = error.report();
  return report;
}

/** Lines as ranges: [3, 4, 5, 9] → "3-5, 9". */
export function describeLines(lines: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j + 1 < lines.length && lines[j + 1] === lines[j]! + 1) j += 1;
    parts.push(i === j ? `${lines[i]}` : `${lines[i]}-${lines[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/**
 * Where an item is, for messages: "line 4", or "line 4 (item 2)" in a JSON
 * array; an item of a `--failed` file by its first input: "line 7 of
 * pets.ndjson" (the file's name; "standard input" for "-").
 */
export function where(item: ResolvedItem): string {
  if (item.origin) {
    const { line, source } = item.origin;
    if (source === undefined) return `line ${line} of the earlier input`;
    return `line ${line} of ${source === '-' ? 'standard input' : path.basename(source)}`;
  }
  return item.index === undefined ? `line ${item.line}` : `line ${item.line} (item ${item.index})`;
}

/** An item's name for messages, quoted and cut at 40 characters, or "(no name)". */
export function itemName(value: unknown): string {
  const name = typeof value === 'object' && value !== null ? (value as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name) : '(no name)';
}
