// add --file: streaming, validation with lines, partial failure with --failed
// and a second run, the concurrency bound, and Ctrl-C with requests in flight.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { startPetService, type PetService } from '../sandbox/pet-service.mjs';
import { run } from './helpers.js';

const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));

/**
 * The fake service creating pets with ids from 1; a name starting with "fail"
 * gets a 500; `delayMs` holds each answer.
 */
function startPetServer(delayMs = 0): Promise<PetService> {
  return startPetService({
    key: 'k',
    seed: false,
    faults: (request) =>
      /^\{"name":"fail/.test(request.body)
        ? { status: 500, json: { code: 'internal', message: 'database unavailable', status: 500 }, delayMs }
        : { serve: true, delayMs },
  });
}

/** Bodies of the POSTs the service received, in order. */
const posts = () => server!.requests.filter((r) => r.method === 'POST').map((r) => r.body);

let server: PetService | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function tempFile(name: string, content: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bulk-')), name);
  fs.writeFileSync(file, content);
  return file;
}

const env = () => ({ PETSTORE_BASE_URL: server!.baseUrl, PETSTORE_API_KEY: 'k' });

describe('add --file', () => {
  test('creates every item of a JSON array; --json prints one created Pet per line', async () => {
    server = await startPetServer();
    const file = tempFile('pets.json', '[\n{"name":"a","categoryId":1},\n{"name":"b","categoryId":9007199254740993,"status":"sold"}\n]');
    const r = await run(['add', '--file', file, '--json', '--concurrency', '1'], { env: env() });
    expect(r).toMatchObject({
      code: 0,
      stdout: '{"id":1,"name":"a","categoryId":1}\n{"id":2,"name":"b","categoryId":9007199254740993,"status":"sold"}\n',
      stderr: 'created 2 of 2 pets; 0 failed\n',
    });
    expect(posts()).toEqual(['{"name":"a","categoryId":1}', '{"name":"b","categoryId":9007199254740993,"status":"sold"}']);
  });

  test('invalid items are named with their line and not sent; failures go to --failed; a second run retries exactly those', async () => {
    server = await startPetServer();
    const file = tempFile(
      'pets.ndjson',
      [
        '{"name":"ok1","categoryId":1}',
        '{"name":"nocat"}',
        'not json',
        '{"name":"fail-me","categoryId":2}',
        '{"name":"ok2","categoryId":3,"colour":"red"}',
        '{"name":"ok3","categoryId":4}',
      ].join('\n'),
    );
    const failed = path.join(path.dirname(file), 'failed.ndjson');
    const r = await run(['add', '--file', file, '--failed', failed, '--concurrency', '1'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('1\tok1\t1\t-\n2\tok3\t4\t-\n');
    // Failures are reported as they happen: a rejected request can end after a later line was checked.
    const stderr = r.stderr.trim().split('\n');
    expect(stderr.slice(0, 4).sort()).toEqual([
      'failed: line 2 "nocat": item.categoryId: required field missing',
      'failed: line 3 (no name): malformed JSON: not json',
      'failed: line 4 "fail-me": database unavailable (HTTP 500)',
      'failed: line 5 "ok2": item: unknown field "colour"',
    ]);
    expect(stderr.slice(4)).toEqual([`created 2 of 6 pets; 4 failed (written to ${failed})`, 'error: 4 of 6 pets were not created']);
    expect(posts().map((b) => JSON.parse(b).name)).toEqual(['ok1', 'fail-me', 'ok3']);
    const lines = fs.readFileSync(failed, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    lines.sort((a, b) => a.line - b.line);
    expect(lines.map((l) => l.line)).toEqual([2, 3, 4, 5]);
    expect(lines[2]).toEqual({
      line: 4,
      item: { name: 'fail-me', categoryId: 2 },
      error: { code: 'internal', message: 'database unavailable', status: 500 },
    });

    // A line that is not JSON keeps its whole text, which a retry carries forward.
    expect(lines[1]).toEqual({
      line: 3,
      item: null,
      text: 'not json',
      error: { code: 'invalid_input', message: 'malformed JSON: not json', status: null },
    });

    server.requests.length = 0;
    const failedAgain = path.join(path.dirname(file), 'failed-again.ndjson');
    const again = await run(['add', '--file', failed, '--failed', failedAgain, '--concurrency', '1'], { env: env() });
    expect(again.code).toBe(1);
    expect(posts().map((b) => JSON.parse(b).name)).toEqual(['fail-me']);
    expect(again.stderr).toContain('failed: line 2 (no name): malformed JSON: not json\n');
    const linesAgain = fs.readFileSync(failedAgain, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(linesAgain.find((l) => l.line === 2)).toEqual({ ...lines[1], line: 2 });
  });

  test('a JSON array that ends inside an element: that element goes to --failed with its text, unsent', async () => {
    server = await startPetServer();
    const file = tempFile('pets.json', '[{"name":"a","categoryId":1},\n {"name":"b","categoryId":2}');
    const failed = path.join(path.dirname(file), 'failed.ndjson');
    const r = await run(['add', '--file', file, '--failed', failed], { env: env() });
    expect(r).toMatchObject({
      code: 1,
      stdout: '1\ta\t1\t-\n',
      stderr: [
        'failed: line 2 (item 1) (no name): the input ends inside the JSON array',
        `created 1 of 2 pets; 1 failed (written to ${failed})`,
        'error: 1 of 2 pets were not created',
        '',
      ].join('\n'),
    });
    expect(posts().map((b) => JSON.parse(b).name)).toEqual(['a']);
    expect(JSON.parse(fs.readFileSync(failed, 'utf8'))).toEqual({
      line: 2,
      item: null,
      text: '{"name":"b","categoryId":2}',
      error: { code: 'invalid_input', message: 'the input ends inside the JSON array', status: null },
    });

    // A retry reads such a line from its text: a complete element is sent then.
    server.requests.length = 0;
    const again = await run(['add', '--file', failed], { env: env() });
    expect(again).toMatchObject({ code: 0, stdout: '2\tb\t2\t-\n', stderr: 'created 1 of 1 pets; 0 failed\n' });
    expect(posts().map((b) => JSON.parse(b))).toEqual([{ name: 'b', categoryId: 2 }]);
  });

  test('a --failed line whose text was mended by hand is sent by the retry', async () => {
    server = await startPetServer();
    const file = tempFile('pets.ndjson', '{"name":"Rex", categoryId: 2}\n');
    const failed = path.join(path.dirname(file), 'failed.ndjson');
    expect((await run(['add', '--file', file, '--failed', failed], { env: env() })).code).toBe(1);
    expect(posts()).toEqual([]);
    const line = JSON.parse(fs.readFileSync(failed, 'utf8'));
    expect(line.text).toBe('{"name":"Rex", categoryId: 2}');
    fs.writeFileSync(failed, `${JSON.stringify({ ...line, text: '{"name":"Rex", "categoryId": 2}' })}\n`);
    const again = await run(['add', '--file', failed], { env: env() });
    expect(again).toMatchObject({ code: 0, stdout: '1\tRex\t2\t-\n' });
    expect(posts().map((b) => JSON.parse(b))).toEqual([{ name: 'Rex', categoryId: 2 }]);
  });

  test('keeps at most --concurrency requests in flight', async () => {
    server = await startPetServer(30);
    const file = tempFile('pets.ndjson', Array.from({ length: 20 }, (_, i) => `{"name":"p${i}","categoryId":${i}}`).join('\n'));
    const r = await run(['add', '--file', file, '--concurrency', '3'], { env: env() });
    expect(r.code).toBe(0);
    expect(posts()).toHaveLength(20);
    expect(server.maxInFlight).toBe(3);
  });

  test('a 401 stops the load at once and exits 4', async () => {
    const server401 = await startPetService({ key: 'k', faults: [{ status: 401, json: { code: 'unauthorized', message: 'bad key', status: 401 } }] });
    const file = tempFile('pets.ndjson', Array.from({ length: 50 }, (_, i) => `{"name":"p${i}","categoryId":${i}}`).join('\n'));
    const r = await run(['add', '--file', file, '--concurrency', '1'], {
      env: { PETSTORE_BASE_URL: server401.baseUrl, PETSTORE_API_KEY: 'wrong' },
    });
    await server401.close();
    expect(r.code).toBe(4);
    expect(server401.requests).toHaveLength(1);
    expect(r.stderr).toBe(
      'failed: line 1 "p0": bad key (HTTP 401)\n' +
        'stopped: created 0 pets, 1 failed; items from line 2 on were not sent\n' +
        'error: bad key (HTTP 401, code unauthorized)\n',
    );
  });

  test('bad flags exit 2 without a request', async () => {
    server = await startPetServer();
    for (const [argv, message] of [
      [['add', '--file', '/nonexistent/pets.json'], 'error: cannot read --file /nonexistent/pets.json: ENOENT\n'],
      [['add', '--file', '-', '--name', 'x'], 'error: --file cannot be combined with --name\n'],
      [['add', '--file', '-', '--concurrency', '0'], 'error: invalid value for --concurrency: "0": must be a whole number from 1 to 64\n'],
      [['add', '--name', 'x', '--category-id', '1', '--failed', 'f'], 'error: --failed goes with --file\n'],
    ] as const) {
      const r = await run([...argv], { env: env() });
      expect(r.stderr).toBe(message);
      expect(r.code).toBe(2);
    }
    expect(posts()).toEqual([]);
  });

  test('a folder as --file exits 2 without a request', async () => {
    server = await startPetServer();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bulk-'));
    const r = await run(['add', '--file', dir], { env: env() });
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: `error: cannot read --file ${dir}: EISDIR\n` });
    expect(posts()).toEqual([]);
  });

  test('--failed naming the --file being read (itself or through a link) exits 2 and leaves it as it was', async () => {
    server = await startPetServer();
    const content = '{"name":"fail-me","categoryId":2}\n';
    const file = tempFile('failed.ndjson', content);
    const link = path.join(path.dirname(file), 'link.ndjson');
    fs.symlinkSync(file, link);
    for (const failed of [file, link]) {
      const r = await run(['add', '--file', file, '--failed', failed], { env: env() });
      expect(r).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `error: --failed ${failed} is the file being read by --file; write the failures to another file\n`,
      });
    }
    expect(fs.readFileSync(file, 'utf8')).toBe(content);
    expect(posts()).toEqual([]);
  });
});

describe('add --file with the real binary', () => {
  test('--file - reading a file that --failed names exits 2 and leaves the file as it was', async () => {
    server = await startPetServer();
    const content = '{"name":"a","categoryId":1}\n';
    const file = tempFile('failed.ndjson', content);
    const input = fs.openSync(file, 'r');
    const child = spawn(process.execPath, [BIN, 'add', '--file', '-', '--failed', file], {
      env: { PATH: process.env.PATH, ...env() },
      stdio: [input, 'ignore', 'pipe'],
    });
    fs.closeSync(input);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(2);
    expect(stderr).toBe(`error: --failed ${file} is the file being read by --file; write the failures to another file\n`);
    expect(fs.readFileSync(file, 'utf8')).toBe(content);
    expect(posts()).toEqual([]);
  });

  test('on one terminal-like stream, rows of pets created before a failure come before its message', async () => {
    server = await startPetServer();
    const file = tempFile('pets.ndjson', '{"name":"ok1","categoryId":1}\n{"name":"fail-me","categoryId":2}\n{"name":"ok2","categoryId":3}\n');
    const dir = path.dirname(file);
    const combined = path.join(dir, 'combined.txt');
    const out = fs.openSync(combined, 'w');
    const child = spawn(process.execPath, [BIN, 'add', '--file', file, '--concurrency', '1'], {
      env: { PATH: process.env.PATH, ...env() },
      stdio: ['ignore', out, out],
    });
    fs.closeSync(out);
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(fs.readFileSync(combined, 'utf8')).toBe(
      '1\tok1\t1\t-\n' +
        'failed: line 2 "fail-me": database unavailable (HTTP 500)\n' +
        '2\tok2\t3\t-\n' +
        'created 2 of 3 pets; 1 failed\n' +
        'error: 1 of 3 pets were not created\n',
    );
  });

  test('streams: the first pets are created before the input has ended', async () => {
    server = await startPetServer();
    const child = spawn(process.execPath, [BIN, 'add', '--file', '-', '--json'], { env: { PATH: process.env.PATH, ...env() } });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stdin.write('{"name":"first","categoryId":1}\n');
    while (posts().length === 0) await new Promise((r) => setTimeout(r, 20));
    expect(child.exitCode).toBeNull();
    child.stdin.end('{"name":"second","categoryId":2}\n');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toBe('{"id":1,"name":"first","categoryId":1}\n{"id":2,"name":"second","categoryId":2}\n');
  });

  test('Ctrl-C stops taking items, lets those in flight finish, reports and exits 130; nothing is created twice', async () => {
    server = await startPetServer(400);
    const child = spawn(process.execPath, [BIN, 'add', '--file', '-', '--concurrency', '2', '--json'], {
      env: { PATH: process.env.PATH, ...env() },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    for (let i = 0; i < 5; i += 1) child.stdin.write(`{"name":"p${i}","categoryId":${i}}\n`);
    while (posts().length < 2) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    const created = stdout.trim().split('\n').map((l) => JSON.parse(l).name);
    expect(created).toEqual(['p0', 'p1']);
    expect(posts().map((b) => JSON.parse(b).name)).toEqual(['p0', 'p1']);
    expect(stderr).toBe('interrupted: created 2 pets, 0 failed; items from line 3 on were not sent\n');
  });
});
