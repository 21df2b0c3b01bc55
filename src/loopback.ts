/** Loopback host names: where plain http may carry the API key (settings.ts) and where no proxy is used (api/transport.ts). */

/** True for localhost, 127.0.0.0/8 and ::1, in WHATWG URL normal form ("127.1" arrives as "127.0.0.1"). */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]';
}
