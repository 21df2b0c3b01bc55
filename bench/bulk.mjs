#!/usr/bin/env node
// Bulk load: `petstore add --file` of 10,000 pets against autocannon sending
// the same POSTs at the same concurrency to the same sandbox (requests per
// second), and peak RSS of `add --file` of 100,000 pets. The sandbox runs in a
// process of its own. Run by hand: npm run bench
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
const SANDBOX = fileURLToPath(new URL('../sandbox/server.mjs', import.meta.url));
const CONCURRENCY = 8;
const SMALL = Number(process.env.BENCH_BULK_SMALL ?? 10_000);
const LARGE = Number(process.env.BENCH_BULK_LARGE ?? 100_000);

async function startSandbox() {
  const child = spawn(process.execPath, [SANDBOX, '--port', '0', '--key', 'bench', '--no-seed'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(String(d))));
  return { child, baseUrl: /http:\/\/\S+/.exec(line)[0] };
}

function writePets(count) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bench-')), `pets-${count}.ndjson`);
  const out = fs.openSync(file, 'w');
  for (let i = 0; i < count; i += 10_000) {
    let chunk = '';
    for (let j = i; j < Math.min(i + 10_000, count); j += 1) chunk += `{"name":"pet-${j}","categoryId":${j % 7},"status":"available"}\n`;
    fs.writeSync(out, chunk);
  }
  fs.closeSync(out);
  return file;
}

function petstoreAdd(file, baseUrl, { measureRss = false } = {}) {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: 'bench' };
  const args = [BIN, 'add', '--file', file, '--concurrency', String(CONCURRENCY)];
  const started = process.hrtime.bigint();
  const r = measureRss
    ? spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 30 })
    : spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`petstore add --file exited ${r.status}: ${r.stderr.slice(-400)}`);
  const rssMiB = measureRss ? Number(r.stderr.trim().split('\n').pop()) / 1024 : undefined;
  return { seconds, rssMiB };
}

async function autocannonPosts(baseUrl, count) {
  const result = await autocannon({
    url: `${baseUrl}/pets`,
    method: 'POST',
    headers: { authorization: 'Bearer bench', 'content-type': 'application/json', accept: 'application/json' },
    body: '{"name":"pet-autocannon","categoryId":1,"status":"available"}',
    connections: CONCURRENCY,
    amount: count,
  });
  if (result.non2xx) throw new Error(`autocannon saw ${result.non2xx} non-2xx answers`);
  return result.requests.total / (result.duration || 1);
}

console.log(`node ${process.version}, concurrency ${CONCURRENCY}`);
let failed = false;

{
  const file = writePets(SMALL);
  const sandbox = await startSandbox();
  await autocannonPosts(sandbox.baseUrl, 1000); // warm-up
  const cannon = await autocannonPosts(sandbox.baseUrl, SMALL);
  const { seconds } = petstoreAdd(file, sandbox.baseUrl);
  const ours = SMALL / seconds;
  const ratio = ours / cannon;
  failed ||= ratio < 0.8;
  console.log(
    `add --file ${SMALL} pets: ${ours.toFixed(0)} req/s vs autocannon ${cannon.toFixed(0)} req/s = ${ratio.toFixed(2)}x (target >= 0.8x) ${ratio >= 0.8 ? 'ok' : 'MISSED'}`,
  );
  sandbox.child.kill();
}

{
  const file = writePets(LARGE);
  const sandbox = await startSandbox();
  const { seconds, rssMiB } = petstoreAdd(file, sandbox.baseUrl, { measureRss: true });
  const ok = rssMiB !== undefined && rssMiB < 256;
  failed ||= !ok;
  console.log(`add --file ${LARGE} pets: ${seconds.toFixed(1)} s, peak RSS ${rssMiB?.toFixed(1)} MiB (target < 256 MiB) ${ok ? 'ok' : 'MISSED'}`);
  sandbox.child.kill();
}
process.exitCode = failed ? 1 : 0;
