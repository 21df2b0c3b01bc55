// An answer compressed with a Content-Encoding petstore did not ask for (issue 38): every command that reads a body ends with exit 1
// and a printable message naming the encoding, never the bytes; petstore sends no Accept-Encoding.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import { type FixedStep, type PetService, type Step, startPetService } from '../sandbox/pet-service.mjs';
import { run, tempConfigHome, wrapped, unwrapped } from './helpers.js';

let service: PetService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const PETS = '[{"id":1,"name":"Rex","categoryId":2,"status":"available"}]';
const PET = '{"id":1,"name":"Rex","categoryId":2,"status":"available"}';

/** `json` compressed as `encoding`, with its Content-Encoding and a JSON type. */
function compressed(json: string, encoding: 'gzip' | 'br' | 'deflate', status = 200): FixedStep {
  const body = { gzip: gzipSync, br: brotliCompressSync, deflate: deflateSync }[encoding](json);
  return { status, headers: { 'content-type': 'application/json', 'content-encoding': encoding }, body };
}

async function answering(...steps: Step[]) {
  service = await startPetService({ key: 'k', faults: steps });
  return {
    base: service.baseUrl,
    env: { PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k', PETSTORE_NO_DEPRECATION_WARNING: '1' },
  };
}

const refused = (coding: string, status = 200) =>
  `the service answered HTTP ${status} with a body compressed as ${coding} (Content-Encoding), which petstore did not ask for and does not decode; the body is not shown`;

/** Printable: no byte of a compressed body reached stderr. */
const PRINTABLE = /^[\x20-\x7e\n]*$/;

describe('list, get, add, api and auth login refuse a compressed answer: exit 1, the encoding named, never the bytes', () => {
  test.each(['gzip', 'br', 'deflate'] as const)('list answered %s: exit 1; the request asked for no encoding', async (encoding) => {
    const { env } = await answering(compressed(PETS, encoding));
    const r = await run(['list'], { env });
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: wrapped(`error: ${refused(encoding)}\n`) });
    expect(service!.requests[0]!.headers['accept-encoding']).toBeUndefined();
    // Not retried: a compressed answer is no transient failure.
    expect(service!.requests).toHaveLength(1);
  });

  test('--json: code unexpected_encoding with the status', async () => {
    const { env } = await answering(compressed(PETS, 'gzip'));
    const r = await run(['list', '--json'], { env });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)).toEqual({ code: 'unexpected_encoding', message: refused('gzip'), status: 200 });
  });

  test('any other coding too, named as sent (sanitised); identity is no encoding', async () => {
    const { env } = await answering(
      { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'x-weird\u009b31m, identity' }, body: PETS },
      { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'identity' }, body: PETS },
    );
    const weird = await run(['list'], { env });
    expect(weird).toMatchObject({ code: 1, stdout: '' });
    // The escape sequence is gone (its bytes arrive as the header's latin1 reading of them: what is left is printable).
    expect(weird.stderr).toMatch(
      /^error: the service answered HTTP 200 with a body compressed as x-weird[^\u001b\u009b]* \(Content-Encoding\)/,
    );
    expect(weird.stderr).not.toMatch(/[\u001b\u009b]/);
    const plain = await run(['list'], { env });
    expect(plain).toMatchObject({ code: 0, stdout: '1\tRex\t2\tavailable\n', stderr: '' });
  });

  test('list --all: page 2 compressed; page 1 stays printed, the listing cut there', async () => {
    const first: FixedStep = {
      status: 200,
      json: [{ id: 1, name: 'Rex', categoryId: 2 }],
      headers: { link: '</v1/pets?page=2>; rel="next"' },
    };
    const { base, env } = await answering(first, compressed(PETS, 'gzip'));
    const r = await run(['list', '--all', '--format', 'ndjson'], { env });
    expect(r).toMatchObject({
      code: 1,
      stdout: '{"id":1,"name":"Rex","categoryId":2}\n',
      stderr: wrapped(
        `error: the listing stopped at page 2, after 1 pet: ${refused('gzip')}\nthe rest of the listing starts at the page that failed: ${base}/pets?page=2\n`,
      ),
    });
  });

  test('an error status compressed: exit 1, the status and the encoding, no bytes', async () => {
    const { env } = await answering(compressed('{"code":"internal","message":"broke","status":500}', 'gzip', 500));
    const r = await run(['get', '1', '--retries', '0'], { env });
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: wrapped(`error: ${refused('gzip', 500)}\n`) });
  });

  test('get answered gzip', async () => {
    const { env } = await answering(compressed(PET, 'gzip'));
    const r = await run(['get', '1'], { env });
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: wrapped(`error: ${refused('gzip')}\n`) });
  });

  test('add answered 201 gzip: the pet was created (the store holds it once), and the message says so and how to look', async () => {
    const { env } = await answering({ serveThen: compressed(PET, 'gzip', 201) });
    const r = await run(['add', '--name', 'Rex', '--category-id', '2'], { env });
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: wrapped(
        `error: ${refused('gzip', 201)}\n` +
          'The service answered HTTP 201: the pet was created, but its answer could not be read; petstore does not send it again. ' +
          'See whether a pet named "Rex" in category 2 is in the store before adding it again:\n  petstore list --all --format tsv\n',
      ),
    });
    expect([...service!.pets.values()].filter((p) => p.name === 'Rex')).toHaveLength(2);
    expect(service!.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
  });

  test('add --file: each pet answered 201 gzip is created, once, with a printable warning', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-enc-')), 'pets.ndjson');
    fs.writeFileSync(file, '{"name":"A","categoryId":1}\n{"name":"B","categoryId":1}\n');
    service = await startPetService({ key: 'k', seed: false, faults: () => ({ serveThen: compressed('{}', 'gzip', 201) }) });
    const r = await run(['add', '--file', file], { env: { PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k' } });
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(PRINTABLE);
    expect(unwrapped(r.stderr)).toContain(
      `was created (HTTP 201), but its answer could not be read: ${refused('gzip', 201)}; it is not sent again`,
    );
    expect(service.pets.size).toBe(2);
    expect(service.requests).toHaveLength(2);
  });

  test('auth login: the key is not stored, the check names the encoding', async () => {
    const { base } = await answering(compressed(PETS, 'gzip'));
    const r = await run(['auth', 'login', '--with-token', '--base-url', base], { configHome: tempConfigHome(), stdin: 'k\n' });
    expect(r).toMatchObject({
      code: 1,
      stderr: wrapped(
        `error: cannot check the key: ${refused('gzip')}; nothing was stored\nTry again, or store it unchecked with --skip-verify.\n`,
      ),
    });
  });

  test('api: exit 1 like every command (it reads bodies as text: the bytes could not be printed intact)', async () => {
    const { env } = await answering(compressed(PETS, 'gzip'));
    const r = await run(['api', '/pets'], { env });
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: wrapped(`error: ${refused('gzip')}\n`) });
  });

  test('api -H "Accept-Encoding: gzip": the encoding was asked for, and the message says to leave the header out', async () => {
    const { env } = await answering(compressed(PETS, 'gzip'));
    const r = await run(['api', '/pets', '-H', 'Accept-Encoding: gzip'], { env });
    expect(service!.requests[0]!.headers['accept-encoding']).toBe('gzip');
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: wrapped(
        'error: the service answered HTTP 200 with a body compressed as gzip (Content-Encoding), which petstore does not decode; the body is not shown\n' +
          'Leave out the Accept-Encoding header: petstore reads bodies as they are sent, uncompressed.\n',
      ),
    });
  });
});
