#!/usr/bin/env node
// Bulk load: `petstore add --file` against autocannon sending the same POSTs
// at the same concurrency to the same sandbox, at 10,000 and 100,000 pets with
// 8 and 32 connections: the request rate as a ratio (target >= 0.9x) and peak
// RSS as a ratio (GNU time; target <= 1.2x). At every load it also runs undici
// alone sending the same POSTs (bench/undici-alone.mjs): the most petstore
// could reach with undici on this machine. It also runs `add --file --failed`, which keeps
// the load journal (issue 19): its rate as a ratio to the same load without it
// (target >= 0.9x), and its peak RSS as a ratio to the same load's (target <= 1.05x). At every load, issue 32's
// figure: `add --file --failed` against undici alone (rate >= 0.9x, peak RSS <= 1.3x). Every client runs as a fresh process, and every request rate is
// measured by the sandbox's own clock (bench/timed-sandbox.mjs), from the
// first request it receives to the last, in alternating rounds (medians). The
// sandbox runs in a process of its own. Run by hand: npm run bench
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
// What petstore sends as User-Agent, so that every client sends the same POSTs.
const USER_AGENT = `petstore/${JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}`;
const SMALL = Number(process.env.BENCH_BULK_SMALL ?? 10_000);
const LARGE = Number(process.env.BENCH_BULK_LARGE ?? 100_000);
const ROUNDS = Number(process.env.BENCH_BULK_ROUNDS ?? 7);
const LARGE_ROUNDS = Number(process.env.BENCH_BULK_LARGE_ROUNDS ?? 3);
// Issue 32 item 2's largest load, peak RSS only, one round (0 skips it).
const HUGE = Number(process.env.BENCH_BULK_HUGE ?? 1_000_000);
const RATE_TARGET = 0.9;
const RSS_TARGET = 1.2;
const JOURNAL_TARGET = 0.9;
const JOURNAL_RSS = 1.05;
const PACE_TARGET = 0.9;
const PACE_RSS = 1.3;

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
 * Runs a fresh `node <args>` under GNU time; returns the seconds from its
 * start to its exit, its peak RSS in MiB and, with `stdout: 'pipe'`, what it
 * printed. Throws naming `name` when it fails.
 */
function runNode(name, args, env, { stdout = 'ignore' } = {}) {
  const started = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], {
    env,
    stdio: ['ignore', stdout, 'pipe'],
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (r.error) throw new Error(`/usr/bin/time: ${r.error.message} (apt-get install time)`);
  if (r.status !== 0) throw new Error(`${name} exited ${r.status}: ${r.stderr.slice(-400)}`);
  const rssMiB = Number(r.stderr.trim().split('\n').pop()) / 1024;
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, rssMiB, stdout: r.stdout };
}

/**
 * `petstore add --file` from a fresh process; with `journal` true, with `--failed` in a fresh folder, so with the load journal
 * (docs/bulk-loads.md); with 'json', with `--json`, its stdout a pipe this process reads.
 */
function petstoreAdd(file, baseUrl, concurrency, journal = false) {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: 'bench' };
  const args = [BIN, 'add', '--file', file, '--concurrency', String(concurrency)];
  if (journal === 'json') return runNode('petstore add --file --json', [...args, '--json'], env, { stdout: 'pipe' });
  if (!journal) return runNode('petstore add --file', args, env);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bench-failed-'));
  try {
    return runNode('petstore add --file --failed', [...args, '--failed', path.join(dir, 'failed.ndjson')], env);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** undici alone sending `count` POSTs from a fresh process. */
function undiciAlone(baseUrl, count, concurrency) {
  return runNode('undici-alone', [UNDICI_ALONE, baseUrl, String(count), String(concurrency), USER_AGENT], process.env);
}

/** autocannon sending the same `count` POSTs from a fresh process (bench/autocannon-posts.mjs); throws when any answer is not 2xx. */
function autocannonPosts(baseUrl, count, concurrency) {
  const args = [AUTOCANNON_POSTS, baseUrl, String(count), String(concurrency), USER_AGENT];
  const run = runNode('autocannon', args, process.env, { stdout: 'pipe' });
  const { non2xx, errors } = JSON.parse(run.stdout);
  if (non2xx || errors) throw new Error(`autocannon saw ${non2xx} non-2xx answers and ${errors} errors`);
  return run;
}

console.log(`node ${process.version}, ${os.cpus().length} CPUs`);
let failed = false;
const files = new Map();
const journalRss = new Map();
const spread = (values) => `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`;

// Each run gets a fresh sandbox, warmed by the same autocannon burst (not
// counted), so that none meets a store grown by another; the order of the
// sides rotates each round.
for (const [count, concurrency, rounds] of [
  [SMALL, 8, ROUNDS],
  [SMALL, 32, ROUNDS],
  [LARGE, 8, LARGE_ROUNDS],
  [LARGE, 32, LARGE_ROUNDS],
]) {
  if (!files.has(count)) files.set(count, writePets(count));
  const file = files.get(count);
  const sides = ['cannon', 'ours', 'journal', 'undici'];
  const rates = { cannon: [], ours: [], journal: [], undici: [] };
  const rss = { cannon: [], ours: [], journal: [], undici: [] };
  for (let round = 0; round < rounds; round += 1) {
    for (const side of [...sides.slice(round % sides.length), ...sides.slice(0, round % sides.length)]) {
      const sandbox = await startSandbox();
      autocannonPosts(sandbox.baseUrl, 1000, concurrency);
      await sandbox.rate();
      const run =
        side === 'cannon'
          ? autocannonPosts(sandbox.baseUrl, count, concurrency)
          : side === 'ours' || side === 'journal'
            ? petstoreAdd(file, sandbox.baseUrl, concurrency, side === 'journal')
            : undiciAlone(sandbox.baseUrl, count, concurrency);
      rates[side].push(await sandbox.rate());
      rss[side].push(run.rssMiB);
      sandbox.stop();
    }
  }
  const rateRatio = median(rates.ours) / median(rates.cannon);
  const rssRatio = median(rss.ours) / median(rss.cannon);
  const ok = rateRatio >= RATE_TARGET && rssRatio <= RSS_TARGET;
  failed ||= !ok;
  console.log(
    `add --file ${count} pets, ${concurrency} connections: ${median(rates.ours).toFixed(0)} vs autocannon ${median(rates.cannon).toFixed(0)} req/s = ` +
      `${rateRatio.toFixed(2)}x (target >= ${RATE_TARGET}x); peak RSS ${median(rss.ours).toFixed(1)} vs ${median(rss.cannon).toFixed(1)} MiB = ` +
      `${rssRatio.toFixed(2)}x (target <= ${RSS_TARGET}x) ${ok ? 'ok' : 'MISSED'}; medians of ${rounds} rounds, load ${os.loadavg()[0].toFixed(2)}`,
  );
  console.log(`  ranges: petstore ${spread(rates.ours)}, autocannon ${spread(rates.cannon)} req/s`);
  if (rates.journal.length) {
    // Issue 19: the journal (--failed) keeps at least 0.9x the throughput of the same load without it.
    const journalRatio = median(rates.journal) / median(rates.ours);
    const journalOk = journalRatio >= JOURNAL_TARGET;
    failed ||= !journalOk;
    journalRss.set(count, median(rss.journal) / median(rss.ours));
    console.log(
      `  with --failed (the load journal): ${median(rates.journal).toFixed(0)} req/s = ${journalRatio.toFixed(2)}x without it (target >= ${JOURNAL_TARGET}x) ` +
        `${journalOk ? 'ok' : 'MISSED'}; peak RSS ${median(rss.journal).toFixed(1)} MiB (${spread(rates.journal)} req/s)`,
    );
  }
  // Issue 32: at the transport's own pace, journal included, against undici alone (its Pool, nothing else).
  const paceRatio = median(rates.journal) / median(rates.undici);
  const paceRss = median(rss.journal) / median(rss.undici);
  const paceOk = paceRatio >= PACE_TARGET && paceRss <= PACE_RSS;
  failed ||= !paceOk;
  console.log(
    `  against undici alone (bench/undici-alone.mjs, ${median(rates.undici).toFixed(0)} req/s, ${(median(rates.undici) / median(rates.cannon)).toFixed(2)}x autocannon): ` +
      `with --failed ${paceRatio.toFixed(2)}x (target >= ${PACE_TARGET}x), without ${(median(rates.ours) / median(rates.undici)).toFixed(2)}x; ` +
      `peak RSS ${paceRss.toFixed(2)}x its ${median(rss.undici).toFixed(1)} MiB (target <= ${PACE_RSS}x) ${paceOk ? 'ok' : 'MISSED'}`,
  );
}
// Issue 32 item 2: peak RSS of add --file with --failed and with --json into a pipe, against undici alone, at the
// large load and at HUGE pets (one round each, alternating sides; fresh sandboxes).
for (const count of [LARGE, HUGE].filter((n) => n > 0)) {
  if (!files.has(count)) files.set(count, writePets(count));
  const rss = { undici: [], journal: [], json: [] };
  for (const side of ['undici', 'journal', 'json']) {
    const sandbox = await startSandbox();
    const run =
      side === 'undici'
        ? undiciAlone(sandbox.baseUrl, count, 8)
        : petstoreAdd(files.get(count), sandbox.baseUrl, 8, side === 'json' ? 'json' : true);
    if (side === 'json' && run.stdout.split('\n').length !== count + 1)
      throw new Error(`add --file --json printed ${run.stdout.split('\n').length - 1} lines of ${count}`);
    rss[side].push(run.rssMiB);
    sandbox.stop();
  }
  const ratios = ['journal', 'json'].map((side) => median(rss[side]) / median(rss.undici));
  const ok = ratios.every((r) => r <= PACE_RSS);
  failed ||= !ok;
  console.log(
    `peak RSS at ${count} pets, 8 connections: --failed ${median(rss.journal).toFixed(1)} MiB = ${ratios[0].toFixed(2)}x, --json into a pipe ` +
      `${median(rss.json).toFixed(1)} MiB = ${ratios[1].toFixed(2)}x undici alone's ${median(rss.undici).toFixed(1)} MiB (target <= ${PACE_RSS}x) ` +
      `${ok ? 'ok' : 'MISSED'}; one round, load ${os.loadavg()[0].toFixed(2)}`,
  );
}
// The journal costs no memory: peak RSS with --failed against the same load without it, at each size
// (how peak RSS follows the input's size, with and without it: bench/bulk-rss-scale.mjs).
for (const [count, ratio] of journalRss) {
  const ok = ratio <= JOURNAL_RSS;
  failed ||= !ok;
  console.log(
    `with --failed, peak RSS at ${count} pets = ${ratio.toFixed(2)}x that without it (target <= ${JOURNAL_RSS}x) ${ok ? 'ok' : 'MISSED'}`,
  );
}
process.exitCode = failed ? 1 : 0;
