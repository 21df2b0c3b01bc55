// Direct network paths, end to end: petstore against the fake service on
// loopback over http and over https with a test CA, each way a certificate can
// fail, and hosts that answered something petstore cannot read (never
// described as unreachable). In-process, the test CA trusted through tls's
// default CA certificates (trustTestCa); the built binary where the CA comes
// the user's way, NODE_EXTRA_CA_CERTS, which Node reads at a process's start.
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { startPetService, type PetService, type Step } from '../sandbox/pet-service.mjs';
import { createTestPki, trustTestCa, type TestPki } from './fakes/certificates.js';
import { run, spawnPetstore, tempConfigHome, wrapped } from './helpers.js';

const KEY = 'direct-key-7d1c';
const REX = '{"id":1,"name":"Rex","categoryId":1,"status":"available"}\n';
const BELLA = '{"id":3,"name":"Bella","categoryId":1,"status":"available"}\n';
const TRUST =
  'petstore trusts the certificate authorities built into Node.js; to trust another, set NODE_EXTRA_CA_CERTS to its PEM file, ' +
  'or NODE_USE_SYSTEM_CA=1 to use the system certificate store.';

let pki: TestPki;
const services: Record<'http' | 'server' | 'expired' | 'selfSigned' | 'wrongName' | 'unknownCa', PetService> = {} as never;

beforeAll(async () => {
  pki = await createTestPki();
  services.http = await startPetService({ key: KEY });
  for (const kind of ['server', 'expired', 'selfSigned', 'wrongName', 'unknownCa'] as const) {
    services[kind] = await startPetService({ key: KEY, tls: pki[kind] });
  }
});

/** A plain http service on IPv6's loopback, ::1 (a loopback host written in brackets in a URL). */
let ipv6Http: PetService | undefined;
beforeAll(async () => {
  ipv6Http = await startPetService({ key: KEY, host: '::1' });
});

afterAll(async () => {
  await Promise.all([...Object.values(services), ipv6Http].map((service) => service?.close()));
});

/** The built petstore with exactly these variables: the key, a fresh config folder, and `extra`. */
function petstoreProcess(args: string[], extra: NodeJS.ProcessEnv) {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CONFIG_HOME: tempConfigHome(), NO_COLOR: '1', PETSTORE_API_KEY: KEY };
  return spawnPetstore(args, { ...env, PETSTORE_NO_DEPRECATION_WARNING: '1', ...extra });
}

/** petstore in-process with the key, a fresh config folder and `extra`; `stdin` as its input: exit code, stdout, stderr. */
async function petstore(args: string[], extra: NodeJS.ProcessEnv, stdin?: string) {
  const env = { NO_COLOR: '1', PETSTORE_API_KEY: KEY, PETSTORE_NO_DEPRECATION_WARNING: '1', ...extra };
  const { code, stdout, stderr } = await run(args, { env, stdin });
  return { code, stdout, stderr };
}

/** A fake service answering every request with `step`, for one test. */
async function answering(step: Step, run: (service: PetService) => Promise<void>): Promise<void> {
  const service = await startPetService({ key: KEY, faults: [step] });
  try {
    await run(service);
  } finally {
    await service.close();
  }
}

describe('direct paths that work', () => {
  test('http on loopback: the GET reaches the service with the key', async () => {
    const service = services.http;
    const r = await petstore(['get', '1', '--json'], { PETSTORE_BASE_URL: service.baseUrl });
    expect(r).toEqual({ code: 0, stdout: REX, stderr: '' });
    expect(service.requests.at(-1)).toMatchObject({ method: 'GET', url: '/v1/pets/1', headers: { authorization: `Bearer ${KEY}` } });
  });

  test.each(['127.0.0.1', 'localhost'])('https to %s with the test CA given by NODE_EXTRA_CA_CERTS', async (host) => {
    const service = services.server;
    const before = service.requests.length;
    const r = await petstoreProcess(['get', '1', '--json'], {
      PETSTORE_BASE_URL: `https://${host}:${service.port}/v1`,
      NODE_EXTRA_CA_CERTS: pki.caFile,
    });
    expect(r).toEqual({ code: 0, stdout: REX, stderr: '' });
    expect(service.requests.slice(before)).toMatchObject([
      { method: 'GET', url: '/v1/pets/1', headers: { host: `${host}:${service.port}` } },
    ]);
  });
});

describe('GETs of several ids on the direct paths', () => {
  test.each([
    ['http on loopback', 'http', false],
    ['https with the test CA', 'server', true],
  ] as const)('%s: get of several ids and get - print each pet in the order given, each GET with the key', async (_what, kind, withCa) => {
    const service = services[kind];
    if (withCa) onTestFinished(trustTestCa(pki));
    const env = { PETSTORE_BASE_URL: service.baseUrl };
    const before = service.requests.length;
    const several = await petstore(['get', '3', '1', '--json'], env);
    expect(several).toEqual({ code: 0, stdout: `[${BELLA.trim()},${REX.trim()}]\n`, stderr: '' });
    const piped = await petstore(['get', '-', '--format', 'ndjson'], env, '1\r\n\n3 1\n');
    expect(piped).toEqual({ code: 0, stdout: REX + BELLA + REX, stderr: '' });
    const gets = service.requests.slice(before);
    expect(gets.map((q) => `${q.method} ${q.url}`).sort()).toEqual([
      'GET /v1/pets/1',
      'GET /v1/pets/1',
      'GET /v1/pets/3',
      'GET /v1/pets/3',
    ]);
    expect(gets.every((q) => q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });
});

describe('POSTs on the direct paths', () => {
  test.each([
    ['http on loopback', 'http', false],
    ['https with the test CA', 'server', true],
  ] as const)('%s: add and a bulk load from a pipe (add --file -) create each pet once, with the key', async (_what, kind, withCa) => {
    const service = services[kind];
    if (withCa) onTestFinished(trustTestCa(pki));
    const env = { PETSTORE_BASE_URL: service.baseUrl };
    const before = service.requests.length;
    expect(await petstore(['add', '--name', 'Solo', '--category-id', '4', '--json'], env)).toMatchObject({ code: 0, stderr: '' });
    const input = ['Pipe-a', 'Pipe-b'].map((name) => `{"name":"${name}","categoryId":5}\n`).join('');
    const bulk = await petstore(['add', '--file', '-', '--format', 'ndjson'], env, input);
    expect(bulk).toMatchObject({ code: 0, stderr: 'created 2 of 2 pets; 0 failed\n' });
    expect(
      bulk.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).name)
        .sort(),
    ).toEqual(['Pipe-a', 'Pipe-b']);
    const posts = service.requests.slice(before).filter((q) => q.method === 'POST');
    expect(posts.map((q) => JSON.parse(q.body).name).sort()).toEqual(['Pipe-a', 'Pipe-b', 'Solo']);
    expect(posts.every((q) => q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });
});

describe('a certificate that cannot be verified: exit 1, the host, what is wrong, how to trust a CA; nothing sent', () => {
  test('the test CA without NODE_EXTRA_CA_CERTS is an unknown CA', async () => {
    const service = services.server;
    const before = service.requests.length;
    const r = await petstore(['get', '1'], { PETSTORE_BASE_URL: service.baseUrl });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped(
        `error: cannot verify the TLS certificate of ${service.host}: it is issued by a certificate authority that is not trusted ` +
          `(UNABLE_TO_VERIFY_LEAF_SIGNATURE)\n${TRUST}\n`,
      ),
    });
    expect(service.requests.length).toBe(before);
  });

  test.each([
    ['selfSigned', 'it is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)'],
    ['expired', 'it has expired (CERT_HAS_EXPIRED)'],
    ['unknownCa', 'it is issued by a certificate authority that is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE)'],
  ] as const)('%s, with the test CA trusted', async (kind, problem) => {
    const service = services[kind];
    onTestFinished(trustTestCa(pki));
    const r = await petstore(['list'], { PETSTORE_BASE_URL: `https://localhost:${service.port}/v1` });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped(`error: cannot verify the TLS certificate of localhost:${service.port}: ${problem}\n${TRUST}\n`),
    });
    expect(service.requests).toEqual([]);
  });

  test('a certificate for another name; with --json the error is one JSON object and nothing else', async () => {
    const service = services.wrongName;
    onTestFinished(trustTestCa(pki));
    const r = await petstore(['list', '--json'], { PETSTORE_BASE_URL: service.baseUrl });
    const message = `cannot verify the TLS certificate of ${service.host}: it is issued for other names (DNS:wrong.invalid) (ERR_TLS_CERT_ALTNAME_INVALID)`;
    const hint = `Use a base URL whose host is one of the certificate's names. ${TRUST}`;
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `${JSON.stringify({ code: 'tls_certificate', message, status: null, hint })}\n`,
    });
    const plain = await petstore(['list'], { PETSTORE_BASE_URL: service.baseUrl });
    expect(plain.stderr).toBe(wrapped(`error: ${message}\n${hint}\n`));
    expect(service.requests).toEqual([]);
  });
});

describe('a host that answered is never described as unreachable', () => {
  test('response headers over 16 KiB', async () => {
    await answering({ status: 200, headers: { 'x-padding': 'a'.repeat(20 * 1024) }, json: [] }, async (service) => {
      const r = await petstore(['list'], { PETSTORE_BASE_URL: service.baseUrl });
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr: wrapped(
          `error: ${service.host} answered with response headers larger than the 16 KiB petstore reads (UND_ERR_HEADERS_OVERFLOW)\n`,
        ),
      });
      expect(r.stderr).not.toContain('cannot reach');
      expect(service.requests).toHaveLength(1);
    });
  });

  test('an answer that is not HTTP', async () => {
    await answering({ raw: 'SSH-2.0-OpenSSH_9.2\r\n\r\n' }, async (service) => {
      const r = await petstore(['list', '--retries', '0'], { PETSTORE_BASE_URL: service.baseUrl });
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr: wrapped(`error: ${service.host} answered with a response that is not valid HTTP/1.1 (Expected HTTP/, RTSP/ or ICE/)\n`),
      });
    });
  });

  test.each([
    ['127.0.0.1', () => services.http],
    ['[::1]', () => ipv6Http!],
  ])('an https base URL for a server that speaks plain http, on %s', async (_, serviceOf) => {
    const service = serviceOf();
    // A process of its own: in this one, nock's hold on sockets would give the TLS failure another code (EPROTO).
    const r = await petstoreProcess(['list', '--retries', '0'], { PETSTORE_BASE_URL: `https://${service.host}/v1` });
    // The TLS stack's reason for an answer that is not TLS: Node 22's differs from Node 24's (CI runs both).
    const reason = process.versions.node.startsWith('22.') ? 'ERR_SSL_PACKET_LENGTH_TOO_LONG' : 'ERR_SSL_WRONG_VERSION_NUMBER';
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: wrapped(
        `error: the TLS handshake with ${service.host} failed (${reason}): it may not be an https server\n` +
          'If it serves plain http, give its base URL with http:// (petstore sends the key over plain http to loopback only).\n',
      ),
    });
  });
});
