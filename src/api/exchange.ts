/**
 * One HTTP exchange through an undici dispatcher, body read whole up to a cap.
 * It uses the dispatcher's handler API directly: a bulk load makes one such
 * exchange per pet, and `request()` would build a Readable stream for each
 * body, garbage that grows the heap (see bench/bulk.mjs).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { first } from './response.js';

/** A complete response. */
export interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body decoded as UTF-8. */
  text: string;
}

export interface ExchangeLimits {
  /** Largest body accepted, in bytes; a larger one aborts the exchange with `tooLarge()`. */
  maxBytes: number;
  tooLarge: () => Error;
}

/**
 * Sends `options` and resolves with the response once its body has ended.
 * Rejects with the dispatcher's error (connection, timeout), with the
 * signal's reason when `signal` aborts, or with `limits.tooLarge()`.
 */
export function exchange(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: AbortSignal | null,
  limits: ExchangeLimits,
): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    dispatcher.dispatch(options, new ExchangeHandler(resolve, reject, signal, limits));
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
  private readonly onAbort?: () => void;

  constructor(
    private readonly resolve: (exchange: Exchange) => void,
    private readonly reject: (error: unknown) => void,
    private readonly signal: AbortSignal | null,
    private readonly limits: ExchangeLimits,
  ) {
    if (signal) {
      this.onAbort = () => this.controller?.abort(signal.reason as Error);
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal?.aborted) controller.abort(this.signal.reason as Error);
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
    if (this.finish()) this.reject(error);
  }

  /** True the first time: an exchange settles once. */
  private finish(): boolean {
    if (this.settled) return false;
    this.settled = true;
    if (this.onAbort) this.signal?.removeEventListener('abort', this.onAbort);
    return true;
  }
}
