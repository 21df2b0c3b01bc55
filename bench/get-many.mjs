#!/usr/bin/env node
// Many ids in one process (issue 37 item 8): `petstore get - --format ndjson`
// of 10,000 ids on 8 connections against bench/undici-pool-get.mjs (one undici
// Pool dispatching the same GETs and printing each body as a line), both
// against bench/minimal-service.mjs, a service that only answers. Alternating
// rounds (5; BENCH_GET_ROUNDS), medians: whole-process wall time as a pace
// ratio (undici's time / petstore's, target >= 0.9x) and the service's own
// clock beside it, peak RSS as a ratio (target <= 1.3x); then the peak RSS of
// 100,000 ids (BENCH_GET_LARGE, 3 rounds: BENCH_GET_LARGE_ROUNDS; target
// <= 150 MiB). Every run is a fresh process reading its ids from a file on
// stdin and writing into a pipe this process reads (each line counted); every
// figure is printed with the load average. Run by hand: npm run bench
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './median.mjs';
import { alternatingRounds, load, petstoreEnv, roundOnFreshService, runNode, USER_AGENT } from './minimal-runs.mjs';

const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
const POOL_GET = fileURLToPath(new URL('./undici-pool-get.mjs', import.meta.url));
const COUNT = Number(process.env.BENCH_GET_COUNT ?? 10_000);
const ROUNDS = Number(process.env.BENCH_GET_ROUNDS ?? 5);
const LARGE = Number(process.env.BENCH_GET_LARGE ?? 100_000);
const LARGE_ROUNDS = Number(process.env.BENCH_GET_LARGE_ROUNDS ?? 3);
const CONCURRENCY = 8;
const PACE_TARGET = 0.9;
const RSS_TARGET = 1.3;
const LARGE_RSS_MIB = 150;

function writeIds(count) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bench-ids-')), `ids-${count}.txt`);
  let text = '';
  for (let id = 1; id <= count; id += 1) text += `${id}\n`;
  fs.writeFileSync(file, text);
  return file;
}

function petstoreGet(baseUrl, idsFile) {
  const env = petstoreEnv(baseUrl, { PETSTORE_NO_DEPRECATION_WARNING: '1' });
  const args = [BIN, 'get', '-', '--format', 'ndjson', '--concurrency', String(CONCURRENCY)];
  return runNode('petstore get -', args, env, { input: idsFile });
}

function poolGet(baseUrl, idsFile) {
  return runNode('undici-pool-get', [POOL_GET, baseUrl, String(CONCURRENCY), USER_AGENT], process.env, { input: idsFile });
}

/** One run of `side` against a fresh service; checks it printed a line per id and the service saw a GET per id. */
const round = (side, idsFile, count) =>
  roundOnFreshService(
    side,
    (baseUrl) => {
      const run = side === 'petstore' ? petstoreGet(baseUrl, idsFile) : poolGet(baseUrl, idsFile);
      if (run.lines !== count) throw new Error(`${side} printed ${run.lines} lines for ${count} ids`);
      return run;
    },
    count,
    'ids',
  );

const ms = (seconds) => `${(seconds * 1000).toFixed(0)} ms`;
const all = (values, unit = (v) => v.toFixed(2)) => values.map(unit).join(' ');

console.log(`node ${process.version}, ${os.cpus().length} CPUs, ${load()}`);
let failed = false;
const idsFile = writeIds(COUNT);
// Warm-up, not counted: the first run of a command writes its code cache.
await round('petstore', idsFile, COUNT);
await round('undici', idsFile, COUNT);
const runs = await alternatingRounds(ROUNDS, (side) => round(side, idsFile, COUNT));
const wall = (side) => median(runs[side].map((r) => r.seconds));
const served = (side) => median(runs[side].map((r) => r.serviceSeconds));
const rss = (side) => median(runs[side].map((r) => r.rssMiB));
const pace = wall('undici') / wall('petstore');
const rssRatio = rss('petstore') / rss('undici');
const paceOk = pace >= PACE_TARGET && rssRatio <= RSS_TARGET;
failed ||= !paceOk;
console.log(
  `get - of ${COUNT} ids, ${CONCURRENCY} connections: ${ms(wall('petstore'))} vs undici Pool ${ms(wall('undici'))} = ${pace.toFixed(2)}x the pace ` +
    `(target >= ${PACE_TARGET}x); service clock ${ms(served('petstore'))} vs ${ms(served('undici'))} = ${(served('undici') / served('petstore')).toFixed(2)}x; ` +
    `peak RSS ${rss('petstore').toFixed(1)} vs ${rss('undici').toFixed(1)} MiB = ${rssRatio.toFixed(2)}x (target <= ${RSS_TARGET}x) ` +
    `${paceOk ? 'ok' : 'MISSED'}; medians of ${ROUNDS} rounds, ${load()}`,
);
console.log(
  `  each round (s): petstore ${all(runs.petstore.map((r) => r.seconds))}, undici ${all(runs.undici.map((r) => r.seconds))}; ` +
    `peak RSS (MiB): petstore ${all(
      runs.petstore.map((r) => r.rssMiB),
      (v) => v.toFixed(1),
    )}, undici ${all(
      runs.undici.map((r) => r.rssMiB),
      (v) => v.toFixed(1),
    )}`,
);
if (LARGE > 0) {
  const largeFile = writeIds(LARGE);
  const large = await alternatingRounds(LARGE_ROUNDS, (side) => round(side, largeFile, LARGE));
  const peak = median(large.petstore.map((r) => r.rssMiB));
  const ok = peak <= LARGE_RSS_MIB;
  failed ||= !ok;
  console.log(
    `get - of ${LARGE} ids: peak RSS ${peak.toFixed(1)} MiB (target <= ${LARGE_RSS_MIB} MiB) ${ok ? 'ok' : 'MISSED'}; undici Pool ` +
      `${median(large.undici.map((r) => r.rssMiB)).toFixed(1)} MiB; wall ${ms(median(large.petstore.map((r) => r.seconds)))} vs ` +
      `${ms(median(large.undici.map((r) => r.seconds)))} = ${(median(large.undici.map((r) => r.seconds)) / median(large.petstore.map((r) => r.seconds))).toFixed(2)}x; ` +
      `medians of ${LARGE_ROUNDS} rounds, ${load()}`,
  );
  fs.rmSync(path.dirname(largeFile), { recursive: true, force: true });
}
fs.rmSync(path.dirname(idsFile), { recursive: true, force: true });
process.exitCode = failed ? 1 : 0;
