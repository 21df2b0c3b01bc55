// The sandbox command (sandbox/server.mjs, `npm run sandbox`): its flags, tried
// the way a user would, with petstore against it (in-process; over https with
// the test CA trusted through tls's default CA certificates, trustTestCa).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, onTestFinished, test } from 'vitest';
import { createTestPki, trustTestCa } from './fakes/certificates.js';
import { type Child, posingAs, run, spawnAsync, startChild, wrapped, unwrapped } from './helpers.js';

const SANDBOX = fileURLToPath(new URL('../sandbox/server.mjs', import.meta.url));
/** The pinned Node.js, which npm's scripts run on. */
const PINNED = fs.readFileSync(new URL('../.nvmrc', import.meta.url), 'utf8').trim();
let child: Child | undefined;
afterEach(async () => {
  if (child && !child.exited) {
    child.kill('SIGTERM');
    await child.done;
  }
  child = undefined;
});

/** Starts the sandbox with `args` on a free port; resolves with the base URL it printed and what it wrote to stderr so far. */
async function sandbox(args: string[]): Promise<{ baseUrl: string; stderr: () => string }> {
  const started = startChild(process.execPath, [SANDBOX, '--port', '0', ...args], { env: { PATH: process.env.PATH } });
  child = started;
  await started.waitForText('\n', 'stdout');
  const first = started.stdout.split('\n')[0]!;
  const baseUrl = /^petstore sandbox listening on (\S+)$/.exec(first)?.[1];
  if (!baseUrl) throw new Error(`the sandbox printed ${first}; stderr: ${started.stderr}`);
  return { baseUrl, stderr: () => started.stderr };
}

/** petstore in-process against `baseUrl`, with a fresh config folder: exit code, stdout, stderr. */
async function petstore(args: string[], baseUrl: string, extra: NodeJS.ProcessEnv = {}) {
  const env = { PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: 'cli-key', PETSTORE_NO_DEPRECATION_WARNING: '1', ...extra };
  const { code, stdout, stderr } = await run(args, { env });
  return { code, stdout, stderr };
}

describe('npm run sandbox', () => {
  test('on a Node.js older than petstore needs, it refuses to start in one line naming npm run sandbox (exit 1), not at its first request', async () => {
    const r = await spawnAsync(process.execPath, [...posingAs('20.20.2'), SANDBOX, '--port', '0'], { PATH: process.env.PATH });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'petstore sandbox: needs Node.js ^22.22.2 || ^24.15.0 || >=26.0.0, not v20.20.2: start it with "npm run sandbox", ' +
        `which runs the Node.js ${PINNED} that npm ci installed\n`,
    });
  });

  test('--help lists every flag and exits 0', async () => {
    const r = await spawnAsync(process.execPath, [SANDBOX, '--help'], { PATH: process.env.PATH });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    for (const flag of [
      '--port',
      '--key',
      '--first-id',
      '--no-seed',
      '--page-size',
      '--no-links',
      '--tls-cert',
      '--tls-key',
      '--drop-every',
      '--delay',
      '--pets',
      '--fail-page',
      '--drop-page',
      '--endless',
      '--help',
    ]) {
      expect(r.stdout).toContain(flag);
    }
  });

  test.each([
    [['--page-size', '0'], 'invalid value for --page-size: "0": must be a whole number from 1 to 100'],
    [['--first-id', '1e3'], 'invalid value for --first-id: "1e3": must be an int64 integer'],
    [['--drop-every', 'ten'], 'invalid value for --drop-every: "ten": must be a whole number from 1 to 1000000'],
    [['--delay', '60001'], 'invalid value for --delay: "60001": must be a whole number from 0 to 60000'],
    [['--tls-cert', 'cert.pem'], '--tls-cert and --tls-key go together'],
    [['--pets', '1.5'], 'invalid value for --pets: "1.5": must be a whole number from 0 to 10000000'],
    [['--pets', '3', '--no-seed'], '--pets and --no-seed go apart: --pets 0 starts empty'],
    [['--fail-page', '0'], 'invalid value for --fail-page: "0": must be a whole number from 1 to 1000000000'],
    [['--drop-page', 'x'], 'invalid value for --drop-page: "x": must be a whole number from 1 to 1000000000'],
    [['--tls-cert', '/nonexistent/c.pem', '--tls-key', '/nonexistent/k.pem'], 'cannot read --tls-cert /nonexistent/c.pem: ENOENT'],
  ])('%j exits 2 naming the flag', async (args, message) => {
    const r = await spawnAsync(process.execPath, [SANDBOX, ...args], { PATH: process.env.PATH });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `petstore sandbox: ${message}\n(see npm run sandbox -- --help)\n` });
  });

  test('a port in use exits 1 saying so', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const r = await spawnAsync(process.execPath, [SANDBOX, '--port', String(port)], { PATH: process.env.PATH });
    blocker.close();
    expect(r).toEqual({ code: 1, stdout: '', stderr: `petstore sandbox: cannot listen on 127.0.0.1:${port}: EADDRINUSE\n` });
  });

  test('--key, --first-id, --no-seed, --page-size: list --all gets every pet, ids exact', async () => {
    const { baseUrl } = await sandbox(['--key', 'cli-key', '--first-id', '9007199254740993', '--no-seed', '--page-size', '2']);
    for (const name of ['a', 'b', 'c']) expect((await petstore(['add', '--name', name, '--category-id', '1'], baseUrl)).code).toBe(0);
    const r = await petstore(['list', '--all', '--format', 'ndjson'], baseUrl);
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout: ['a', 'b', 'c'].map((name, i) => `{"id":${9007199254740993n + BigInt(i)},"name":"${name}","categoryId":1}\n`).join(''),
    });
    expect((await petstore(['list'], baseUrl, { PETSTORE_API_KEY: 'demo' })).code).toBe(4);
  });

  test('--no-links: the first page is all that list --all gets', async () => {
    const { baseUrl } = await sandbox(['--key', 'cli-key', '--no-links']);
    const r = await petstore(['list', '--all', '--limit', '2'], baseUrl);
    expect(r).toEqual({
      code: 0,
      stdout: '1\tRex\t1\tavailable\n2\tTom\t2\tpending\n',
      stderr: wrapped('warning: the last page held 2 pets, as many as --limit 2 asks for; the service may have more: try --limit 100\n'),
    });
  });

  test('--drop-every 2: every second add is created but its answer dropped', async () => {
    const { baseUrl, stderr } = await sandbox(['--key', 'cli-key', '--no-seed', '--drop-every', '2']);
    const codes = [];
    for (const name of ['a', 'b', 'c', 'd']) codes.push((await petstore(['add', '--name', name, '--category-id', '1'], baseUrl)).code);
    expect(codes).toEqual([0, 1, 0, 1]);
    expect((await petstore(['list', '--format', 'tsv'], baseUrl)).stdout).toBe('1\ta\t1\t-\n2\tb\t1\t-\n3\tc\t1\t-\n4\td\t1\t-\n');
    expect(stderr()).toBe('dropping the answer of one POST /pets in 2, after creating the pet\n');
  });

  test('--delay 400: every answer comes late (a 200 ms --timeout gives up), --drop-every still applies', async () => {
    const { baseUrl, stderr } = await sandbox(['--key', 'cli-key', '--no-seed', '--delay', '400', '--drop-every', '2']);
    const host = new URL(baseUrl).host;
    expect(await petstore(['list', '--timeout', '200'], baseUrl)).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: request to ${host} timed out after 200 ms (--timeout)\n`,
    });
    const codes = [];
    for (const name of ['a', 'b']) codes.push((await petstore(['add', '--name', name, '--category-id', '1'], baseUrl)).code);
    expect(codes).toEqual([0, 1]);
    expect((await petstore(['list'], baseUrl)).stdout).toBe('1\ta\t1\t-\n2\tb\t1\t-\n');
    expect(stderr()).toBe('dropping the answer of one POST /pets in 2, after creating the pet\nanswering every request after 400 ms\n');
  });

  test('--pets 250 and --fail-page 2: a generated store whose second page answers 500; list --all keeps page 1', async () => {
    const { baseUrl, stderr } = await sandbox(['--key', 'cli-key', '--pets', '250', '--fail-page', '2']);
    const r = await petstore(['list', '--all', '--format', 'tsv'], baseUrl);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['1\tpet-1\t1\tavailable', '2\tpet-2\t2\tpending']);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(100);
    expect(unwrapped(r.stderr)).toMatch(
      /^error: the listing stopped at page 2, after 100 pets: the sandbox fails this page \(--fail-page\) \(HTTP 500, code internal\)\n/,
    );
    expect(stderr()).toBe('answering 500 to every GET /pets of page 2\n');
  });

  test('--drop-page 3 drops the connection of page 3; --endless links empty pages forever', async () => {
    const dropped = await sandbox(['--key', 'cli-key', '--pets', '250', '--drop-page', '3']);
    const r = await petstore(['list', '--all', '--format', 'ndjson', '--retries', '0'], dropped.baseUrl);
    expect(r.code).toBe(1);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(200);
    expect(unwrapped(r.stderr)).toMatch(
      /^error: the listing stopped at page 3, after 200 pets: the connection to .+ closed before its answer came/,
    );
    child!.kill('SIGTERM');
    await child!.done;
    const endless = await sandbox(['--key', 'cli-key', '--pets', '250', '--endless']);
    const e = await petstore(['list', '--all', '--format', 'ndjson'], endless.baseUrl);
    expect(e.code).toBe(1);
    expect(e.stdout.trimEnd().split('\n')).toHaveLength(250);
    expect(unwrapped(e.stderr)).toMatch(/^error: stopped at page 6, after 250 pets: 3 pages in a row were empty yet linked a next page/);
  });

  test('--tls-cert and --tls-key serve https', async () => {
    const pki = await createTestPki();
    const { baseUrl } = await sandbox([
      '--key',
      'cli-key',
      '--tls-cert',
      path.join(pki.dir, 'server.cert.pem'),
      '--tls-key',
      path.join(pki.dir, 'server.key.pem'),
    ]);
    expect(baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v1$/);
    onTestFinished(trustTestCa(pki));
    const r = await petstore(['get', '1', '--json'], baseUrl);
    expect(r).toEqual({ code: 0, stdout: '{"id":1,"name":"Rex","categoryId":1,"status":"available"}\n', stderr: '' });
  });
});
