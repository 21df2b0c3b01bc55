// add --file: streaming, validation with lines, the outcome of every item
// (created, failed, not_sent, unknown) in --failed, reruns that create nothing
// twice, the concurrency bound, and input read exactly as given.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { startPetService, type Faults, type PetService } from '../sandbox/pet-service.mjs';
import { readNdjson, run, runsAsRoot, tempConfigHome, until, unwrapped, wrapped } from './helpers.js';

/**
 * The fake service; a name starting with "fail" gets a 422 (a 4xx: not created); `hold` holds each answer (milliseconds, or until the
 * promise settles); `faults` replaces that.
 */
function startPetServer(hold: number | Promise<unknown> = 0, faults?: Faults): Promise<PetService> {
  const delay = typeof hold === 'number' ? { delayMs: hold } : { until: hold };
  return startPetService({
    key: 'k',
    seed: false,
    faults:
      faults ??
      ((request) =>
        /^\{"name":"fail/.test(request.body)
          ? { status: 422, json: { code: 'rejected', message: 'database refused it', status: 422 }, ...delay }
          : { serve: true, ...delay }),
  });
}

/** Bodies of the POSTs the service received, in order. */
const posts = () => server!.requests.filter((r) => r.method === 'POST').map((r) => r.body);
/** Names of the pets the service holds, sorted. */
const storedNames = () => [...server!.pets.values()].map((p) => p.name).sort();

let server: PetService | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function tempFile(name: string, content: string | Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bulk-')), name);
  fs.writeFileSync(file, content);
  return file;
}

const env = () => ({ PETSTORE_BASE_URL: server!.baseUrl, PETSTORE_API_KEY: 'k' });
const ndjson = (names: string[]) => names.map((name, i) => `{"name":"${name}","categoryId":${i}}`).join('\n');

describe('add --file', () => {
  test('a service nothing answers for: the load stops once every connection failed for a while (200 ms here), said once; each item not sent, with the reason, in --failed', async () => {
    const failed = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bulk-')), 'failed.ndjson');
    const nobody = { PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1', PETSTORE_API_KEY: 'k' };
    const stop =
      'error: cannot reach 127.0.0.1:9: ECONNREFUSED; every connection failed for 200 ms, so no more pets are sent\n' +
      'Is the service running at http://127.0.0.1:9/v1/?\nThe base URL is from PETSTORE_BASE_URL.\n' +
      'Once it answers, the same command with --failed sends only the pets not created.\n';
    // The first retry comes 250 ms on (the largest jitter), once every connection failed for 200 ms: the load stops there.
    const r = await run(['add', '--file', '-', '--concurrency', '1', '--failed', failed], {
      env: nobody,
      stdin: ndjson(['Z', 'Y']),
      random: () => 0.999,
      unreachableMs: 200,
    });
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: wrapped(`stopped: created 0 of 2 pets; 0 failed, 2 not sent (written to ${failed})\n${stop}`),
    });
    // Its connection never opened, so nothing was sent.
    expect(new Set(r.unmatched)).toEqual(new Set(['POST ']));
    const reason = {
      code: 'not_sent',
      message: 'not sent: the service could not be reached (cannot reach 127.0.0.1:9: ECONNREFUSED)',
      status: null,
    };
    expect(readNdjson(failed).map((record) => [record.outcome, record.error])).toEqual([
      ['not_sent', reason],
      ['not_sent', reason],
    ]);
    const json = await run(['add', '--file', '-', '--json'], {
      env: nobody,
      stdin: ndjson(['Z']),
      random: () => 0.999,
      unreachableMs: 200,
    });
    expect(json.stderr.split('\n').map((line) => (line ? JSON.parse(line) : line))).toEqual([
      {
        info: 'stopped: created 0 of 1 pet; 0 failed, 1 not sent',
        code: 'summary',
        read: 1,
        created: 0,
        failed: 0,
        unknown: 0,
        notSent: 1,
        skipped: 0,
      },
      {
        message: 'cannot reach 127.0.0.1:9: ECONNREFUSED; every connection failed for 200 ms, so no more pets are sent',
        code: 'unreachable',
        status: null,
        hint:
          'Is the service running at http://127.0.0.1:9/v1/?\nThe base URL is from PETSTORE_BASE_URL.\n' +
          'Once it answers, the same command with --failed sends only the pets not created.',
      },
      '',
    ]);
  });

  test('creates every item of a JSON array; --json prints one created Pet per line and messages as JSON', async () => {
    server = await startPetServer();
    const file = tempFile('pets.json', '[\n{"name":"a","categoryId":1},\n{"name":"b","categoryId":9007199254740993,"status":"sold"}\n]');
    const r = await run(['add', '--file', file, '--json', '--concurrency', '1'], { env: env() });
    expect(r).toMatchObject({
      code: 0,
      stdout: '{"id":1,"name":"a","categoryId":1}\n{"id":2,"name":"b","categoryId":9007199254740993,"status":"sold"}\n',
      stderr:
        '{"info":"created 2 of 2 pets; 0 failed","code":"summary","read":2,"created":2,"failed":0,"unknown":0,"notSent":0,"skipped":0}\n',
    });
    expect(posts()).toEqual(['{"name":"a","categoryId":1}', '{"name":"b","categoryId":9007199254740993,"status":"sold"}']);
  });

  test('invalid items are named with their line and not sent; failures go to --failed with their outcome; a second run sends exactly those', async () => {
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
      'failed: line 4 "fail-me": database refused it (HTTP 422)',
      'failed: line 5 "ok2": item: unknown field "colour"',
    ]);
    expect(unwrapped(r.stderr).trim().split('\n').slice(4)).toEqual([
      `created 2 of 6 pets; 4 failed (written to ${failed})`,
      'error: 4 of 6 pets were not created',
    ]);
    expect(posts().map((b) => JSON.parse(b).name)).toEqual(['ok1', 'fail-me', 'ok3']);
    const lines = readNdjson(failed).sort((a, b) => a.line - b.line);
    expect(lines.map((l) => [l.line, l.outcome])).toEqual([
      [2, 'failed'],
      [3, 'failed'],
      [4, 'failed'],
      [5, 'failed'],
    ]);
    expect(lines[2]).toEqual({
      line: 4,
      source: file,
      outcome: 'failed',
      item: { name: 'fail-me', categoryId: 2 },
      error: { code: 'rejected', message: 'database refused it', status: 422 },
    });
    // A line that is not JSON keeps its whole text, which a retry carries forward.
    expect(lines[1]).toEqual({
      line: 3,
      source: file,
      outcome: 'failed',
      item: null,
      text: 'not json',
      error: { code: 'invalid_input', message: 'malformed JSON: not json', status: null },
    });

    server.requests.length = 0;
    const failedAgain = path.join(path.dirname(file), 'failed-again.ndjson');
    const again = await run(['add', '--file', failed, '--failed', failedAgain, '--concurrency', '1'], { env: env() });
    expect(again.code).toBe(1);
    expect(posts().map((b) => JSON.parse(b).name)).toEqual(['fail-me']);
    // Named by its first input's line, which its --failed line keeps, with that input's path.
    expect(again.stderr).toContain('failed: line 3 of pets.ndjson (no name): malformed JSON: not json\n');
    expect(readNdjson(failedAgain).find((l) => l.line === 3)).toEqual(lines[1]);
  });

  test('a JSON array that ends inside an element: that element goes to --failed with its text, unsent; a retry sends it', async () => {
    server = await startPetServer();
    const file = tempFile('pets.json', '[{"name":"a","categoryId":1},\n {"name":"b","categoryId":2}');
    const failed = path.join(path.dirname(file), 'failed.ndjson');
    const r = await run(['add', '--file', file, '--failed', failed], { env: env() });
    expect(r).toMatchObject({
      code: 1,
      stdout: '1\ta\t1\t-\n',
      stderr: wrapped(
        [
          'failed: line 2 (item 1) (no name): the input ends inside the JSON array',
          `created 1 of 2 pets; 1 failed (written to ${failed})`,
          'error: 1 of 2 pets was not created',
          '',
        ].join('\n'),
      ),
    });
    expect(readNdjson(failed)).toEqual([
      {
        line: 2,
        source: file,
        outcome: 'failed',
        item: null,
        text: '{"name":"b","categoryId":2}',
        error: { code: 'invalid_input', message: 'the input ends inside the JSON array', status: null },
      },
    ]);
    server.requests.length = 0;
    const again = await run(['add', '--file', failed], { env: env() });
    expect(again).toMatchObject({ code: 0, stdout: '2\tb\t2\t-\n', stderr: 'created 1 of 1 pet; 0 failed\n' });
    expect(posts().map((b) => JSON.parse(b))).toEqual([{ name: 'b', categoryId: 2 }]);
  });

  test('a --failed line whose text was mended by hand is sent by the retry', async () => {
    server = await startPetServer();
    const file = tempFile('pets.ndjson', '{"name":"Rex", categoryId: 2}\n');
    const failed = path.join(path.dirname(file), 'failed.ndjson');
    expect((await run(['add', '--file', file, '--failed', failed], { env: env() })).code).toBe(1);
    expect(posts()).toEqual([]);
    const [line] = readNdjson(failed);
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

  test('stdout that pushes back holds the load: no POST leaves until it drains, then every pet is printed once', async () => {
    // The POSTs after the first two are answered once the first rows were written: the load is still going when stdout pushes back.
    let firstWrite!: () => void;
    const written = new Promise<void>((resolve) => (firstWrite = resolve));
    server = await startPetServer(0, (_request, index) => (index < 2 ? { serve: true } : { serve: true, until: written }));
    const names = Array.from({ length: 60 }, (_, i) => `p${i}`);
    const file = tempFile('pets.ndjson', ndjson(names));
    // A stdout whose writes return false, as a pipe's do when its reader lags, until the test lets it drain.
    let stdout = '';
    let writes = 0;
    let drained = false;
    const drainListeners: Array<() => void> = [];
    const out = {
      write: (text: string) => {
        stdout += text;
        writes += 1;
        firstWrite();
        return drained;
      },
      once: (_event: 'drain', listener: () => void) => drainListeners.push(listener),
    };
    let stderr = '';
    const { main } = await import('../src/main.js');
    const code = main(['add', '--file', file, '--concurrency', '2'], {
      io: {
        stdout: out as unknown as Writable,
        stderr: { write: (text: string) => (stderr += text) } as unknown as Writable,
        stdin: Readable.from([]),
        stdoutIsTTY: false,
        stderrIsTTY: false,
        stdinIsTTY: false,
      },
      env: { ...env(), XDG_CONFIG_HOME: tempConfigHome() },
      version: '1.2.3',
    });
    // The first rows went out and stdout pushed back: the two POSTs then in flight are answered, and no other leaves. Their rows go
    // out in the next batch, the load's own 50 ms later.
    await until(() => writes > 0);
    const sent = posts().length;
    await until(() => writes > 1);
    expect(posts().length).toBeLessThanOrEqual(sent + 2);
    expect(posts().length).toBeLessThan(names.length);
    drained = true;
    for (const listener of drainListeners.splice(0)) listener();
    expect(await code).toBe(0);
    expect(stderr).toBe('created 60 of 60 pets; 0 failed\n');
    expect(
      stdout
        .split('\n')
        .slice(0, -1)
        .map((row) => row.split('\t')[1])
        .sort(),
    ).toEqual([...names].sort());
  });

  test('bad flags exit 2 without a request', async () => {
    server = await startPetServer();
    for (const [argv, message] of [
      [['add', '--file', '/nonexistent/pets.json'], 'error: cannot read --file /nonexistent/pets.json: ENOENT\n'],
      [['add', '--file', '-', '--name', 'x'], 'error: --file cannot be combined with --name\n'],
      [['add', '--file', '-', '--concurrency', '0'], 'error: invalid value for --concurrency: "0": must be a whole number from 1 to 64\n'],
      [['add', '--name', 'x', '--category-id', '1', '--failed', 'f'], 'error: --failed goes with --file\n'],
      [['add', '--name', 'x', '--category-id', '1', '--retry-unknown'], 'error: --retry-unknown goes with --file\n'],
      [['add', '--file', '-', '--format', 'table'], 'error: invalid value for --format: "table": allowed values: tsv, ndjson\n'],
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
});

describe('every item has one known outcome', () => {
  test('a base URL whose path the service does not have (no /v1) stops the load at the first 404: the rest not_sent, exit 1', async () => {
    server = await startPetServer();
    const file = tempFile('pets.ndjson', ndjson(['a', 'b', 'c']));
    const failed = path.join(path.dirname(file), 'failed.ndjson');
    const origin = server.baseUrl.replace(/\/v1$/, '');
    const r = await run(['add', '--file', file, '--failed', failed, '--concurrency', '1'], {
      env: { ...env(), PETSTORE_BASE_URL: origin },
    });
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: wrapped(
        'failed: line 1 "a": the service has no /pets: HTTP 404 (no route /pets); the base URL may be wrong (HTTP 404)\n' +
          `stopped: created 0 of 3 pets; 1 failed, 2 not sent (written to ${failed})\n` +
          'error: the service has no /pets: HTTP 404 (no route /pets); the base URL may be wrong\n' +
          `Check the base URL ${origin}/ (from PETSTORE_BASE_URL): the interface's paths are under its /v1, as in https://petstore.example.com/v1\n`,
      ),
    });
    expect(posts()).toHaveLength(1);
    expect(readNdjson(failed).map((l) => [l.line, l.outcome])).toEqual([
      [1, 'failed'],
      [2, 'not_sent'],
      [3, 'not_sent'],
    ]);
  });

  test('a 401 stops the load: the item that got it is failed, every later one not_sent; one rerun with a good key finishes it', async () => {
    server = await startPetServer();
    const names = Array.from({ length: 50 }, (_, i) => `p${i}`);
    const file = tempFile('pets.ndjson', ndjson(names));
    const failed = path.join(path.dirname(file), 'failed.ndjson');
    const r = await run(['add', '--file', file, '--failed', failed, '--concurrency', '1'], {
      env: { ...env(), PETSTORE_API_KEY: 'wrong' },
    });
    expect(r.code).toBe(4);
    expect(posts()).toHaveLength(1);
    expect(r.stderr).toBe(
      wrapped(
        'failed: line 1 "p0": missing or invalid API key (HTTP 401)\n' +
          `stopped: created 0 of 50 pets; 1 failed, 49 not sent (written to ${failed})\n` +
          'error: missing or invalid API key (HTTP 401, code unauthorized)\nThe key came from PETSTORE_API_KEY: check it, or unset it and log in:\n  petstore auth login\n',
      ),
    );
    const lines = readNdjson(failed);
    expect(lines.map((l) => l.outcome)).toEqual(['failed', ...Array<string>(49).fill('not_sent')]);
    expect(lines[1]).toEqual({
      line: 2,
      source: file,
      outcome: 'not_sent',
      item: { name: 'p1', categoryId: 1 },
      error: { code: 'not_sent', message: 'not sent: the service rejected the API key (HTTP 401)', status: null },
    });
    const again = await run(['add', '--file', failed, '--failed', failed], { env: env() });
    expect(again.code).toBe(0);
    expect(storedNames()).toEqual([...names].sort());
    expect(fs.readFileSync(failed, 'utf8')).toBe('');
  });

  test('a 201 with a body that cannot be read counts as created, with a warning naming the line; never sent again', async () => {
    server = await startPetServer(0, (request) =>
      request.body.includes('"odd"') ? { serveUnreadable: 'malformed-json' } : { serve: true },
    );
    const file = tempFile('pets.ndjson', ndjson(['a', 'odd', 'b']));
    const failed = path.join(path.dirname(file), 'failed.ndjson');
    const r = await run(['add', '--file', file, '--failed', failed, '--concurrency', '1'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('1\ta\t0\t-\n3\tb\t2\t-\n');
    expect(unwrapped(r.stderr)).toMatch(
      /^warning: line 2 was created \(HTTP 201\), but its answer could not be read: unexpected response \(HTTP 201\): malformed JSON: .*; it is not sent again\ncreated 3 of 3 pets; 0 failed\n$/,
    );
    expect(fs.readFileSync(failed, 'utf8')).toBe('');
  });

  test.each([
    ['a dropped connection after the pet was created', { serveThenDestroy: true } as const, []],
    [
      'a body that stops coming after the 201 (cut at the deadline)',
      { drip: { status: 201, json: { id: 99, name: 'slow', categoryId: 1 }, intervalMs: 1000 } } as const,
      ['--timeout', '300'],
    ],
    ['no answer at all (cut at the deadline)', { hang: true } as const, ['--timeout', '300']],
  ])('%s: unknown; a rerun skips it unless --retry-unknown, which sends it', async (_what, step, flags) => {
    server = await startPetServer(0, (request) => (request.body.includes('"lost"') ? step : { serve: true }));
    const file = tempFile('pets.ndjson', ndjson(['a', 'lost', 'b']));
    const dir = path.dirname(file);
    const r = await run(['add', '--file', file, '--failed', path.join(dir, 'f1.ndjson'), '--concurrency', '1', ...flags], { env: env() });
    expect(r.code).toBe(1);
    expect(unwrapped(r.stderr)).toMatch(
      /^unknown: line 2 "lost": .*\ncreated 2 of 3 pets; 0 failed, 1 unknown \(written to .*f1\.ndjson\)\nerror: 1 of 3 pets may not have been created: its outcome is unknown\n$/,
    );
    if ('drip' in step) {
      expect(unwrapped(r.stderr)).toMatch(
        /^unknown: line 2 "lost": the service answered HTTP 201, but its body did not arrive whole: request to \S+ timed out after 300 ms \(--timeout\) \(HTTP 201\)\n/,
      );
    }
    const [line] = readNdjson(path.join(dir, 'f1.ndjson'));
    expect(line).toMatchObject({ line: 2, outcome: 'unknown', item: { name: 'lost', categoryId: 1 } });
    const sentBefore = posts().length;
    const skip = await run(['add', '--file', path.join(dir, 'f1.ndjson'), '--failed', path.join(dir, 'f2.ndjson')], { env: env() });
    expect(skip.code).toBe(1);
    expect(skip.stderr).toBe(
      wrapped(
        `created 0 of 1 pet; 0 failed, 1 of unknown outcome skipped (written to ${path.join(dir, 'f2.ndjson')})\n` +
          'warning: 1 item of unknown outcome (sent before, perhaps created) not sent again; --retry-unknown sends them\n' +
          'error: 1 of 1 pet may not have been created: its outcome is unknown\n',
      ),
    );
    expect(posts()).toHaveLength(sentBefore);
    expect(readNdjson(path.join(dir, 'f2.ndjson'))).toEqual([line]);
    await server.close();
    server = await startPetServer();
    const retried = await run(['add', '--file', path.join(dir, 'f2.ndjson'), '--retry-unknown'], { env: env() });
    expect(retried).toMatchObject({ code: 0, stderr: 'created 1 of 1 pet; 0 failed\n' });
    expect(storedNames()).toEqual(['lost']);
  });

  test('a service that cannot be reached: every item not_sent, and a rerun sends them', async () => {
    server = await startPetServer();
    const baseUrl = server.baseUrl;
    await server.close();
    const file = tempFile('pets.ndjson', ndjson(['a', 'b']));
    const failed = path.join(path.dirname(file), 'failed.ndjson');
    // Its first wait for the service, 250 ms, ends the load.
    const r = await run(['add', '--file', file, '--failed', failed, '--retries', '0'], {
      env: { PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: 'k' },
      unreachableMs: 250,
    });
    expect(r.code).toBe(1);
    // Both were in flight: their lines come in the order their waits for the service ended.
    expect(
      readNdjson(failed)
        .map((l) => [l.line, l.outcome, l.error.code])
        .sort((a, b) => a[0] - b[0]),
    ).toEqual([
      [1, 'not_sent', 'not_sent'],
      [2, 'not_sent', 'not_sent'],
    ]);
    server = await startPetServer();
    expect((await run(['add', '--file', failed], { env: env() })).code).toBe(0);
    expect(storedNames()).toEqual(['a', 'b']);
  });
});

describe('the --failed file is never lost', () => {
  test('--failed naming the --file being read (itself or through a link): read whole, then replaced by the new outcomes', async () => {
    server = await startPetServer();
    const file = tempFile('failed.ndjson', `${ndjson(['fail-a', 'ok', 'fail-b'])}\n`);
    const link = path.join(path.dirname(file), 'link.ndjson');
    fs.symlinkSync(file, link);
    const r = await run(['add', '--file', file, '--failed', link, '--concurrency', '1'], { env: env() });
    expect(r.code).toBe(1);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readNdjson(file).map((l) => [l.line, l.outcome, l.item.name])).toEqual([
      [1, 'failed', 'fail-a'],
      [3, 'failed', 'fail-b'],
    ]);
    expect(storedNames()).toEqual(['ok']);
  });

  test('two loads never write one --failed file: the second refuses before sending anything (exit 2)', async () => {
    // The first load's POST is answered once the second load has ended.
    let secondEnded!: () => void;
    server = await startPetServer(new Promise<void>((resolve) => (secondEnded = resolve)));
    const file = tempFile('pets.ndjson', ndjson(['a']));
    const failed = path.join(path.dirname(file), 'failed.ndjson');
    const first = run(['add', '--file', file, '--failed', failed], { env: env() });
    await until(() => posts().length > 0);
    const second = await run(['add', '--file', file, '--failed', failed], { env: env() }).finally(secondEnded);
    expect(second).toEqual({
      code: 2,
      stdout: '',
      stderr: wrapped(
        `error: --failed ${failed} is being written by another petstore add --file; give each load its own file\nA load that died leaves the lock ${failed}.lock, taken over once it has not been renewed for 30 seconds.\n`,
      ),
      unmatched: [],
    });
    expect((await first).code).toBe(0);
    expect(posts()).toHaveLength(1);
  });
  test('a --failed link to a file not made yet: the target is written, the link stays; a load through the other name is refused', async () => {
    // The first load's POSTs are answered once the second load has ended.
    let secondEnded!: () => void;
    server = await startPetServer(new Promise<void>((resolve) => (secondEnded = resolve)));
    const file = tempFile('pets.ndjson', ndjson(['a', 'fail-b']));
    const dir = path.dirname(file);
    const target = path.join(dir, 'target.ndjson');
    const link = path.join(dir, 'link.ndjson');
    fs.symlinkSync('target.ndjson', link);
    const first = run(['add', '--file', file, '--failed', link, '--concurrency', '1'], { env: env() });
    await until(() => posts().length > 0);
    const second = await run(['add', '--file', file, '--failed', target], { env: env() }).finally(secondEnded);
    expect({ ...second, stderr: unwrapped(second.stderr) }).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining('is being written by another petstore add --file'),
    });
    expect((await first).code).toBe(1);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readNdjson(target).map((l) => [l.line, l.outcome, l.item.name])).toEqual([[2, 'failed', 'fail-b']]);
    expect(storedNames()).toEqual(['a']);
  });
});

describe('input exactly as given', () => {
  test('bytes that are not UTF-8 fail their item (named by line); nothing is created from it', async () => {
    server = await startPetServer();
    const bad = Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('","categoryId":1}\n')]);
    const file = tempFile('pets.ndjson', Buffer.concat([Buffer.from('{"name":"ok","categoryId":1}\n'), bad]));
    const failed = path.join(path.dirname(file), 'failed.ndjson');
    const r = await run(['add', '--file', file, '--failed', failed], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('failed: line 2 (no name): not valid UTF-8: {"name":"Caf\uFFFD","categoryId":1}\n');
    expect(storedNames()).toEqual(['ok']);
    expect(readNdjson(failed)).toMatchObject([
      {
        line: 2,
        outcome: 'failed',
        item: null,
        text: '{"name":"Caf\uFFFD","categoryId":1}',
        text_base64: bad.subarray(0, -1).toString('base64'),
      },
    ]);
  });

  test('a --failed line of bytes that were not UTF-8 fails again on the rerun, and its bytes are kept', async () => {
    server = await startPetServer();
    for (const [kind, bad, line] of [
      ['NDJSON', Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('","categoryId":1}\n')]), 1],
      ['a JSON array', Buffer.concat([Buffer.from('[\n  {"name":"Caf'), Buffer.from([0xe9]), Buffer.from('","categoryId":1}\n]\n')]), 2],
    ] as const) {
      const file = tempFile('pets.json', bad);
      const dir = path.dirname(file);
      const first = await run(['add', '--file', file, '--failed', path.join(dir, 'failed.ndjson')], { env: env() });
      expect(first.code, kind).toBe(1);
      const again = await run(['add', '--file', path.join(dir, 'failed.ndjson'), '--failed', path.join(dir, 'failed2.ndjson')], {
        env: env(),
      });
      expect({ ...again, stderr: unwrapped(again.stderr) }, kind).toMatchObject({
        code: 1,
        stdout: '',
        stderr: expect.stringContaining(
          `failed: line ${line} of pets.json (no name): not valid UTF-8: {"name":"Caf\uFFFD","categoryId":1}\n`,
        ),
      });
      const kept = ({ outcome, item, text, text_base64 }: Record<string, unknown>) => ({ outcome, item, text, text_base64 });
      expect(readNdjson(path.join(dir, 'failed2.ndjson')).map(kept), kind).toEqual(readNdjson(path.join(dir, 'failed.ndjson')).map(kept));
      expect(Buffer.from(String(readNdjson(path.join(dir, 'failed2.ndjson'))[0]?.text_base64), 'base64').includes(0xe9), kind).toBe(true);
    }
    expect(storedNames()).toEqual([]);
  });

  test('a byte order mark and CRLF line ends are accepted', async () => {
    server = await startPetServer();
    const file = tempFile('pets.ndjson', '\uFEFF{"name":"a","categoryId":1}\r\n{"name":"b","categoryId":2}\r\n');
    const r = await run(['add', '--file', file, '--concurrency', '1'], { env: env() });
    expect(r).toMatchObject({ code: 0, stdout: '1\ta\t1\t-\n2\tb\t2\t-\n' });
  });

  test('an empty input creates nothing, exits 0 and says so', async () => {
    server = await startPetServer();
    for (const content of ['', '\n\n', '[]']) {
      const r = await run(['add', '--file', tempFile('empty.ndjson', content)], { env: env() });
      expect(r).toEqual({ code: 0, stdout: '', stderr: 'the input holds no pets; nothing was created\n', unmatched: [] });
    }
    expect(posts()).toEqual([]);
  });
});

describe('a --failed path planted by another user', () => {
  // Root may chown a link to another user; the check holds for root too (a shared sticky folder such as /tmp).
  test.runIf(runsAsRoot('a --failed link of another user', 'test/add-file.test.ts'))(
    'a link owned by another user: exit 2 naming the path, nothing sent, its target untouched',
    async () => {
      server = await startPetServer();
      const file = tempFile('pets.ndjson', ndjson(['a']));
      const dir = path.dirname(file);
      const victim = path.join(dir, 'victim.txt');
      fs.writeFileSync(victim, 'keep me\n');
      const link = path.join(dir, 'failed.ndjson');
      fs.symlinkSync(victim, link);
      fs.lchownSync(link, 65534, 65534);
      const r = await run(['add', '--file', file, '--failed', link], { env: env() });
      expect(r).toMatchObject({
        code: 2,
        stdout: '',
        stderr: wrapped(`error: --failed ${link} is a link owned by another user (uid 65534); refusing to write through it\n`),
      });
      expect(posts()).toEqual([]);
      expect(fs.readFileSync(victim, 'utf8')).toBe('keep me\n');
    },
  );
});
