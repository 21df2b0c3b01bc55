// End-to-end: --jq and `petstore api` against the sandbox on a random loopback
// port, ids above 2^53; in-process, but for what only a process shows (the
// built bin/petstore.js, or PETSTORE_E2E_BIN): jq inside the bundle, the
// process's environment, api's exit code 3 end to end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { run, spawnAsync, spawnPetstore, tempConfigHome, type ChildResult, wrapped } from './helpers.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const FIRST_ID = 9007199254740993n;
let sandbox: PetService;

beforeAll(async () => {
  sandbox = await startPetService({ key: 'e2e-key', firstId: FIRST_ID, seed: false, pageSize: 2 });
});

afterAll(async () => {
  await sandbox.close();
});

const SERVICE_ENV = () => ({ PETSTORE_BASE_URL: sandbox.baseUrl, PETSTORE_API_KEY: 'e2e-key', PETSTORE_NO_DEPRECATION_WARNING: '1' });

/** petstore in-process with a fresh config folder: exit code, stdout, stderr. */
async function petstore(args: string[], stdin = '', env: NodeJS.ProcessEnv = {}): Promise<ChildResult> {
  const { code, stdout, stderr } = await run(args, { env: { NO_COLOR: '1', ...SERVICE_ENV(), ...env }, stdin });
  return { code, stdout, stderr };
}

/** The built binary as a child process. */
function petstoreProcess(args: string[], stdin = '', env: NodeJS.ProcessEnv = {}): Promise<ChildResult> {
  return spawnPetstore(
    args,
    {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      XDG_CONFIG_HOME: tempConfigHome(),
      NO_COLOR: '1',
      PETSTORE_BASE_URL: sandbox.baseUrl,
      PETSTORE_API_KEY: 'e2e-key',
      PETSTORE_NO_DEPRECATION_WARNING: '1',
      ...env,
    },
    stdin,
  );
}

const seen = () => sandbox.requests.map((r) => `${r.method} ${r.url}`);

describe('--jq against the sandbox', () => {
  test('add, add --file, get and list: ids above 2^53 exact, strings raw', async () => {
    const added = await petstore([
      'add',
      '--name',
      'Rex',
      '--category-id',
      '9223372036854775807',
      '--jq',
      '"\\(.id) \\(.name) \\(.categoryId)"',
    ]);
    expect(added).toEqual({ code: 0, stdout: `${FIRST_ID} Rex 9223372036854775807\n`, stderr: '' });
    const bulk = await petstore(
      ['add', '--file', '-', '--concurrency', '1', '--jq', '.id'],
      '{"name":"Tom","categoryId":2}\n{"name":"Kit","categoryId":3}\n',
    );
    expect(bulk).toEqual({ code: 0, stdout: `${FIRST_ID + 1n}\n${FIRST_ID + 2n}\n`, stderr: 'created 2 of 2 pets; 0 failed\n' });
    const got = await petstore(['get', String(FIRST_ID), '--jq', '.categoryId']);
    expect(got).toEqual({ code: 0, stdout: '9223372036854775807\n', stderr: '' });
    const all = await petstore(['list', '--all', '--jq', '[.[].id] | map(tostring) | join(",")']);
    expect(all).toEqual({ code: 0, stdout: `${FIRST_ID},${FIRST_ID + 1n},${FIRST_ID + 2n}\n`, stderr: '' });
    const each = await petstore(['list', '--limit', '2', '--format', 'ndjson', '--jq', '.name']);
    expect(each).toMatchObject({ code: 0, stdout: 'Rex\nTom\n' });
  });

  test('jq travels inside the bundle: a copy of bin/ and dist/ alone, without node_modules, runs --jq', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-copy-'));
    // What npm ships of them: not a standalone executable (over 100 MiB) a build:standalone left in dist/.
    const shipped = (file: string) => !/[/\\]petstore-[^/\\]+-[^/\\]+$/.test(file);
    for (const folder of ['bin', 'dist']) fs.cpSync(path.join(ROOT, folder), path.join(root, folder), { recursive: true, filter: shipped });
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(root, 'package.json'));
    expect(fs.readdirSync(path.join(root, 'dist')).filter((name) => name.endsWith('.wasm'))).toEqual([]);
    const env = {
      PATH: process.env.PATH,
      HOME: root,
      XDG_CONFIG_HOME: root,
      PETSTORE_BASE_URL: sandbox.baseUrl,
      PETSTORE_API_KEY: 'e2e-key',
    };
    const r = await spawnAsync(process.execPath, [path.join(root, 'bin', 'petstore.js'), 'list', '--limit', '1', '--jq', '.[0].id'], env);
    expect(r).toMatchObject({ code: 0, stdout: `${FIRST_ID}\n` });
  });

  test("$ENV and env are the process's environment, in the built bundle too", async () => {
    const r = await petstoreProcess(['api', '/pets', '--jq', '$ENV.HOME, env.PETSTORE_BASE_URL, $ENV.USER'], '', { HOME: '/home/e2e' });
    expect(r).toEqual({ code: 0, stdout: `/home/e2e\n${sandbox.baseUrl}\nnull\n`, stderr: '' });
  });

  test('an invalid expression exits 2 and no request reaches the service', async () => {
    const before = sandbox.requests.length;
    for (const args of [
      ['list'],
      ['get', '1'],
      ['add', '--name', 'a', '--category-id', '1'],
      ['add', '--file', '-'],
      ['api', '/store/orders'],
    ]) {
      const r = await run([...args, '--jq', '.[] |'], {
        env: SERVICE_ENV(),
        stdin: '{"name":"a","categoryId":1}\n',
      });
      expect(r, args.join(' ')).toEqual({
        code: 2,
        stdout: '',
        stderr: wrapped(
          'error: invalid --jq expression: syntax error, unexpected end of file at <top-level>, line 1, column 5:\n    .[] |\n        ^\n',
        ),
        unmatched: [],
      });
    }
    expect(sandbox.requests.length).toBe(before);
  });
});

describe('petstore api against the sandbox', () => {
  test('GET /store/orders: the service has no such route here, so exit 3 with its Error body on stderr', async () => {
    const r = await petstoreProcess(['api', '/store/orders']);
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr:
        '{"code":"not_found","message":"no route GET /v1/store/orders","status":404}\nerror: no route GET /v1/store/orders (HTTP 404, code not_found)\n',
    });
    expect(seen().at(-1)).toBe('GET /v1/store/orders');
  });

  test('POST built from fields, then GET it back; --include; ids above 2^53 exact', async () => {
    const created = await petstore(['api', '/pets', '-f', 'name=Max', '-F', 'categoryId=9007199254740995', '-f', 'status=sold', '-i']);
    expect(created.code).toBe(0);
    expect(created.stderr).toBe('');
    expect(created.stdout).toMatch(
      /^HTTP\/1\.1 201 Created\ncontent-type: application\/json\n(.+\n)*\n\{"id":(\d+),"name":"Max","categoryId":9007199254740995,"status":"sold"\}\n$/,
    );
    expect(sandbox.requests.at(-1)!.body).toBe('{"name":"Max","categoryId":9007199254740995,"status":"sold"}');
    const id = /"id":(\d+)/.exec(created.stdout)![1]!;
    expect(BigInt(id) > FIRST_ID).toBe(true);
    const got = await petstore(['api', `/pets/${id}`, '--jq', '.id, .categoryId']);
    expect(got).toEqual({ code: 0, stdout: `${id}\n9007199254740995\n`, stderr: '' });
  });

  test("--paginate follows the sandbox's next links and merges the pages; --input sends a body as is", async () => {
    const body = '{"name":"Fido","categoryId":9007199254740997}';
    const posted = await petstore(['api', 'pets', '--input', '-'], body);
    expect(posted).toMatchObject({ code: 0, stdout: expect.stringContaining('"categoryId":9007199254740997'), stderr: '' });
    const before = sandbox.requests.length;
    const all = await petstore(['api', '/pets', '--paginate', '--jq', 'map(.categoryId)']);
    expect(all.code).toBe(0);
    const pages = sandbox.requests.slice(before);
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.every((r) => r.method === 'GET' && r.url.startsWith('/v1/pets'))).toBe(true);
    expect(all.stdout).toMatch(/^\[9223372036854775807,2,3,9007199254740995,.*9007199254740997\]\n$/);
  });

  test('a wrong key exits 4; a URL of another origin exits 2 and sends nothing', async () => {
    const wrong = await petstore(['api', '/pets'], '', { PETSTORE_API_KEY: 'nope' });
    expect(wrong).toEqual({
      code: 4,
      stdout: '',
      stderr:
        '{"code":"unauthorized","message":"missing or invalid API key","status":401}\nerror: missing or invalid API key (HTTP 401, code unauthorized)\nThe key came from PETSTORE_API_KEY: check it, or unset it and log in:\n  petstore auth login\n',
    });
    const before = sandbox.requests.length;
    const elsewhere = await petstore(['api', 'http://127.0.0.2:9/v1/pets']);
    expect(elsewhere).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining('refusing to send the API key to another origin: http://127.0.0.2:9'),
    });
    expect(sandbox.requests.length).toBe(before);
  });
});
