#!/usr/bin/env node
// Bulk load: `petstore add --file` of 10,000 pets against autocannon sending
// the same POSTs at the same concurrency to the same sandbox, and peak RSS of
// `add --file` of 100,000 pets. For reference it also runs undici alone sending
// the same POSTs (bench/undici-alone.mjs): the most petstore could reach with
// undici on this machine. Every client runs as a fresh process, and every
// request rate is measured by the sandbox's own clock (bench/timed-sandbox.mjs),
// from the first request it receives to the last, in alternating rounds
// (medians). The sandbox runs in a process of its own. Run by hand: npm run bench
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { median } from './median.mjs';

const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
const TIMED_SANDBOX = fileURLToPath(new URL('./timed-sandbox.mjs', import.meta.url));
const AUTOCANNON_POSTS = fileURLToPath(new URL('./autocannon-posts.mjs', import.meta.url));
const UNDICI_ALONE = fileURLToPath(new URL('./undici-alone.mjs', import.meta.url));
const CONCURRENCY = 8;
// What petstore sends as User-Agent, so that every client sends the same POSTs.
const USER_AGENT = `petstore/${JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}`;
const SMALL = Number(process.env.BENCH_BULK_SMALL ?? 10_000);
const LARGE = Number(process.env.BENCH_BULK_LARGE ?? 100_000);
const ROUNDS = Number(process.env.BENCH_BULK_ROUNDS ?? 15);

/** A fresh timed sandbox (bench/timed-sandbox.mjs): its base URL and `rate()`, the requests per second it saw since the last call. */
async function startSandbox() {
  const child = spawn(process.execPath, [TIMED_SANDBOX, '--key', 'bench'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const baseUrl = (await lines.next()).value;
  const rate = async () => {
    child.stdin.write('\n');
    const { requests, seconds } = JSON.parse((await lines.next()).value);
    return (requests - 1) / seconds;
  };
  return { baseUrl, rate, stop: () => child.stdin.end() };
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

/**
 * Runs a fresh `node <args>`; returns the seconds from its start to its exit
 * and, with `stdout: 'pipe'`, what it printed. Throws naming `name` when it fails.
 */
function runNode(name, args, env, { stdout = 'ignore' } = {}) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', stdout, 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${name} exited ${r.status}: ${r.stderr.slice(-400)}`);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, stdout: r.stdout };
}

function petstoreAdd(file, baseUrl, { measureRss = false } = {}) {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: 'bench' };
  const args = [BIN, 'add', '--file', file, '--concurrency', String(CONCURRENCY)];
  if (!measureRss) return runNode('petstore add --file', args, env);
  const started = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`petstore add --file exited ${r.status}: ${r.stderr.slice(-400)}`);
  return { seconds, rssMiB: Number(r.stderr.trim().split('\n').pop()) / 1024 };
}

/** undici alone sending `count` POSTs from a fresh process. */
function undiciAlone(baseUrl, count) {
  runNode('undici-alone', [UNDICI_ALONE, baseUrl, String(count), String(CONCURRENCY), USER_AGENT], process.env);
}

/** autocannon sending the same `count` POSTs from a fresh process (bench/autocannon-posts.mjs); throws when any answer is not 2xx. */
function autocannonPosts(baseUrl, count) {
  const args = [AUTOCANNON_POSTS, baseUrl, String(count), String(CONCURRENCY), USER_AGENT];
  const { non2xx, errors } = JSON.parse(runNode('autocannon', args, process.env, { stdout: 'pipe' }).stdout);
  if (non2xx || errors) throw new Error(`autocannon saw ${non2xx} non-2xx answers and ${errors} errors`);
}

console.log(`node ${process.version}, concurrency ${CONCURRENCY}`);
let failed = false;

// Each side gets a fresh sandbox, warmed by the same autocannon burst (not
// counted), so that none meets a store grown by another; the order of the
// sides rotates each round.
{
  const file = writePets(SMALL);
  const rates = { cannon: [], ours: [], undici: [] };
  // petstore also timed from its start to its exit, which adds Node's start-up and the loading of the tool.
  const wholeProcess = [];
  const sides = Object.keys(rates);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const side of [...sides.slice(round % 3), ...sides.slice(0, round % 3)]) {
      const sandbox = await startSandbox();
      autocannonPosts(sandbox.baseUrl, 1000);
      await sandbox.rate();
      if (side === 'cannon') autocannonPosts(sandbox.baseUrl, SMALL);
      else if (side === 'ours') wholeProcess.push(SMALL / petstoreAdd(file, sandbox.baseUrl).seconds);
      else undiciAlone(sandbox.baseUrl, SMALL);
      rates[side].push(await sandbox.rate());
      sandbox.stop();
    }
  }
  const cannon = median(rates.cannon);
  const ratio = median(rates.ours) / cannon;
  failed ||= ratio < 0.8;
  const spread = (values) => `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`;
  console.log(
    `add --file ${SMALL} pets: ${median(rates.ours).toFixed(0)} req/s vs autocannon ${cannon.toFixed(0)} req/s = ${ratio.toFixed(2)}x, ` +
      `as the sandbox saw them, medians of ${ROUNDS} rounds (target >= 0.8x) ${ratio >= 0.8 ? 'ok' : 'MISSED'}`,
  );
  console.log(
    `  petstore timed from its start to its exit instead: ${median(wholeProcess).toFixed(0)} req/s = ${(median(wholeProcess) / cannon).toFixed(2)}x; ` +
      `undici alone (bench/undici-alone.mjs): ${median(rates.undici).toFixed(0)} req/s = ${(median(rates.undici) / cannon).toFixed(2)}x`,
  );
  console.log(`  ranges: petstore ${spread(rates.ours)}, undici alone ${spread(rates.undici)}, autocannon ${spread(rates.cannon)} req/s`);
}

{
  const file = writePets(LARGE);
  const sandbox = await startSandbox();
  const { seconds, rssMiB } = petstoreAdd(file, sandbox.baseUrl, { measureRss: true });
  const ok = rssMiB !== undefined && rssMiB < 256;
  failed ||= !ok;
  console.log(
    `add --file ${LARGE} pets: ${seconds.toFixed(1)} s, peak RSS ${rssMiB?.toFixed(1)} MiB (target < 256 MiB) ${ok ? 'ok' : 'MISSED'}`,
  );
  sandbox.stop();
}
process.exitCode = failed ? 1 : 0;
