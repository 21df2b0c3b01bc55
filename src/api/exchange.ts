/**
 * One HTTP exchange through an undici dispatcher, body read whole up to a cap.
 * It uses the dispatcher's handler API directly: a bulk load makes one such
 * exchange per pet, and `request()` would build a Readable stream for each
 * body, garbage that grows the heap (see bench/bulk.mjs).
 */
import type { Dispatcher } from 'undici';

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
    let controller: Dispatcher.DispatchController | undefined;
    let status = 0;
    let headers: Exchange['headers'] = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const onAbort = () => controller?.abort(signal!.reason as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      done();
    };
    dispatcher.dispatch(options, {
      onRequestStart(c) {
        controller = c;
        if (signal?.aborted) c.abort(signal.reason as Error);
      },
      onResponseStart(c, statusCode, responseHeaders) {
        if (statusCode < 200) return;
        status = statusCode;
        headers = responseHeaders as Exchange['headers'];
        const declared = Number(Array.isArray(headers['content-length']) ? headers['content-length'][0] : headers['content-length']);
        if (declared > limits.maxBytes) c.abort(limits.tooLarge());
      },
      onResponseData(c, chunk) {
        size += chunk.length;
        if (size > limits.maxBytes) c.abort(limits.tooLarge());
        else chunks.push(chunk);
      },
      onResponseEnd() {
        settle(() => resolve({ status, headers, text: Buffer.concat(chunks, size).toString('utf8') }));
      },
      onResponseError(_c, error) {
        settle(() => reject(error));
      },
    });
  });
}
