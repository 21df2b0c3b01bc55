/**
 * A scripted HTTP server on 127.0.0.1 for fault tests: each request takes the
 * next step of the script (the last step repeats), and every request is recorded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Step =
  | { status: number; headers?: Record<string, string>; body?: string | Buffer; json?: unknown }
  | { hang: true }
  | { destroy: true }
  | { stream: { chunk: Buffer; times: number; headers?: Record<string, string> } };

export interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FaultServer {
  /** Base URL ending in /v1. */
  baseUrl: string;
  host: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export async function startFaultServer(script: Step[]): Promise<FaultServer> {
  const requests: Recorded[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const step = script[Math.min(requests.length - 1, script.length - 1)]!;
      if ('hang' in step) return;
      if ('destroy' in step) {
        req.socket.destroy();
        return;
      }
      if ('stream' in step) {
        res.writeHead(200, { 'content-type': 'application/json', ...step.stream.headers });
        let sent = 0;
        const pump = () => {
          while (sent < step.stream.times) {
            sent += 1;
            if (!res.write(step.stream.chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        pump();
        return;
      }
      const body = step.json !== undefined ? JSON.stringify(step.json) : (step.body ?? '');
      const headers = step.json !== undefined ? { 'content-type': 'application/json', ...step.headers } : step.headers;
      res.writeHead(step.status, headers);
      res.end(body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: `http://${host}/v1`,
    host,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export const PET = { id: 1, name: 'Rex', categoryId: 2, status: 'available' };
