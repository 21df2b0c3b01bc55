#!/usr/bin/env node
// Peak RSS of `petstore add --file` as the input grows (10,000 to 400,000
// pets, 8 connections), without and with --failed (the load journal): what
// peak RSS does with the input's size. Each run a fresh process under GNU
// time, against one timed sandbox (bench/timed-sandbox.mjs) in a process of
// its own. Run by hand: npm run build && node bench/bulk-rss-scale.mjs
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
const SANDBOX = fileURLToPath(new URL('./timed-sandbox.mjs', import.meta.url));
const SIZES = (process.env.BENCH_RSS_SIZES ?? '10000,50000,100000,200000,400000').split(',').map(Number);

const sandbox = spawn(process.execPath, [SANDBOX, '--key', 'bench'], { stdio: ['pipe', 'pipe', 'inherit'] });
const baseUrl = (await createInterface({ input: sandbox.stdout })[Symbol.asyncIterator]().next()).value;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bench-rss-'));
console.log(`node ${process.version}, ${os.cpus().length} CPUs; peak RSS (MiB) of add --file, 8 connections`);
for (const count of SIZES) {
  const file = path.join(dir, `pets-${count}.ndjson`);
  let text = '';
  for (let i = 0; i < count; i += 1) text += `{"name":"pet-${i}","categoryId":${i % 7},"status":"available"}\n`;
  fs.writeFileSync(file, text);
  const figures = [];
  for (const journal of [false, true]) {
    const failed = journal ? ['--failed', path.join(dir, `failed-${count}.ndjson`)] : [];
    const env = { PATH: process.env.PATH, HOME: dir, PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: 'bench' };
    const args = ['-f', '%M', process.execPath, BIN, 'add', '--file', file, '--concurrency', '8', ...failed];
    const run = spawnSync('/usr/bin/time', args, { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`add --file of ${count} pets exited ${run.status}: ${run.stderr.slice(-300)}`);
    figures.push((Number(run.stderr.trim().split('\n').pop()) / 1024).toFixed(1));
  }
  console.log(`${count} pets: ${figures[0]} without --failed, ${figures[1]} with it; load ${os.loadavg()[0].toFixed(2)}`);
  fs.rmSync(file);
}
sandbox.stdin.end();
fs.rmSync(dir, { recursive: true, force: true });
