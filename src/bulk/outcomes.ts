/** What happened to each item of a bulk load (created, or one Outcome of failed-file.ts), and what an earlier `--failed` line stands for. */
import path from 'node:path';
import { BodyReadError } from '../api/exchange.js';
import { CliError, InterruptedError, RequestError, ServiceError, type ErrorReport } from '../errors.js';
import type { Outcome } from './failed-file.js';
import { itemFromBytes, itemFromText, type InputItem } from './input-item.js';

/** An input item; a `--failed` line stands for its item (see {@link resolveItem}). */
export interface ResolvedItem extends InputItem {
  /** The outcome an earlier load recorded (a `--failed` line only). */
  previous?: Outcome;
  /** That line as read, to carry it over unchanged. */
  record?: Record<string, unknown>;
  /** Where the item was first read from (a `--failed` line only). */
  origin?: Origin;
}

/** An item's first input: its line there, and the input's path ("-" for stdin) when known. */
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

/** The item a `--file` line stands for: a `--failed` line's `item` (or kept text read again) with its recorded outcome; else the item as is. */
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
  const first = typeof line.line === 'bigint' || typeof line.line === 'number' ? Number(line.line) : Number.NaN;
  const origin: Origin = { line: Number.isSafeInteger(first) && first > 0 ? first : item.line };
  if (typeof line.source === 'string') origin.source = line.source;
  return { ...source, previous, record: line, origin };
}

export type SendResult =
  | { outcome: 'created_unreadable'; status: number; why: string }
  | {
      outcome: Outcome;
      report: ErrorReport;
      stop?: { reason: 'auth' | 'no_such_path' | 'proxy'; error: CliError };
      /** Retry-After of a 429 or 503, in milliseconds: not taken, may be sent again. */
      retryAfterMs?: number;
    };

/** What an answer's status proves of a POST (RFC 9110 §15): a 4xx its refusal (`failed`), but 408, 425, 429, a 3xx or a 5xx nothing. */
export function statusOutcome(status: number): 'failed' | 'unknown' {
  return status >= 400 && status < 500 && status !== 408 && status !== 425 && status !== 429 ? 'failed' : 'unknown';
}

/**
 * Classifies the error of one createPet: a 2xx with an unreadable body is created; a status as {@link statusOutcome} says (a 401 or a
 * missing path also stops the load; Retry-After: its wait); a provably unsent request `not_sent`; anything else `unknown`.
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
    return success ? { outcome: 'unknown', report } : { outcome: statusOutcome(error.answeredStatus), report };
  }
  if (success) return { outcome: 'created_unreadable', status, why: (error as Error).message };
  const report = reportOf(error);
  if (error instanceof ServiceError) {
    if (error.status === 401) return { outcome: 'failed', report, stop: { reason: 'auth', error } };
    if (error.retryAfterMs !== undefined) return { outcome: 'failed', report, retryAfterMs: error.retryAfterMs };
    return { outcome: statusOutcome(error.status), report };
  }
  // A missing path (a wrong base URL) or a refusing proxy fails every item alike: the load stops.
  if (error instanceof RequestError && error.code === 'no_such_path')
    return { outcome: 'failed', report, stop: { reason: 'no_such_path', error } };
  if (error instanceof RequestError && error.status !== null) return { outcome: statusOutcome(error.status), report };
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

/** The `--failed` line's error object, without a hint (an item's failure message prints none). */
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

/** Where an item is, for messages: "line 4", "line 4 (item 2)", or for a `--failed` item "line 7 of pets.ndjson" ("standard input" for "-"). */
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
