// How sandbox/pet-service.mjs answers one request: from the store, with a
// fixed answer, or with a fault (hang, destroy, raw bytes, drip, drop or
// another answer after creating, unreadable body, large stream). Step shapes are described in pet-service.d.mts.
import { toJson } from './pet-store.mjs';

/**
 * Carries out `step` for a request whose body has been read. `serve()` makes
 * the store act (a POST creates its pet) and returns its answer
 * {status, headers, body}; `timers` collects the timers a close must clear.
 */
export function perform(step, { req, res, serve, timers }) {
  res.on('error', () => undefined);
  if (step.until) {
    const { until, ...rest } = step;
    void until.then(() => perform(rest, { req, res, serve, timers }));
    return;
  }
  if (step.delayMs) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      perform({ ...step, delayMs: 0 }, { req, res, serve, timers });
    }, step.delayMs);
    timers.add(timer);
    return;
  }
  if (step.hang) return;
  if (step.destroy) return void req.socket.destroy();
  if (step.raw !== undefined) return void req.socket.end(step.raw);
  if (step.serveThenDestroy) {
    serve();
    return void req.socket.destroy();
  }
  if (step.serveThen) {
    serve();
    return write(res, fixed(step.serveThen));
  }
  if (step.serveUnreadable) return unreadable(step.serveUnreadable, serve(), res);
  if (step.drip) return drip(step.drip, res, timers);
  if (step.stream) return stream(step.stream, res);
  if (step.status !== undefined) return write(res, fixed(step));
  return write(res, serve());
}

/** The {status, headers, body} of a fixed answer step: `json` is written as JSON (bigints exact), else `body`. */
function fixed({ status, headers = {}, body = '', json }) {
  if (json === undefined) return { status, headers, body };
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: toJson(json) };
}

function hasHeader(headers, name) {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/** Writes a whole answer, with a Content-Length unless the step declared one. */
function write(res, { status, headers, body }) {
  const length = hasHeader(headers, 'content-length') ? {} : { 'content-length': Buffer.byteLength(body) };
  res.writeHead(status, { ...headers, ...length });
  res.end(body);
}

/**
 * The store's answer made unreadable: 'malformed-json' sends the first half of
 * the body as the whole body; 'short-body' declares the full Content-Length,
 * sends half and never the rest (the connection stays open until the client
 * gives up or the service closes).
 */
function unreadable(kind, { status, headers, body }, res) {
  const bytes = Buffer.from(body);
  const half = bytes.subarray(0, Math.floor(bytes.length / 2));
  if (kind === 'malformed-json') return write(res, { status, headers, body: half });
  if (kind !== 'short-body') throw new Error(`unknown serveUnreadable kind: ${kind}`);
  res.writeHead(status, { ...headers, 'content-length': bytes.length });
  res.write(half);
}

/** Status and headers at once, then the body one byte every `intervalMs` (default 10 ms). */
function drip({ status = 200, headers = {}, body = '', json, intervalMs = 10 }, res, timers) {
  const answer = fixed({ status, headers, body, json });
  const bytes = Buffer.from(answer.body);
  res.writeHead(answer.status, { ...answer.headers, 'content-length': bytes.length });
  res.flushHeaders();
  let sent = 0;
  const timer = setInterval(() => {
    if (sent === bytes.length) {
      stop();
      res.end();
      return;
    }
    res.write(bytes.subarray(sent, sent + 1));
    sent += 1;
  }, intervalMs);
  const stop = () => {
    clearInterval(timer);
    timers.delete(timer);
  };
  timers.add(timer);
  res.on('close', stop);
}

/** `chunk` written `times` times, honouring back-pressure (a large body). */
function stream({ chunk, times, status = 200, headers = {} }, res) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  let sent = 0;
  const pump = () => {
    while (sent < times) {
      sent += 1;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}
