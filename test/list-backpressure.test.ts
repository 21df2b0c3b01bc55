// A whole listing waits for a slow reader: it asks for the next page while printing one (PageWalk.lookAhead), and for the page after
// only once stdout has taken the last one ('drain'), so that a pipe into a slow consumer holds the listing back, one page ahead at most,
// instead of filling memory (list --all, api --paginate).
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { expect, test } from 'vitest';
import { startPetService } from '../sandbox/pet-service.mjs';
import { tempConfigHome, until } from './helpers.js';

/** A stdout that pushes back on every write and drains when the test says. */
class SlowStdout extends EventEmitter {
  text = '';
  drains = 0;
  write(text: string): boolean {
    this.text += text;
    return false;
  }
  drain(): void {
    this.drains += 1;
    this.emit('drain');
  }
}

test.each([
  ['list --all --format ndjson', ['list', '--all', '--limit', '1', '--format', 'ndjson']],
  ['list --all --json', ['list', '--all', '--limit', '1', '--json']],
  ['api --paginate', ['api', '/pets?limit=1', '--paginate']],
])('%s stays at most one page ahead of what stdout drained', async (_, argv) => {
  const stdout = new SlowStdout();
  const drainsAtRequest: number[] = [];
  const service = await startPetService({
    key: 'k',
    seed: 4,
    faults: () => {
      drainsAtRequest.push(stdout.drains);
      return undefined;
    },
  });
  try {
    const { main } = await import('../src/main.js');
    const finished = main(argv, {
      io: {
        stdout,
        stderr: { write: () => true },
        stdin: Readable.from([]),
        stdoutIsTTY: false,
        stderrIsTTY: false,
        stdinIsTTY: false,
      },
      env: { XDG_CONFIG_HOME: tempConfigHome(), PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k' },
      version: '1.2.3',
    });
    for (let page = 1; page <= 4; page += 1) {
      await until(() => service.requests.length >= page && stdout.text.includes(`"pet-${page}"`));
      // Event-loop turns, not time: a client that did not wait would have its next request at the service by now.
      for (let turn = 0; turn < 200; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      // The page being printed and the next one (4 pets: page 4 links none).
      expect(service.requests).toHaveLength(Math.min(page + 1, 4));
      stdout.drain();
    }
    expect(await finished).toBe(0);
    // Request k (from 0) reached the service after k - 1 drains: one page ahead of the reader, never more.
    expect(drainsAtRequest).toEqual([0, 0, 1, 2]);
    expect(stdout.text.match(/"id":\d+/g)).toEqual(['"id":1', '"id":2', '"id":3', '"id":4']);
  } finally {
    await service.close();
  }
});
