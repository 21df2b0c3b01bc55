// A bulk load's POSTs go straight through the pool, without undici's retry interceptor (issue 32): the load itself sends again a POST
// whose connection never opened (refused), after the interceptor's backoff, at most --retries times, as the interceptor did. A service
// that refuses connections, then accepts them, gets each pet once; a stop during the backoff sends nothing more. When every connection
// fails (refused, no such host) for a while, the load stops with one message (issue 38 item 6). And the items that go out together are
// journaled in one write (bulk/send-batch.ts): a stop before it sends none of them and journals none as sent.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import nock from 'nock';
import { afterEach, describe, expect, test } from 'vitest';
import { type PetService, startPetService } from '../sandbox/pet-service.mjs';
import { InterruptedError } from '../src/errors.js';
import { KEEP_THEM_HINT } from '../src/bulk/load-summary.js';
import { ADD } from '../src/commands/add/run.js';
import { runCommand } from '../src/commands/runner.js';
import { readNdjson, run, unwrapped, wrapped } from './helpers.js';
import { fakeClientFactory } from './support/fake-client.js';

let server: PetService | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A loopback port nobody listens on (yet): connections to it are refused. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function inputOf(names: string[]): { dir: string; file: string; failed: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-reconnect-'));
  const file = path.join(dir, 'pets.ndjson');
  fs.writeFileSync(file, names.map((name, i) => `{"name":"${name}","categoryId":${i}}\n`).join(''));
  return { dir, file, failed: path.join(dir, 'failed.ndjson') };
}

const postsTo = (service: PetService) => service.requests.filter((r) => r.method === 'POST').map((r) => r.body);
const posts = () => postsTo(server!);

describe('a bulk load whose connections are refused', () => {
  test('refused, then accepted: each POST is sent again after the backoff and each pet is created once; --verbose says each retry', async () => {
    const port = await freePort();
    const { file, failed } = inputOf(['a', 'b', 'c']);
    let starting: Promise<void> | undefined;
    // The first backoff starts the service on the refused port; the largest jitter gives it 250 ms before the POSTs are sent again,
    // and the later backoffs (500, 1000, 2000 ms: --retries 4) more should it be slower.
    const random = () => {
      starting ??= startPetService({ key: 'k', seed: false, port }).then((started) => {
        server = started;
      });
      return 0.999;
    };
    const r = await run(['add', '--file', file, '--failed', failed, '--concurrency', '2', '--retries', '4', '--verbose'], {
      env: { PETSTORE_BASE_URL: `http://127.0.0.1:${port}/v1`, PETSTORE_API_KEY: 'k' },
      random,
    });
    await starting;
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(3);
    expect(r.stderr).toMatch(/\* retry 1 of 4 in 250 ms \(ECONNREFUSED\)\n/);
    expect(r.stderr).toContain('created 3 of 3 pets; 0 failed\n');
    expect(r.stderr).not.toContain('not sent');
    // Each pet reached the service once: a refused connection carried no byte of its POST.
    expect(posts().sort()).toEqual(['{"name":"a","categoryId":0}', '{"name":"b","categoryId":1}', '{"name":"c","categoryId":2}']);
    expect(fs.readFileSync(failed, 'utf8')).toBe('');
  });

  // This test and the next wait for a service that never answers: they run at once, sharing nothing (this one closes its own service).
  test.concurrent('every connection refused for a while (1 s here): one message naming the address and how to check the base URL, exit 1, the rest not_sent; the same command resumes', async ({
    expect,
    onTestFinished,
  }) => {
    const port = await freePort();
    const names = Array.from({ length: 200 }, (_, i) => `p${i + 1}`);
    const { file, failed } = inputOf(names);
    const env = { PETSTORE_BASE_URL: `http://127.0.0.1:${port}/v1`, PETSTORE_API_KEY: 'k' };
    const r = await run(['add', '--file', file, '--failed', failed, '--concurrency', '8'], { env, random: () => 0, unreachableMs: 1000 });
    // No line per pet: the stop is said once.
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: wrapped(
        `stopped: created 0 of 200 pets; 0 failed, 200 not sent (written to ${failed})\n` +
          `error: cannot reach 127.0.0.1:${port}: ECONNREFUSED; every connection failed for 1 s, so no more pets are sent\n` +
          `Is the service running at http://127.0.0.1:${port}/v1/?\nThe base URL is from PETSTORE_BASE_URL.\n` +
          'Once it answers, the same command with --failed sends only the pets not created.\n',
      ),
    });
    expect(readNdjson(failed).map((record) => record.outcome)).toEqual(names.map(() => 'not_sent'));
    const service = await startPetService({ key: 'k', seed: false, port });
    onTestFinished(() => service.close());
    const again = await run(['add', '--file', file, '--failed', failed, '--concurrency', '8'], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/^resuming the load started at /);
    // Every item the first run saw was proven never sent: each counts as not sent, none left out of the counts.
    expect(unwrapped(again.stderr)).toMatch(
      /: of its first (\d+) pets, 0 created, 0 failed, 0 unknown, \1 not sent; the items left are sent once the input proves the same\n/,
    );
    expect(again.stderr).toContain('created 200 of 200 pets; 0 failed\n');
    // Each pet reached the service once, and only from the second run.
    expect(postsTo(service).sort()).toEqual(names.map((name, i) => `{"name":"${name}","categoryId":${i}}`).sort());
  });

  test.concurrent('no such host (DNS): the same one message, exit 1, nothing sent', async ({ expect }) => {
    const { file, failed } = inputOf(['a', 'b', 'c']);
    // This test alone lets the name reach the system's resolver, which knows no host under .invalid (RFC 6761).
    nock.enableNetConnect(
      (host) =>
        /^(127\.0\.0\.1|localhost|[^:]+\.localhost)(:\d+)?$/i.test(host) ||
        host.startsWith('null:') ||
        host.startsWith('petstore.invalid:'),
    );
    try {
      // A POST is not sent again at once for a name not found: its waits for the service, 250 then 500 ms, reach the 750 ms.
      const r = await run(['add', '--file', file, '--failed', failed], {
        env: { PETSTORE_BASE_URL: 'https://petstore.invalid/v1', PETSTORE_API_KEY: 'k' },
        random: () => 0,
        unreachableMs: 750,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        wrapped(
          `stopped: created 0 of 3 pets; 0 failed, 3 not sent (written to ${failed})\n` +
            'error: cannot reach petstore.invalid: ENOTFOUND; every connection failed for 750 ms, so no more pets are sent\n' +
            'Is the service running at https://petstore.invalid/v1/?\nThe base URL is from PETSTORE_BASE_URL.\n' +
            'Once it answers, the same command with --failed sends only the pets not created.\n',
        ),
      );
      expect(readNdjson(failed).map((record) => record.outcome)).toEqual(['not_sent', 'not_sent', 'not_sent']);
    } finally {
      nock.enableNetConnect((host) => /^(127\.0\.0\.1|localhost|[^:]+\.localhost)(:\d+)?$/i.test(host) || host.startsWith('null:'));
    }
  });

  test('Ctrl-C during the backoff: the POST is not sent again, it is not_sent, and the same command sends it once the service accepts', async () => {
    const port = await freePort();
    const { file, failed } = inputOf(['a']);
    const env = { PETSTORE_BASE_URL: `http://127.0.0.1:${port}/v1`, PETSTORE_API_KEY: 'k' };
    const stop = new AbortController();
    // The Ctrl-C comes as the first backoff (250 ms) starts.
    const random = () => {
      queueMicrotask(() => stop.abort(new InterruptedError('SIGINT')));
      return 0.999;
    };
    const r = await run(['add', '--file', file, '--failed', failed, '--retries', '8'], { env, random, signal: stop.signal });
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('created 0 of 1 pet; 0 failed, 1 not sent');
    expect(readNdjson(failed)).toMatchObject([{ line: 1, outcome: 'not_sent' }]);
    server = await startPetService({ key: 'k', seed: false, port });
    const again = await run(['add', '--file', file, '--failed', failed], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('resuming the load');
    expect(posts()).toEqual(['{"name":"a","categoryId":0}']);
  });
});

describe('the items journaled together', () => {
  test('a Ctrl-C after items were taken for sending and before their journal write: none is sent, and the rerun sends each once', async () => {
    server = await startPetService({ key: 'k', seed: false });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-batch-'));
    const failed = path.join(dir, 'failed.ndjson');
    const lines = ['a', 'b', 'c'].map((name, i) => `{"name":"${name}","categoryId":${i}}\n`).join('');
    const stop = new AbortController();
    let reads = 0;
    // The first read hands over three items, which take their slots at once; the load asks for more before the turn ends, and the
    // Ctrl-C comes then: after the items were taken, before their records were written.
    const stdin = new Readable({
      read() {
        reads += 1;
        if (reads === 1) this.push(lines);
        else {
          stop.abort(new InterruptedError('SIGINT'));
          this.push(null);
        }
      },
    });
    const { main } = await import('../src/main.js');
    let stderr = '';
    const code = await main(['add', '--file', '-', '--failed', failed], {
      io: {
        stdout: { write: () => true },
        stderr: {
          write: (t: string) => {
            stderr += t;
            return true;
          },
        },
        stdin,
        stdoutIsTTY: false,
        stderrIsTTY: false,
        stdinIsTTY: false,
      },
      env: { XDG_CONFIG_HOME: dir, PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' },
      signal: stop.signal,
      version: '1.2.3',
    } as Parameters<typeof main>[1]);
    expect(code).toBe(130);
    expect(stderr).toContain('created 0 of 3 pets; 0 failed, 3 not sent');
    expect(posts()).toEqual([]);
    expect(readNdjson(failed).map((record) => record.outcome)).toEqual(['not_sent', 'not_sent', 'not_sent']);
    // Not journaled as sent: the same command sends them, rather than holding them unknown.
    const again = await run(['add', '--file', '-', '--failed', failed], {
      env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: 'k' },
      stdin: lines,
    });
    expect(again.code).toBe(0);
    expect(posts().sort()).toEqual(['{"name":"a","categoryId":0}', '{"name":"b","categoryId":1}', '{"name":"c","categoryId":2}']);
  });
});

describe('one pet whose connection fails while the others connect (the fake client)', () => {
  test('it is sent again at most --retries times, then not_sent with its own line; the load goes on and creates the rest', async () => {
    const { f, written, service, close } = fakeClientFactory({ globals: { retries: 1 } });
    const names = ['ok1', 'bad', ...Array.from({ length: 8 }, (_, i) => `ok${i + 2}`)];
    const { file } = inputOf(names);
    let id = 0;
    // Exactly two attempts (the first and --retries 1): close() fails on one left unused, and a third finds no answer at all.
    service
      .intercept({ method: 'POST', path: '/v1/pets', body: (body) => body.includes('"bad"') })
      .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
      .times(2);
    service
      .intercept({ method: 'POST', path: '/v1/pets', body: (body) => !body.includes('"bad"') })
      .reply(
        201,
        ({ body }) => {
          id += 1;
          return { id, ...JSON.parse(String(body)) };
        },
        { headers: { 'content-type': 'application/json' } },
      )
      .times(9);
    const error = await runCommand(f, ADD, { flags: { file, concurrency: '4' } }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ exitCode: 1, message: '1 of 10 pets was not created', hint: KEEP_THEM_HINT });
    expect(written.stdout.split('\n').filter(Boolean)).toHaveLength(9);
    expect(written.stderr).toBe(
      'not sent: line 2 "bad": cannot reach petstore.example: ECONNREFUSED\ncreated 9 of 10 pets; 0 failed, 1 not sent\n',
    );
    await close();
  });
});
