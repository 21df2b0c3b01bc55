#!/usr/bin/env node
// Peak RSS of `petstore add --file --failed F --resolve-unknown` against a
// store of 1,000,000 pets (issue 29 item 6: at most 200 MiB): the store is
// listed before the first POST (its ids written to F.store-ids), the service
// drops the answer of every 10th POST after storing it, and the load settles
// those items against a second whole listing. The sandbox runs in a process
// of its own (sandbox/server.mjs --pets N); petstore under GNU time. Run by
// hand: npm run build && node bench/resolve-unknown-rss.mjs [--pets 1000000] [--items 2000] [--timeout 30000]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
const SERVER = fileURLToPath(new URL('../sandbox/server.mjs', import.meta.url));
const { values } = parseArgs({
  options: {
    pets: { type: 'string', default: '1000000' },
    items: { type: 'string', default: '2000' },
    timeout: { type: 'string', default: '30000' },
  },
});

const sandbox = spawn(process.execPath, [SERVER, '--port', '0', '--key', 'bench', '--pets', values.pets, '--drop-every', '10'], {
  stdio: ['ignore', 'pipe', 'ignore'],
});
const line = (await createInterface({ input: sandbox.stdout })[Symbol.asyncIterator]().next()).value;
const baseUrl = /(https?:\/\/\S+)/.exec(line)[1];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bench-resolve-'));
const input = path.join(dir, 'pets.ndjson');
let text = '';
for (let i = 0; i < Number(values.items); i += 1) text += `{"name":"load-${i}","categoryId":${i % 7},"status":"available"}\n`;
fs.writeFileSync(input, text);
const failed = path.join(dir, 'failed.ndjson');
const env = { PATH: process.env.PATH, HOME: dir, PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: 'bench' };
const started = performance.now();
const args = [
  '-f',
  '%M',
  process.execPath,
  BIN,
  'add',
  '--file',
  input,
  '--failed',
  failed,
  '--resolve-unknown',
  '--timeout',
  values.timeout,
];
const run = spawnSync('/usr/bin/time', args, { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const lines = run.stderr.trim().split('\n');
const peakMiB = (Number(lines.pop()) / 1024).toFixed(1);
const summary = lines.find((l) => l.startsWith('created ')) ?? lines.slice(-3).join(' | ');
const idsBytes = fs.statSync(`${failed}.store-ids`, { throwIfNoEntry: false })?.size;
console.log(
  `${Number(values.pets).toLocaleString('en')} pets in the store, ${values.items} items: exit ${run.status}, ${seconds} s, ` +
    `peak RSS ${peakMiB} MiB, F.store-ids ${idsBytes} bytes; load ${os.loadavg()[0].toFixed(2)}\n${summary}`,
);
sandbox.kill();
fs.rmSync(dir, { recursive: true, force: true });
