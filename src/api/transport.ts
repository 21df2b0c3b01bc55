/** How requests reach the service (a keep-alive Pool, or the HTTPS_PROXY/HTTP_PROXY proxy, never for loopback), and what a failure tells the user. */
import { maxHeaderSize } from 'node:http';
import { Pool, ProxyAgent, type Dispatcher } from 'undici';
import { InterruptedError, RequestError, UsageError } from '../errors.js';
import { isTimeout } from './response.js';
import { anyMethodRetryCode, networkErrorOf, provesNotSent } from './network-errors.js';
import { SAFE_METHODS } from './retry.js';
import { isLoopback } from '../loopback.js';

/** The proxy in use and the variable that named it (for messages; its credentials are never shown). */
export interface ProxyChoice {
  url: URL;
  variable: string;
}

/** undici's timeouts, in milliseconds, and its connections' options (net.connect's). */
export interface Timeouts {
  connect: { timeout: number; noDelay?: boolean };
  headersTimeout: number;
  bodyTimeout: number;
}

/** A network failure with a hint line, such as how to trust a CA. Exit 1. */
export class NetworkError extends RequestError {
  override name = 'NetworkError';

  constructor(
    message: string,
    code: string,
    override readonly hint?: string,
  ) {
    super(message, code);
  }
}

/**
 * The proxy for `url` from `env` (HTTPS_PROXY, HTTP_PROXY, NO_PROXY as undici's EnvHttpProxyAgent reads them), never for loopback; a
 * value without "://" is http. Throws UsageError naming the variable when it is no http(s) URL.
 */
export function proxyFor(url: URL, env: NodeJS.ProcessEnv): ProxyChoice | undefined {
  if (isLoopback(url.hostname)) return undefined;
  const names = url.protocol === 'https:' ? ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] : ['HTTP_PROXY', 'http_proxy'];
  const variable = names.find((name) => env[name]);
  if (variable === undefined || listedInNoProxy(url, env.NO_PROXY || env.no_proxy || '')) return undefined;
  const text = env[variable]!;
  const proxy = URL.parse(text.includes('://') ? text : `http://${text}`);
  if (!proxy || (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') || !proxy.hostname) {
    throw new UsageError(
      `invalid value for ${variable}: it must be a proxy URL such as http://proxy.example:3128 (the value is not shown)`,
    );
  }
  return { url: proxy, variable };
}

function listedInNoProxy(url: URL, noProxy: string): boolean {
  const host = url.hostname
    .replace(/^\[(.+)\]$/, '$1')
    .replace(/(.)\.$/, '$1')
    .toLowerCase();
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  return noProxy.split(/[,\s]+/).some((entry) => {
    if (!entry) return false;
    const parts = /^\[(.+)\](?::(\d+))?$/.exec(entry) ?? (entry.split(':').length === 2 ? /^(.+):(\d+)$/.exec(entry) : null);
    const name = (parts ? parts[1]! : entry.replace(/^\[(.+)\]$/, '$1')).toLowerCase();
    if (parts?.[2] && Number(parts[2]) !== port) return false;
    if (name === '*') return true;
    const suffix = name.replace(/^\*?\./, '').replace(/(.)\.$/, '$1');
    return (!name.startsWith('*') && host === suffix) || host.endsWith(`.${suffix}`);
  });
}

/** The dispatcher for `baseUrl`'s origin: a Pool, or a ProxyAgent (CONNECT for https; credentials as Basic Proxy-Authorization). Throws what {@link proxyFor} throws. */
export function openDispatcher(baseUrl: URL, env: NodeJS.ProcessEnv, timeouts: Timeouts): { dispatcher: Dispatcher; proxy?: ProxyChoice } {
  const proxy = proxyFor(baseUrl, env);
  if (!proxy && isLocalhostName(baseUrl.hostname))
    return { dispatcher: new Pool(baseUrl.origin, { ...timeouts, connect: { ...timeouts.connect, lookup: lookupLoopback } }) };
  if (!proxy) return { dispatcher: new Pool(baseUrl.origin, timeouts) };
  // ProxyAgent times its own connections (to the proxy, and TLS through the tunnel) by connectTimeout.
  return { dispatcher: new ProxyAgent({ uri: proxy.url.href, ...timeouts, connectTimeout: timeouts.connect.timeout }), proxy };
}

const TRUST_HINT =
  'petstore trusts the certificate authorities built into Node.js; to trust another, set NODE_EXTRA_CA_CERTS to its PEM file, ' +
  'or NODE_USE_SYSTEM_CA=1 to use the system certificate store.';

const CERTIFICATE_PROBLEMS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its chain ends in a self-signed certificate authority that is not trusted',
  CERT_HAS_EXPIRED: 'it has expired',
  CERT_NOT_YET_VALID: 'it is not valid yet',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'it is issued by a certificate authority that is not trusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'it is issued by a certificate authority that is not trusted',
  UNABLE_TO_GET_ISSUER_CERT: 'it is issued by a certificate authority that is not trusted',
  CERT_REVOKED: 'it has been revoked',
  CERT_SIGNATURE_FAILURE: 'its signature is not valid',
};

/** `localhost` and names under `.localhost` (RFC 6761, section 6.3). */
function isLocalhostName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost');
}

type LookupCallback = (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void;

/** A `lookup` answering every name with loopback, never asking DNS: a `*.localhost` base URL is trusted as loopback, so it must stay local. */
function lookupLoopback(_hostname: string, options: { family?: number | string; all?: boolean }, callback: LookupCallback): void {
  const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
  const addresses = [
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ].filter((a) => family === 0 || a.family === family);
  if (options.all) callback(null, addresses);
  else callback(null, addresses[0]!.address, addresses[0]!.family);
}

/** The error's code, or its cause's (undici wraps some errors). */
function codeOf(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code ?? e?.cause?.code;
}

/**
 * The error (exit 1) for a request to `host` ("name[:port]") with no usable answer: a certificate's fault, a proxy's or the network's;
 * "cannot reach" the service carries `reachHint`.
 */
export function describeNetworkFailure(error: unknown, host: string, proxy?: ProxyChoice, reachHint?: string): RequestError {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  const viaProxy = proxy ? `the proxy ${proxy.url.host} (from ${proxy.variable})` : '';
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const tlsCode = code === 'UND_ERR_PRX_TLS' ? codeOf(cause) : code;
  // With an https proxy, a certificate error may be the proxy's: undici wraps only a name mismatch of the proxy.
  const whose = code === 'UND_ERR_PRX_TLS' ? viaProxy : proxy?.url.protocol === 'https:' ? `${host} or of ${viaProxy}` : host;
  if (tlsCode === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = (cause as { cert?: { subjectaltname?: string } }).cert?.subjectaltname;
    return new NetworkError(
      `cannot verify the TLS certificate of ${whose}: it is issued for other names${names ? ` (${names})` : ''} (${tlsCode})`,
      'tls_certificate',
      `Use a base URL whose host is one of the certificate's names. ${TRUST_HINT}`,
    );
  }
  if (tlsCode && (CERTIFICATE_PROBLEMS[tlsCode] || /^(CERT_|UNABLE_TO_|.*SELF_SIGNED)/.test(tlsCode))) {
    const problem = CERTIFICATE_PROBLEMS[tlsCode] ?? 'it cannot be verified';
    return new NetworkError(`cannot verify the TLS certificate of ${whose}: ${problem} (${tlsCode})`, 'tls_certificate', TRUST_HINT);
  }
  if (code && (/^ERR_SSL_/.test(code) || code === 'EPROTO')) {
    const withProxy = proxy?.url.protocol === 'https:';
    // In the URL's normal form, as isLoopback takes it ("[::1]" keeps its brackets).
    const hostname = URL.parse(`https://${host}`)?.hostname;
    // Plain http is allowed to loopback only (the key is never sent in clear elsewhere): only there is it the way out.
    const hint =
      !withProxy && hostname !== undefined && isLoopback(hostname)
        ? `If it serves plain http, give its base URL with http:// (petstore sends the key over plain http to loopback only).`
        : undefined;
    return new NetworkError(
      `the TLS handshake with ${withProxy ? whose : host} failed (${code}): it may not be an https server`,
      'tls_failed',
      hint,
    );
  }
  if (code === 'UND_ERR_HEADERS_OVERFLOW') {
    return new RequestError(
      `${host} answered with response headers larger than the ${Math.round(maxHeaderSize / 1024)} KiB petstore reads (${code})`,
      'unexpected_response',
    );
  }
  // undici's HTTPParserError carries no code (it looks up llhttp's error name by number in a map keyed by name).
  if (code?.startsWith('HPE_') || (error as { name?: string })?.name === 'HTTPParserError') {
    const reason = code ?? /\((.+)\)$/.exec(message)?.[1] ?? message;
    return new RequestError(`${host} answered with a response that is not valid HTTP/1.1 (${reason})`, 'unexpected_response');
  }
  if (proxy) {
    const refused = /Proxy response \((\d+)\)/.exec(message);
    if (refused?.[1] === '407') {
      return new NetworkError(
        `${viaProxy} refused to open a tunnel to ${host}: HTTP 407 Proxy Authentication Required`,
        'proxy_refused',
        `Give the proxy's user and password in ${proxy.variable}, as http://user:password@host:port (percent-encoded).`,
      );
    }
    if (refused) return new RequestError(`${viaProxy} could not open a tunnel to ${host}: HTTP ${refused[1]}`, 'proxy_refused');
    if (code === 'UND_ERR_PRX_CONN')
      return new RequestError(`${viaProxy} closed the connection before a tunnel to ${host} was open`, 'proxy_failed');
    // A connection that never reached its peer: the proxy.
    if (networkErrorOf(code)?.says === 'unreachable') return new RequestError(`cannot reach ${viaProxy}: ${code}`, 'network_error');
  }
  // The connection was open and the request may have been read: not "cannot reach".
  if (networkErrorOf(code)?.says === 'dropped') {
    return new RequestError(
      `the connection to ${host} closed before its answer came (${code}); the request may have reached it`,
      'connection_closed',
    );
  }
  return new RequestError(`cannot reach ${host}: ${code ?? message}`, 'network_error', null, reachHint);
}

/**
 * A request with no answer: the InterruptedError of `signal`, a timeout after `timeoutMs` or a network failure (`notSent` if provable).
 * `reachHint` (settings.ts's unreachableHint) is the hint of a service that cannot be reached: a connection refused, no such host or
 * route, none made in time; not when a proxy stands between (then the proxy is what was not reached).
 */
export function describeSendFailure(
  error: unknown,
  host: string,
  signal: AbortSignal | null,
  timeoutMs: number,
  proxy?: ProxyChoice,
  method?: string,
  reachHint?: string,
): Error {
  if (error instanceof RequestError || error instanceof InterruptedError) return error;
  if (signal?.aborted && signal.reason instanceof InterruptedError) return signal.reason;
  const serviceHint = proxy ? undefined : reachHint;
  if (signal?.aborted || isTimeout(error)) {
    const neverSent = provesNotSent(codeOf(error));
    const reached = neverSent || method === undefined || SAFE_METHODS.includes(method) ? '' : '; the request may have reached it';
    const message = `request to ${host} timed out after ${timeoutMs} ms (--timeout)${reached}`;
    // No connection was made in time: the service was not reached.
    const timeout = new RequestError(message, 'timeout', null, neverSent ? serviceHint : undefined);
    timeout.notSent = neverSent;
    return keepNeverConnected(timeout, error);
  }
  const failure = describeNetworkFailure(error, host, proxy, serviceHint);
  // A proxy that refused or dropped the CONNECT: no byte of the request left.
  failure.notSent = provesNotSent(codeOf(error)) || failure.code === 'proxy_refused' || failure.code === 'proxy_failed';
  return keepNeverConnected(failure, error);
}

/** Keeps a never-established connection's error as the `cause` (anyMethodRetryCode finds it: a bulk load sends such a POST again). */
function keepNeverConnected(failure: RequestError, error: unknown): RequestError {
  if (anyMethodRetryCode(error) !== undefined) failure.cause = error;
  return failure;
}
