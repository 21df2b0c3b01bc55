// Proxy paths, end to end: petstore, a test HTTP proxy (CONNECT and
// forwarding; test/fakes/proxy.ts) and the fake service over https with a test
// CA. The base URL's host, petstore.invalid, is known only to the proxy, so a
// success proves that petstore left name resolution to it. In-process, the test
// CA trusted through tls's default CA certificates (trustTestCa); the built
// binary, with NODE_EXTRA_CA_CERTS, for an https proxy given by its IP address
// (what must not appear is a warning Node prints on the process's stderr) and
// for a host left to the resolver (which nock keeps from this process).
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { createTestPki, trustTestCa, type TestPki } from './fakes/certificates.js';
import { startProxy, type TestProxy, type ProxyOptions } from './fakes/proxy.js';
import { readNdjson, run, spawnPetstore, tempConfigHome, wrapped, unwrapped } from './helpers.js';

const KEY = 'proxy-key-3f9a0b';
const BASE_URL = 'https://petstore.invalid/v1';
const REX = '{"id":1,"name":"Rex","categoryId":1,"status":"available"}\n';
const BELLA = '{"id":3,"name":"Bella","categoryId":1,"status":"available"}\n';

let pki: TestPki;
let service: PetService;
let proxy: TestProxy | undefined;
let distrust: () => void;

beforeAll(async () => {
  pki = await createTestPki();
  distrust = trustTestCa(pki);
  service = await startPetService({ key: KEY, tls: pki.server });
});
afterAll(() => {
  distrust();
  return service.close();
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

/** A test proxy that maps petstore.invalid to the fake service. */
async function proxyTo(target: PetService, options: ProxyOptions = {}): Promise<TestProxy> {
  proxy = await startProxy({ hosts: { 'petstore.invalid': target.port }, ...options });
  return proxy;
}

/** The built petstore with exactly these variables: the key, the test CA, the base URL, a fresh config folder, and `extra`. */
function petstoreProcess(args: string[], extra: NodeJS.ProcessEnv) {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CONFIG_HOME: tempConfigHome(), NO_COLOR: '1', PETSTORE_API_KEY: KEY };
  return spawnPetstore(args, {
    ...env,
    NODE_EXTRA_CA_CERTS: pki.caFile,
    PETSTORE_BASE_URL: BASE_URL,
    PETSTORE_NO_DEPRECATION_WARNING: '1',
    ...extra,
  });
}

/** petstore in-process with the key, the base URL, a fresh config folder and `extra`; `stdin` as its input: exit code, stdout, stderr. */
async function petstore(args: string[], extra: NodeJS.ProcessEnv, stdin?: string) {
  const env = { NO_COLOR: '1', PETSTORE_API_KEY: KEY, PETSTORE_BASE_URL: BASE_URL, PETSTORE_NO_DEPRECATION_WARNING: '1', ...extra };
  const { code, stdout, stderr } = await run(args, { env, stdin });
  return { code, stdout, stderr };
}

// Which variable names the proxy, and what NO_PROXY keeps off it, is decided in-process (test/proxy-choice.test.ts);
// here one case of each kind goes through the test proxy end to end.
describe('https through a proxy', () => {
  // Each variable a user may set for an https URL, end to end: that one is chosen is not that it is used.
  test.each(['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY'])(
    '%s: a CONNECT tunnel to petstore.invalid:443; the proxy never sees the key',
    async (variable) => {
      const p = await proxyTo(service);
      const before = service.requests.length;
      const r = await petstore(['list', '--all', '--limit', '3', '--format', 'ndjson'], { [variable]: p.url });
      expect(r.stderr).toBe('');
      expect(r.stdout.split('\n').map((line) => line && JSON.parse(line).name)).toEqual(['Rex', 'Tom', 'Bella', 'Goldie', '']);
      expect(r.code).toBe(0);
      expect(p.log.length).toBeGreaterThan(0);
      expect(p.log.every((entry) => entry.method === 'CONNECT' && entry.target === 'petstore.invalid:443')).toBe(true);
      expect(JSON.stringify(p.log)).not.toContain(KEY);
      // The tunnel carried TLS: the name in the ClientHello shows, the key does not.
      expect(p.tunneled()).toContain('petstore.invalid');
      expect(p.tunneled()).not.toContain(KEY);
      const seen = service.requests.slice(before);
      expect(seen.map((q) => q.url)).toEqual(['/v1/pets?limit=3', expect.stringMatching(/^\/v1\/pets\?limit=3&cursor=\w+$/)]);
      expect(seen.every((q) => q.headers.host === 'petstore.invalid' && q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    },
  );

  test('a proxy given as host:port, without a scheme, is taken as http', async () => {
    const p = await proxyTo(service);
    const r = await petstore(['get', '1', '--json'], { HTTPS_PROXY: `127.0.0.1:${p.port}` });
    expect(r).toEqual({ code: 0, stdout: REX, stderr: '' });
    expect(p.log.map((entry) => entry.method)).toEqual(['CONNECT']);
  });

  test('an https proxy, trusted through the test CA', async () => {
    const p = await proxyTo(service, { tls: pki.server });
    const r = await petstore(['get', '1', '--json'], { HTTPS_PROXY: p.url });
    expect(r).toEqual({ code: 0, stdout: REX, stderr: '' });
    expect(p.log.map((entry) => `${entry.method} ${entry.target}`)).toEqual(['CONNECT petstore.invalid:443']);
  });
  test('an https proxy given by its IP address: nothing but the JSON on stdout, nothing on stderr (no warning of Node)', async () => {
    const p = await proxyTo(service, { tls: pki.server });
    const r = await petstoreProcess(['get', '1', '--json'], { HTTPS_PROXY: p.url.replace('localhost', '127.0.0.1') });
    expect(r).toEqual({ code: 0, stdout: REX, stderr: '' });
    expect(p.log.map((entry) => `${entry.method} ${entry.target}`)).toEqual(['CONNECT petstore.invalid:443']);
  });
});

describe('GETs of several ids through a proxy', () => {
  test('get of several ids and get - go through the tunnel, with the key, each pet in the order given', async () => {
    const p = await proxyTo(service);
    const before = service.requests.length;
    const several = await petstore(['get', '3', '1', '--json'], { HTTPS_PROXY: p.url });
    expect(several).toEqual({ code: 0, stdout: `[${BELLA.trim()},${REX.trim()}]\n`, stderr: '' });
    const piped = await petstore(['get', '-', '--format', 'ndjson'], { HTTPS_PROXY: p.url }, '1\n3 1\n');
    expect(piped).toEqual({ code: 0, stdout: REX + BELLA + REX, stderr: '' });
    const gets = service.requests.slice(before);
    expect(gets.map((q) => `${q.method} ${q.url}`).sort()).toEqual([
      'GET /v1/pets/1',
      'GET /v1/pets/1',
      'GET /v1/pets/3',
      'GET /v1/pets/3',
    ]);
    expect(gets.every((q) => q.headers.host === 'petstore.invalid' && q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(p.log.length).toBeGreaterThan(0);
    expect(p.log.every((entry) => entry.method === 'CONNECT' && entry.target === 'petstore.invalid:443')).toBe(true);
    expect(p.tunneled()).not.toContain(KEY);
  });
});

describe('POSTs through a proxy', () => {
  test('add and a bulk load from a pipe (add --file -) go through the tunnel, with the key, each pet once', async () => {
    const p = await proxyTo(service);
    const before = service.requests.length;
    const one = await petstore(['add', '--name', 'Solo', '--category-id', '4', '--json'], { HTTPS_PROXY: p.url });
    expect(one).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(one.stdout)).toMatchObject({ name: 'Solo', categoryId: 4 });
    const input = ['Pipe-a', 'Pipe-b', 'Pipe-c'].map((name) => `{"name":"${name}","categoryId":5}\n`).join('');
    const bulk = await petstore(['add', '--file', '-', '--format', 'ndjson'], { HTTPS_PROXY: p.url }, input);
    expect(bulk.code).toBe(0);
    expect(bulk.stderr).toBe('created 3 of 3 pets; 0 failed\n');
    expect(
      bulk.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).name)
        .sort(),
    ).toEqual(['Pipe-a', 'Pipe-b', 'Pipe-c']);
    const posts = service.requests.slice(before).filter((q) => q.method === 'POST');
    expect(posts.map((q) => JSON.parse(q.body).name).sort()).toEqual(['Pipe-a', 'Pipe-b', 'Pipe-c', 'Solo']);
    expect(posts.every((q) => q.headers.host === 'petstore.invalid' && q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(p.log.every((entry) => entry.method === 'CONNECT' && entry.target === 'petstore.invalid:443')).toBe(true);
    expect(p.log.length).toBeGreaterThan(0);
    expect(p.tunneled()).not.toContain(KEY);
  });
});

describe('proxy credentials', () => {
  const password = 's3cr:et@pw';
  const withCredentials = (port: number, pass: string) => `http://pet-user:${encodeURIComponent(pass)}@127.0.0.1:${port}`;

  test('user:pass@ in HTTPS_PROXY reaches the proxy as Proxy-Authorization and is printed nowhere', async () => {
    const p = await proxyTo(service, { credentials: `pet-user:${password}` });
    const before = service.requests.length;
    const r = await petstore(['get', '1', '--json', '--verbose'], { HTTPS_PROXY: withCredentials(p.port, password) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(REX);
    expect(p.log.map((entry) => entry.headers['proxy-authorization'])).toEqual([
      `Basic ${Buffer.from(`pet-user:${password}`).toString('base64')}`,
    ]);
    for (const text of [r.stdout, r.stderr]) {
      expect(text).not.toContain('s3cr');
      expect(text).not.toContain(encodeURIComponent(password));
    }
    expect(service.requests.slice(before).map((q) => q.headers['proxy-authorization'])).toEqual([undefined]);
  });

  test.each([
    ['a wrong password', (port: number) => withCredentials(port, 'wrong-s3cr')],
    ['no credentials', (port: number) => `http://127.0.0.1:${port}`],
  ])('%s: exit 1, the 407 explained, no password shown, nothing reaches the service', async (_name, proxyUrl) => {
    const p = await proxyTo(service, { credentials: `pet-user:${password}` });
    const before = service.requests.length;
    const r = await petstore(['list'], { HTTPS_PROXY: proxyUrl(p.port) });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped(
        `error: the proxy 127.0.0.1:${p.port} (from HTTPS_PROXY) refused to open a tunnel to petstore.invalid: HTTP 407 Proxy Authentication Required\n` +
          "Give the proxy's user and password in HTTPS_PROXY, as http://user:password@host:port (percent-encoded).\n",
      ),
    });
    expect(service.requests.length).toBe(before);
  });
});

describe('NO_PROXY', () => {
  test('NO_PROXY=petstore.invalid bypasses the proxy: petstore resolves petstore.invalid itself (and cannot)', async () => {
    const p = await proxyTo(service);
    // A process of its own: the name is asked of the resolver, which nock keeps this process from.
    const r = await petstoreProcess(['list', '--retries', '0'], { HTTPS_PROXY: p.url, NO_PROXY: 'petstore.invalid' });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: cannot reach petstore.invalid: ENOTFOUND\nIs the service running at ${BASE_URL}/?\nThe base URL is from PETSTORE_BASE_URL.\n`,
    });
    expect(p.log).toEqual([]);
  });

  test('no_proxy=*.petstore.invalid does not cover petstore.invalid: the proxy carries the request', async () => {
    const p = await proxyTo(service);
    const r = await petstore(['get', '1', '--json'], { HTTPS_PROXY: p.url, no_proxy: '*.petstore.invalid' });
    expect(r).toEqual({ code: 0, stdout: REX, stderr: '' });
    expect(p.log.map((entry) => entry.target)).toEqual(['petstore.invalid:443']);
  });
});

describe('a loopback base URL never goes through a proxy', () => {
  test('the test proxy forwards a plain request given to it, and logs it (what a loopback request through it would show)', async () => {
    const http = await startPetService({ key: KEY });
    const p = await proxyTo(http);
    const r = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: p.port, path: `${http.baseUrl}/pets/1`, headers: { authorization: `Bearer ${KEY}` } },
        (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode, body }));
        },
      );
      req.on('error', reject).end();
    });
    await http.close();
    expect(r).toEqual({ status: 200, body: REX.trim() });
    expect(p.log.map((entry) => `${entry.method} ${entry.target}`)).toEqual([`GET ${http.baseUrl}/pets/1`]);
  });

  test('http on loopback with HTTP_PROXY and HTTPS_PROXY set: direct, the proxy sees nothing', async () => {
    const http = await startPetService({ key: KEY });
    const p = await proxyTo(http);
    const proxies = { HTTP_PROXY: p.url, HTTPS_PROXY: p.url, http_proxy: p.url, https_proxy: p.url };
    const r = await petstore(['get', '1', '--json'], { ...proxies, PETSTORE_BASE_URL: http.baseUrl });
    await http.close();
    expect(r).toEqual({ code: 0, stdout: REX, stderr: '' });
    expect(p.log).toEqual([]);
    expect(http.requests.map((q) => q.headers.authorization)).toEqual([`Bearer ${KEY}`]);
  });

  test('https to localhost with HTTPS_PROXY set: direct', async () => {
    const p = await proxyTo(service);
    const r = await petstore(['get', '1', '--json'], { HTTPS_PROXY: p.url, PETSTORE_BASE_URL: `https://localhost:${service.port}/v1` });
    expect(r).toEqual({ code: 0, stdout: REX, stderr: '' });
    expect(p.log).toEqual([]);
  });
});

describe('failures on the way through a proxy', () => {
  test('a proxy nobody listens on: the message names the proxy, not the host', async () => {
    const r = await petstore(['list', '--retries', '0'], { HTTPS_PROXY: 'http://127.0.0.1:9' });
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: cannot reach the proxy 127.0.0.1:9 (from HTTPS_PROXY): ECONNREFUSED\n' });
  });

  test('a host the proxy cannot reach: its answer to CONNECT', async () => {
    const p = await proxyTo(service);
    const r = await petstore(['list'], { HTTPS_PROXY: p.url, PETSTORE_BASE_URL: 'https://unknown.invalid/v1' });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped(`error: the proxy 127.0.0.1:${p.port} (from HTTPS_PROXY) could not open a tunnel to unknown.invalid: HTTP 502\n`),
    });
    expect(p.log.map((entry) => `${entry.method} ${entry.target}`)).toEqual(['CONNECT unknown.invalid:443']);
  });

  test('a service that never answers through the tunnel: the --timeout names the host', async () => {
    const hanging = await startPetService({ key: KEY, tls: pki.server, faults: [{ hang: true }] });
    const p = await proxyTo(hanging);
    const r = await petstore(['list', '--timeout', '500'], { HTTPS_PROXY: p.url });
    await hanging.close();
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: request to petstore.invalid timed out after 500 ms (--timeout)\n' });
    expect(hanging.requests.map((q) => q.url)).toEqual(['/v1/pets?limit=20']);
  });

  test('a plain http service at the end of the tunnel: the TLS handshake fails naming the host, and no http:// hint (not loopback)', async () => {
    const plain = await startPetService({ key: KEY });
    const p = await proxyTo(plain);
    // A process of its own, as for the direct path: nock's hold on sockets in this one changes the TLS code.
    const r = await petstoreProcess(['list', '--retries', '0'], { HTTPS_PROXY: p.url });
    await plain.close();
    // The TLS stack's reason for an answer that is not TLS: Node 22's differs from Node 24's (CI runs both).
    const reason = process.versions.node.startsWith('22.') ? 'ERR_SSL_PACKET_LENGTH_TOO_LONG' : 'ERR_SSL_WRONG_VERSION_NUMBER';
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped(`error: the TLS handshake with petstore.invalid failed (${reason}): it may not be an https server\n`),
    });
    expect(plain.requests).toEqual([]);
  });

  test('a self-signed certificate at the end of the tunnel names the host and how to trust a CA', async () => {
    const selfSigned = await startPetService({ key: KEY, tls: pki.selfSigned });
    const p = await proxyTo(selfSigned);
    const r = await petstore(['list'], { HTTPS_PROXY: p.url });
    await selfSigned.close();
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      wrapped(
        'error: cannot verify the TLS certificate of petstore.invalid: it is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)\n' +
          'petstore trusts the certificate authorities built into Node.js; to trust another, set NODE_EXTRA_CA_CERTS to its PEM file, ' +
          'or NODE_USE_SYSTEM_CA=1 to use the system certificate store.\n',
      ),
    );
    expect(selfSigned.requests).toEqual([]);
  });

  test('an https proxy whose own certificate is self-signed: the message names both ends', async () => {
    const p = await proxyTo(service, { tls: pki.selfSigned });
    const r = await petstore(['list'], { HTTPS_PROXY: p.url });
    expect(r.code).toBe(1);
    expect(unwrapped(r.stderr)).toMatch(
      new RegExp(
        `^error: cannot verify the TLS certificate of petstore\\.invalid or of the proxy localhost:${p.port} \\(from HTTPS_PROXY\\): it is self-signed \\(DEPTH_ZERO_SELF_SIGNED_CERT\\)\\n`,
      ),
    );
    expect(p.log).toEqual([]);
  });

  test.each(['ftp://pet-user:hunter2@proxy.example', 'http://[pet-user:hunter2'])(
    'HTTPS_PROXY=%s is refused with exit 2, naming the variable but not its value',
    async (value) => {
      // Checked before any connection: in-process.
      const r = await run(['list'], {
        env: { PETSTORE_API_KEY: KEY, PETSTORE_BASE_URL: BASE_URL, PETSTORE_NO_DEPRECATION_WARNING: '1', HTTPS_PROXY: value },
      });
      expect(r).toEqual({
        code: 2,
        stdout: '',
        stderr: wrapped(
          'error: invalid value for HTTPS_PROXY: it must be a proxy URL such as http://proxy.example:3128 (the value is not shown)\n',
        ),
        unmatched: [],
      });
    },
  );
});

describe('a bulk load through a proxy that refuses the CONNECT', () => {
  const pets = '{"name":"a","categoryId":1}\n{"name":"b","categoryId":2}\n{"name":"c","categoryId":3}\n';

  test.each([
    [
      '407 (no credentials)',
      { credentials: 'pet-user:pw' },
      BASE_URL,
      'refused to open a tunnel to petstore.invalid: HTTP 407 Proxy Authentication Required',
    ],
    ['502 (a host it will not reach)', {}, 'https://elsewhere.invalid/v1', 'could not open a tunnel to elsewhere.invalid: HTTP 502'],
  ] as const)(
    "%s: every item not_sent, the load stops at once with the proxy's answer, exit 1; a rerun sends them",
    async (_, options, baseUrl, said) => {
      const p = await proxyTo(service, options);
      const before = service.requests.length;
      const dir = tempConfigHome();
      const failed = `${dir}/failed.ndjson`;
      const r = await petstore(
        ['add', '--file', '-', '--failed', failed, '--concurrency', '1'],
        { HTTPS_PROXY: p.url, PETSTORE_BASE_URL: baseUrl },
        pets,
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(unwrapped(r.stderr)).toContain(`stopped: created 0 of 3 pets; 0 failed, 3 not sent (written to ${failed})\n`);
      expect(unwrapped(r.stderr)).toContain(`error: the proxy 127.0.0.1:${p.port} (from HTTPS_PROXY) ${said}\n`);
      expect(r.stderr).not.toMatch(/unknown/);
      // One CONNECT tried; the other items were never sent.
      expect(p.log.filter((entry) => entry.method === 'CONNECT')).toHaveLength(1);
      expect(service.requests.length).toBe(before);
      const records = readNdjson(failed);
      expect(records.map((line) => line.outcome)).toEqual(['not_sent', 'not_sent', 'not_sent']);
    },
  );
});
