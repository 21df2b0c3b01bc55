// Inputs read without blocking the event loop, and with a size cap: a FIFO
// that no one writes to obeys Ctrl-C and SIGTERM; /dev/zero as a request body
// ends with a clear error instead of growing without bound.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { type PetService, startPetService } from '../sandbox/pet-service.mjs';
import { BIN, run, startChild, tempConfigHome, wrapped } from './helpers.js';

let server: PetService | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const env = () => ({
  PATH: process.env.PATH,
  XDG_CONFIG_HOME: tempConfigHome(),
  PETSTORE_BASE_URL: server!.baseUrl,
  PETSTORE_API_KEY: 'k',
});

/** Does a thread of process `pid` wait to open a FIFO that has no writer yet? */
function waitsForWriter(pid: number): boolean {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).some((task) => {
      try {
        return fs.readFileSync(`/proc/${pid}/task/${task}/wchan`, 'utf8') === 'wait_for_partner';
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

function fifo(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-fifo-')), 'input');
  execFileSync('mkfifo', [file]);
  return file;
}

test('api --input /dev/zero: exit 2 naming the cap, nothing sent', async () => {
  server = await startPetService({ key: 'k' });
  // The cap is checked before any request: in-process.
  const r = await run(['api', '/pets', '-X', 'POST', '--input', '/dev/zero'], { env: env() });
  expect(r).toEqual({
    code: 2,
    stdout: '',
    stderr: wrapped('error: cannot read --input /dev/zero: it holds more than the 64 MiB petstore sends\n'),
    unmatched: [],
  });
  expect(server.requests).toEqual([]);
});

test.each([
  ['add --file', (file: string) => ['add', '--file', file], 'SIGINT', 130],
  ['add --file', (file: string) => ['add', '--file', file], 'SIGTERM', 143],
  ['api --input', (file: string) => ['api', '/pets', '-X', 'POST', '--input', file], 'SIGINT', 130],
  ['api --input', (file: string) => ['api', '/pets', '-X', 'POST', '--input', file], 'SIGTERM', 143],
] as const)('%s on a FIFO no one writes to: %s ends it (exit %i), nothing sent', async (_, args, signal, exit) => {
  server = await startPetService({ key: 'k' });
  const input = fifo();
  const child = startChild(process.execPath, [BIN, ...args(input)], { env: env() });
  // Until one of its threads waits in the kernel for the FIFO's writer (Linux: wchan wait_for_partner).
  await child.waitFor(() => waitsForWriter(child.pid), 'it waited for a writer');
  child.kill(signal);
  const { code, stderr } = await child.done;
  expect(code).toBe(exit);
  expect(stderr).not.toMatch(/\n\s+at |Error/);
  expect(server.requests).toEqual([]);
});

test('add --file on a FIFO: the pets its writer sends are created', async () => {
  server = await startPetService({ key: 'k', seed: false });
  const input = fifo();
  // In-process (no signal acts): the writer opens the FIFO off this thread, as the load may not have opened it yet.
  const loaded = run(['add', '--file', input], { env: env() });
  await fs.promises.writeFile(input, '{"name":"a","categoryId":1}\n{"name":"b","categoryId":2}\n');
  const { code, stdout } = await loaded;
  expect(code).toBe(0);
  expect(stdout).toBe('1\ta\t1\t-\n2\tb\t2\t-\n');
});
