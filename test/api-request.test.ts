// petstore api: what reaches the service. Method, URL, query string, headers
// and body built from -X, -f, -F, -H and --input, and every bad flag refused
// (exit 2) before anything is sent. The request through main with the fake client (-f and -F share one list in the declaration,
// which keeps their order); the refusals through parseCommand.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { newApiCommand } from '../src/commands/api/api.js';
import type { RunSetup } from './helpers.js';
import { parseCommand, refusedBeforeRun, wrapped } from './helpers.js';
import { FAKE_ORIGIN, fakeClientFactory } from './support/fake-client.js';

const BASE = FAKE_ORIGIN;

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A fake service that answers one `method` on any path; `api(argv)` runs petstore api with those arguments through main, `seen` the
 * requests as they arrived (URL, headers, body).
 */
function mock(method: string, status = 200, body = '{"ok":true}') {
  const fake = fakeClientFactory();
  fake.service.intercept({ method, path: () => true }).reply(status, body, { headers: { 'content-type': 'application/json' } });
  const seen = (): Seen[] => fake.sent.map((q) => ({ method: q.method, url: `${q.origin}${q.path}`, headers: q.headers, body: q.body }));
  const api = (argv: string[], setup: RunSetup = {}) => fake.main(['api', ...argv], setup);
  return { api, seen };
}

function tempFile(content: string | Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-api-')), 'body');
  fs.writeFileSync(file, content);
  return file;
}

describe('the request', () => {
  test('a GET of a path under the base URL, with the key and the service headers; the body printed exact', async () => {
    const { api, seen } = mock('GET', 200, '{"orders":[{"id":9007199254740993}]}');
    const r = await api(['/store/orders']);
    expect(r).toEqual({ code: 0, stdout: '{"orders":[{"id":9007199254740993}]}\n', stderr: '', unmatched: [] });
    expect(seen()).toEqual([
      {
        method: 'GET',
        url: `${BASE}/v1/store/orders`,
        headers: expect.objectContaining({ authorization: 'Bearer test-key', accept: 'application/json', 'user-agent': 'petstore/1.2.3' }),
        body: '',
      },
    ]);
    expect(seen()[0]!.headers).not.toHaveProperty('content-type');
  });

  test.each([['store/orders?status=open'], ['/store/orders?status=open'], [`${BASE}/v1/store/orders?status=open`]])(
    'the path %s: relative to the base URL, or a URL of its origin',
    async (given) => {
      const { api, seen } = mock('GET');
      expect((await api([given])).code).toBe(0);
      expect(seen()[0]!.url).toBe(`${BASE}/v1/store/orders?status=open`);
    },
  );

  test('-f and -F build a JSON object, keys in the order given, and POST it: typed values exact, nested keys, @file and @- read as text', async () => {
    const { api, seen } = mock('POST', 201);
    const file = tempFile('line one\n');
    const r = await api(
      [
        '/store/orders',
        '-f',
        'note=01',
        '-F',
        'petId=9007199254740993',
        '-F',
        'price=1.50',
        '-F',
        'big=1e400',
        '-F',
        'paid=true',
        '-F',
        'gift=false',
        '-F',
        'ref=null',
        '-F',
        'count=01',
        '-f',
        'raw=true',
        '-F',
        'ship[city]=Oslo',
        '-F',
        'ship[zip]=0150',
        '-F',
        'tags[]=a',
        '-F',
        'tags[]=2',
        '-F',
        `text=@${file}`,
        '-F',
        'stdin=@-',
      ],
      { stdin: 'from stdin' },
    );
    expect(r).toMatchObject({ code: 0, stdout: '{"ok":true}\n', stderr: '' });
    expect(seen()[0]).toMatchObject({ method: 'POST', headers: expect.objectContaining({ 'content-type': 'application/json' }) });
    expect(seen()[0]!.body).toBe(
      '{"note":"01","petId":9007199254740993,"price":1.50,"big":1e400,"paid":true,"gift":false,"ref":null,"count":"01","raw":"true",' +
        '"ship":{"city":"Oslo","zip":"0150"},"tags":["a",2],"text":"line one\\n","stdin":"from stdin"}',
    );
  });

  test('-X GET with fields: they go to the query string, typed values as their JSON text', async () => {
    const { api, seen } = mock('GET');
    const r = await api([
      '/store/orders?a=1',
      '-X',
      'get',
      '-f',
      'status=open',
      '-F',
      'limit=2',
      '-F',
      'ids[]=9007199254740993',
      '-F',
      'x=null',
    ]);
    expect(r.code).toBe(0);
    expect(seen()[0]).toMatchObject({
      method: 'GET',
      body: '',
      url: `${BASE}/v1/store/orders?a=1&status=open&limit=2&ids%5B%5D=9007199254740993&x=null`,
    });
  });

  test.each(['PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'])('-X %s is sent as given', async (method) => {
    const { api, seen } = mock(method, 204, '');
    const r = await api(['/store/orders/1', '-X', method.toLowerCase()]);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '', unmatched: [] });
    expect(seen().map((s) => s.method)).toEqual([method]);
  });

  test('--input sends the file as is (POST by default); fields then go to the query string; -H sets headers', async () => {
    const { api, seen } = mock('POST', 201);
    const body = '{ "petId": 9007199254740993,\n  "note": "\u00e9" }\n';
    const r = await api([
      '/store/orders',
      '--input',
      tempFile(body),
      '-f',
      'dryRun=true',
      '-H',
      'Content-Type: application/merge-patch+json',
      '-H',
      'X-Trace:  a ',
      '-H',
      'x-trace: b',
    ]);
    expect(r.code).toBe(0);
    expect(seen()[0]).toMatchObject({ method: 'POST', url: `${BASE}/v1/store/orders?dryRun=true`, body });
    expect(seen()[0]!.headers).toMatchObject({
      'content-type': 'application/merge-patch+json',
      'x-trace': 'a, b',
      authorization: 'Bearer test-key',
    });
  });

  test('--input - reads standard input; -X PUT', async () => {
    const { api, seen } = mock('PUT');
    const r = await api(['/store/orders/7', '-X', 'PUT', '--input', '-'], { stdin: '[1,2]' });
    expect(r.code).toBe(0);
    expect(seen()[0]).toMatchObject({
      method: 'PUT',
      body: '[1,2]',
      headers: expect.objectContaining({ 'content-type': 'application/json' }),
    });
  });

  test('--verbose shows the request with the key redacted', async () => {
    const { api } = mock('GET');
    const r = await api(['/store/orders', '--verbose', '-H', 'X-Trace: 1']);
    expect(r.stderr).toContain(`> GET ${BASE}/v1/store/orders\n> authorization: Bearer [redacted]\n`);
    expect(r.stderr).toContain('> x-trace: 1\n');
    expect(r.stderr).not.toContain('test-key');
  });
});

describe('bad flags exit 2 and send nothing', () => {
  const file = () => tempFile('{}');
  test.each([
    [['-X', 'FETCH'], 'invalid value for --method: "FETCH": allowed values: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS'],
    [['-f', 'novalue'], 'invalid value for --raw-field: "novalue": expected key=value'],
    [['-F', '=1'], 'invalid value for --field: "=1": expected key=value'],
    [['-F', 'a=1', '-F', 'a=2'], 'invalid value for --field: "a": set twice'],
    [['-f', 'a=1', '-f', 'a[b]=2'], 'invalid value for --raw-field: "a[b]": a is already set to something that is not an object'],
    [['-f', 'a[]=1', '-f', 'a[x]=2'], 'invalid value for --raw-field: "a[x]": a is already set to something that is not an object'],
    [['-f', 'a[][b]=1'], 'invalid value for --raw-field: "a[][b]": [] goes only at the end of a key'],
    [['-F', 'a=@'], 'invalid value for --field: "@" names no file (@path, or @- for standard input)'],
    [['-F', 'a=@/nonexistent/file'], 'cannot read --field @/nonexistent/file: ENOENT'],
    [['--input', '/nonexistent/file'], 'cannot read --input /nonexistent/file: ENOENT'],
    [['--input', os.tmpdir()], `cannot read --input ${os.tmpdir()}: EISDIR`],
    [['--input', '-', '-F', 'a=@-'], 'standard input can be read once: give "-" to one of --input and -F key=@-'],
    [['-X', 'GET', '--input', 'FILE'], '--input sends a body, which GET does not take: use -X POST, PUT or PATCH'],
    [['--paginate', '-X', 'POST'], '--paginate follows the pages of a GET, not of POST'],
    [['-H', 'NoColon'], 'invalid value for --header: "NoColon": expected "Name: value" on one line'],
    [['-H', 'Bad Name: x'], 'invalid value for --header: "Bad Name: x": expected "Name: value" on one line'],
    [
      ['-H', 'Authorization: Bearer other'],
      '--header Authorization is not allowed: petstore sends the API key of "auth login" (or PETSTORE_API_KEY) itself, and a key on the command line ends up in shell history',
    ],
    [['-H', 'host: evil.example'], "--header host is not allowed: the host is the base URL's"],
    [['-H', 'Content-Length: 1'], '--header Content-Length is not allowed: petstore frames the body itself'],
  ])('%j', async (flags, message) => {
    const args = flags.map((flag) => (flag === 'FILE' ? file() : flag));
    expect(await parseCommand(newApiCommand, ['api', '/store/orders', ...args])).toEqual(refusedBeforeRun(message));
  });

  test('--input that is not UTF-8 text', async () => {
    const r = await parseCommand(newApiCommand, ['api', '/x', '--input', tempFile(Buffer.from([0x7b, 0xff, 0x7d]))]);
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^error: cannot read --input .*: not UTF-8 text\n$/),
      reached: [],
    });
  });

  test('an empty path, and a URL of another origin (the key never leaves its origin)', async () => {
    expect(await parseCommand(newApiCommand, ['api', ' '])).toEqual(
      refusedBeforeRun('the path is empty: give one under the base URL, such as /store/orders'),
    );
    // The base URL decides which origin is another: the run's check, through main.
    for (const url of [`https://evil.example/v1/store/orders`, 'http://petstore.example/v1/pets', 'https://petstore.example:444/v1/pets']) {
      const fake = fakeClientFactory();
      expect(await fake.main(['api', url])).toEqual({
        code: 2,
        stdout: '',
        stderr: wrapped(
          `error: refusing to send the API key to another origin: ${new URL(url).origin}; give a path under the base URL or a URL of ${BASE}\n`,
        ),
        unmatched: [],
      });
      expect(fake.requests).toEqual([]);
    }
  });

  test('no key: exit 4, nothing sent', async () => {
    const fake = fakeClientFactory({ env: { PETSTORE_API_KEY: undefined } });
    expect(await fake.main(['api', '/store/orders'])).toMatchObject({ code: 4, stdout: '' });
    expect(fake.requests).toEqual([]);
  });
});
