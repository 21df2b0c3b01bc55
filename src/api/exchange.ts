/** One HTTP exchange via undici's handler API: `request()` would build a Readable per body and grow a bulk load's heap (bench/bulk.mjs). */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { CliError, RequestError } from '../errors.js';

/** The first value of a header that may repeat. */
export function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The service answered `status` (the request reached it), then the body could not be read (timeout, dropped connection, size cap). Exit 1. */
export class BodyReadError extends RequestError {
  override name = 'BodyReadError';

  constructor(
    readonly answeredStatus: number,
    readonly headers: Exchange['headers'],
    override readonly cause: unknown,
  ) {
    super(
      cause instanceof Error ? cause.message : String(cause),
      cause instanceof CliError ? cause.code : 'body_read_failed',
      answeredStatus,
    );
  }
}

export interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body decoded as UTF-8. */
  text: string;
  /** The URL requested, set by the client. */
  url?: string;
}

export interface ExchangeLimits {
  /** Largest body accepted, in bytes; a larger one aborts the exchange with `tooLarge()`. */
  maxBytes: number;
  tooLarge: () => Error;
}

/**
 * Resolves with the response once its body has ended. Rejects with the dispatcher's error, the signal's reason, a TimeoutError after
 * `deadlineMs`, or `limits.tooLarge()`: after a status line, wrapped in a BodyReadError.
 */
export function exchange(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: AbortSignal | null,
  limits: ExchangeLimits,
  deadlineMs?: number,
): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    dispatcher.dispatch(options, new ExchangeHandler(resolve, reject, signal, limits, deadlineMs));
  });
}

/** One exchange's handler: an object with methods, not closures, as bulk loads make thousands. */
class ExchangeHandler implements Dispatcher.DispatchHandler {
  private controller?: Dispatcher.DispatchController;
  private status = 0;
  private headers: Exchange['headers'] = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private settled = false;
  private readonly onAbort: (() => void) | undefined = undefined;
  // Cleared when it settles (an AbortSignal.timeout would live on for its whole delay).
  private readonly timer: NodeJS.Timeout | undefined = undefined;
  private expired: Error | undefined = undefined;

  constructor(
    private readonly resolve: (exchange: Exchange) => void,
    private readonly reject: (error: unknown) => void,
    private readonly signal: AbortSignal | null,
    private readonly limits: ExchangeLimits,
    deadlineMs: number | undefined,
  ) {
    // A bulk load passes no signal (a listener per POST on a long-lived signal costs CPU and memory) and ends its requests with client.abortAll.
    if (signal) {
      this.onAbort = () => this.abortWith(signal.reason);
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
    if (deadlineMs !== undefined) {
      this.timer = setTimeout(
        () => this.abortWith(new DOMException(`the exchange took longer than ${deadlineMs} ms`, 'TimeoutError')),
        deadlineMs,
      );
    }
  }

  abortWith(reason: unknown): void {
    this.expired ??= reason as Error;
    this.controller?.abort(reason as Error);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal?.aborted) controller.abort(this.signal.reason as Error);
    else if (this.expired) controller.abort(this.expired);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 200) return;
    this.status = statusCode;
    this.headers = headers as Exchange['headers'];
    const declared = Number(first(headers['content-length']));
    if (declared > this.limits.maxBytes) controller.abort(this.limits.tooLarge());
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.limits.maxBytes) controller.abort(this.limits.tooLarge());
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (!this.finish()) return;
    const text = this.chunks.length === 1 ? this.chunks[0]!.toString('utf8') : Buffer.concat(this.chunks, this.size).toString('utf8');
    this.resolve({ status: this.status, headers: this.headers, text });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.finish()) this.reject(this.status ? new BodyReadError(this.status, this.headers, error) : error);
  }

  private finish(): boolean {
    if (this.settled) return false;
    this.settled = true;
    if (this.onAbort) this.signal?.removeEventListener('abort', this.onAbort);
    if (this.timer) clearTimeout(this.timer);
    return true;
  }
}
