/**
 * Stoplight Prism as a validating proxy (`prism proxy <document> <upstream>
 * --errors`) in front of a local server, for the contract run of the
 * end-to-end tests.
 *
 * Prism matches a request's whole path against the document's paths and, by
 * design, ignores the base path of `servers` (its FAQ; stoplightio/prism
 * #1100, #1478): `/v1/pets` would be "no path matched". So Prism listens for
 * `/pets` and forwards to `<upstream>/pets`, the upstream ending in `/v1`;
 * a small front on its own port takes the CLI's requests under `/v1`, strips
 * that segment and passes the rest through unchanged. That keeps the CLI's
 * base URL ending in `/v1`, as every real base address does.
 *
 * The front also collects Prism's verdicts: with `--errors`, Prism answers a
 * request or response that breaks the document with an
 * `application/problem+json` body (422, 401, 404 or 500) instead of the
 * upstream's answer, and marks lesser violations with an `sl-violations`
 * header. Both are recorded, so a test can fail on any of them.
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Child, startChild } from '../helpers.js';
import { DOCUMENT_PATH } from './openapi.js';

/** A running Prism proxy with its `/v1` front. */
export interface PrismProxy {
  /** Base URL for the CLI: the front's address, ending in `/v1`. */
  baseUrl: string;
  /** Violations Prism reported since the last call (`METHOD /path -> status: detail`), then forgets them. */
  takeViolations(): string[];
  /** Stops the front and Prism. */
  stop(): Promise<void>;
}

const READY = /Prism is listening on http:\/\/127\.0\.0\.1:(\d+)/;
const READY_TIMEOUT_MS = 15_000;

/** The `prism` executable of @stoplight/prism-cli, as its package.json `bin` names it. */
function prismBin(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@stoplight/prism-cli/package.json');
  const { bin } = require(manifest) as { bin: { prism: string } };
  return path.join(path.dirname(manifest), bin.prism);
}

/**
 * Starts `prism proxy openapi/petstore.yaml <upstream> --errors` on a free
 * loopback port (Prism reports the one it got for `-p 0`) and the `/v1`
 * front; resolves once both listen. `upstream` is the upstream's base URL,
 * ending in `/v1`. Rejects with Prism's output if it exits or is not ready
 * within 15 s.
 */
export async function startPrismProxy(upstream: string): Promise<PrismProxy> {
  const child = startChild(process.execPath, [prismBin(), 'proxy', DOCUMENT_PATH, upstream, '--errors', '--host', '127.0.0.1', '-p', '0'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prismPort = await readyPort(child);
  const violations: string[] = [];
  const front = http.createServer((req, res) => forward(prismPort, req, res, violations));
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(front.address() as AddressInfo).port}/v1`,
    takeViolations: () => violations.splice(0),
    stop: async () => {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
      await stopChild(child);
    },
  };
}

/** Resolves with the port Prism listens on; rejects (and stops it) if it exits or stays silent. */
async function readyPort(child: Child): Promise<number> {
  const ready = () => READY.exec(child.stdout + child.stderr);
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ready after ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
  });
  try {
    await Promise.race([child.waitFor(() => ready() !== null, 'Prism listened'), silent]);
  } catch (error) {
    child.kill('SIGTERM');
    throw new Error(`Prism did not start: ${(error as Error).message}\n${child.stdout}${child.stderr}`);
  } finally {
    clearTimeout(timer);
  }
  return Number(ready()![1]);
}

async function stopChild(child: Child): Promise<void> {
  if (child.exited) return;
  child.kill('SIGTERM');
  await child.done;
}

/** Passes one request to Prism without its leading `/v1`, and Prism's answer back unchanged; records violations. */
function forward(prismPort: number, req: http.IncomingMessage, res: http.ServerResponse, violations: string[]): void {
  const url = req.url ?? '/';
  const stripped = url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?') ? url.slice('/v1'.length) || '/' : url;
  const upstream = http.request(
    { host: '127.0.0.1', port: prismPort, method: req.method, path: stripped, headers: req.headers },
    (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        const marked = answer.headers['sl-violations'];
        const problem = /^application\/problem\+json/.test(answer.headers['content-type'] ?? '');
        if (marked || problem) {
          violations.push(`${req.method} ${stripped} -> ${answer.statusCode}: ${problem ? body.toString('utf8') : String(marked)}`);
        }
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        res.end(body);
      });
    },
  );
  upstream.on('error', (error) => {
    violations.push(`${req.method} ${stripped} -> no answer from Prism: ${error.message}`);
    res.destroy();
  });
  req.pipe(upstream);
}
