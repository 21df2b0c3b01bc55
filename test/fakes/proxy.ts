/**
 * An HTTP proxy on 127.0.0.1 for end-to-end tests: CONNECT tunnels (RFC 9110
 * §9.3.6) and plain absolute-URI forwarding, optionally requiring Basic
 * `Proxy-Authorization` (RFC 9110 §11.7.1). It resolves host names only
 * through its own table (e.g. petstore.invalid → a local port), so a name
 * only it knows proves the client left name resolution to the proxy. It logs
 * every request and keeps the bytes clients sent through its tunnels, so
 * tests can check what crossed it in plain text.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { KeyAndCert } from './certificates.js';

/** One request as the proxy saw it. */
export interface ProxyLogEntry {
  method: string;
  /** The request target: "host:port" for CONNECT, an absolute URI when forwarding. */
  target: string;
  headers: http.IncomingHttpHeaders;
}

export interface ProxyOptions {
  /** Names the proxy resolves, each to a port on 127.0.0.1 (any requested port). IP literals 127.x connect as asked. */
  hosts?: Record<string, number>;
  /** "user:password": every request must carry it as Basic Proxy-Authorization, else 407. */
  credentials?: string;
  /** Serve the proxy itself over TLS (an https:// proxy URL). */
  tls?: KeyAndCert;
}

export interface TestProxy {
  /** "http://127.0.0.1:<port>" ("https://localhost:<port>" with `tls`). */
  url: string;
  port: number;
  log: ProxyLogEntry[];
  /** Every byte clients sent into tunnels, as latin1 text (TLS records are opaque; the SNI name shows). */
  tunneled(): string;
  close(): Promise<void>;
}

/** Where the proxy connects for `hostname:port`, or undefined for a name it does not know (answered 502). */
function resolve(hosts: Record<string, number>, hostname: string, port: number): { host: string; port: number } | undefined {
  const mapped = hosts[hostname.toLowerCase()];
  if (mapped !== undefined) return { host: '127.0.0.1', port: mapped };
  return /^127\.\d+\.\d+\.\d+$/.test(hostname) ? { host: hostname, port } : undefined;
}

/** Starts the proxy on a free loopback port. */
export async function startProxy(options: ProxyOptions = {}): Promise<TestProxy> {
  const hosts = options.hosts ?? {};
  const expected = options.credentials === undefined ? undefined : `Basic ${Buffer.from(options.credentials).toString('base64')}`;
  const log: ProxyLogEntry[] = [];
  const tunneled: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const authorized = (req: http.IncomingMessage) => expected === undefined || req.headers['proxy-authorization'] === expected;
  const refuse = '407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0';

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    log.push({ method: req.method ?? '', target: req.url ?? '', headers: req.headers });
    if (!authorized(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"', 'content-length': 0 }).end();
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-length': 0 }).end();
      return;
    }
    const to = resolve(hosts, target.hostname, Number(target.port || 80));
    if (target.protocol !== 'http:' || !to) {
      res.writeHead(502, { 'content-length': 0 }).end();
      return;
    }
    const { 'proxy-authorization': _auth, 'proxy-connection': _conn, ...headers } = req.headers;
    const upstream = http.request({ ...to, method: req.method, path: `${target.pathname}${target.search}`, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
  const server = options.tls ? https.createServer(options.tls, onRequest) : http.createServer(onRequest);

  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    log.push({ method: 'CONNECT', target: req.url ?? '', headers: req.headers });
    client.on('error', () => undefined);
    if (!authorized(req)) return void client.end(`HTTP/1.1 ${refuse}\r\n\r\n`);
    const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? '');
    const to = match ? resolve(hosts, match[1]!, Number(match[2])) : undefined;
    if (!to) return void client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    const upstream = net.connect(to.port, to.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) {
        tunneled.push(head);
        upstream.write(head);
      }
      client.on('data', (chunk: Buffer) => tunneled.push(chunk));
      client.pipe(upstream).pipe(client);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: options.tls ? `https://localhost:${port}` : `http://127.0.0.1:${port}`,
    port,
    log,
    tunneled: () => Buffer.concat(tunneled).toString('latin1'),
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
