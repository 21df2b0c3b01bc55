// A bulk load's POSTs go straight through the pool, without undici's retry interceptor (issue 32): the load itself sends again a POST
// whose connection never opened (refused), after the interceptor's backoff, at most --retries times, as the interceptor did. A service
// that refuses connections, then accepts them, gets each pet once; a stop during the backoff sends nothing more. And the items that go
// out together are journaled in one write (bulk/send-batch.ts): a stop before it sends none of them and journals none as sent.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { type PetService, startPetService } from '../sandbox/pet-service.mjs';
import { InterruptedError } from '../src/errors.js';
import { readNdjson, run, wrapped } from './helpers.js';

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

const posts = () => server!.requests.filter((r) => r.method === 'POST').map((r) => r.body);

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

  test('refused past --retries: not sent, named with the error, after --retries + 1 attempts; a rerun once it accepts creates them', async () => {
    const port = await freePort();
    const { dir, file, failed } = inputOf(['a', 'b']);
    let backoffs = 0;
    const env = { PETSTORE_BASE_URL: `http://127.0.0.1:${port}/v1`, PETSTORE_API_KEY: 'k' };
    const r = await run(['add', '--file', file, '--failed', failed, '--concurrency', '1', '--retries', '3'], {
      env,
      random: () => {
        backoffs += 1;
        return 0;
      },
    });
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: wrapped(
        `not sent: line 1 "a": cannot reach 127.0.0.1:${port}: ECONNREFUSED\n` +
          `not sent: line 2 "b": cannot reach 127.0.0.1:${port}: ECONNREFUSED\n` +
          `created 0 of 2 pets; 0 failed, 2 not sent (written to ${failed})\n` +
          'error: 2 of 2 pets were not created\n',
      ),
    });
    // Three resends of each of the two POSTs.
    expect(backoffs).toBe(6);
    expect(readNdjson(failed).map((record) => [record.line, record.outcome, record.error.code])).toEqual([
      [1, 'not_sent', 'network_error'],
      [2, 'not_sent', 'network_error'],
    ]);
    server = await startPetService({ key: 'k', seed: false, port });
    const again = await run(['add', '--file', failed, '--failed', path.join(dir, 'again.ndjson')], { env });
    expect(again.code).toBe(0);
    expect(posts()).toEqual(['{"name":"a","categoryId":0}', '{"name":"b","categoryId":1}']);
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
