#!/usr/bin/env node
// A bulk load's own cost (issue 37 item 8): `petstore add --file` of 20,000
// pets on 8 connections against bench/undici-alone.mjs (one undici Pool
// dispatching the same POSTs, each answer JSON.parse'd, nothing else), both
// against bench/minimal-service.mjs, a service that only answers, so that
// petstore's per-item work shows (bench/bulk.mjs's sandbox does more per
// request, which hides it). A fresh service per run; one warm-up run each
// (the first run of a command writes its code cache), then alternating
// rounds (5; BENCH_ADD_ROUNDS), medians: whole-process wall time as a pace
// ratio (undici's time / petstore's, target >= 0.9x) with the service's own
// clock beside it, and peak RSS. Every run is a fresh process under GNU time,
// its stdout /dev/null; petstore must exit 0 and the service count one POST
// per pet. Every figure is printed with the load average. Run by hand: npm run bench
//
//   BENCH_ADD_PETS (20000) BENCH_ADD_ROUNDS (5) BENCH_ADD_BIN (another build's bin/petstore.js)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './median.mjs';
import { alternatingRounds, load, petstoreEnv, roundOnFreshService, runNode, USER_AGENT } from './minimal-runs.mjs';

const BIN = process.env.BENCH_ADD_BIN ?? fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
const UNDICI_ALONE = fileURLToPath(new URL('./undici-alone.mjs', import.meta.url));
const COUNT = Number(process.env.BENCH_ADD_PETS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ADD_ROUNDS ?? 5);
const CONCURRENCY = 8;
const PACE_TARGET = 0.9;

/** The pets bench/undici-alone.mjs sends, one NewPet a line. */
function writePets(count) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bench-add-')), `pets-${count}.ndjson`);
  let text = '';
  for (let i = 0; i < count; i += 1) text += `{"name":"pet-${i}","categoryId":${i % 7},"status":"available"}\n`;
  fs.writeFileSync(file, text);
  return file;
}

function petstoreAdd(baseUrl, file) {
  const env = petstoreEnv(baseUrl);
  const args = [BIN, 'add', '--file', file, '--concurrency', String(CONCURRENCY)];
  return runNode('petstore add --file', args, env, { stdout: 'ignore' });
}

function undiciAlone(baseUrl) {
  return runNode('undici-alone', [UNDICI_ALONE, baseUrl, String(COUNT), String(CONCURRENCY), USER_AGENT], process.env, {
    stdout: 'ignore',
  });
}

/** One run of `side` against a fresh service; checks the service saw a POST per pet. */
const round = (side, file) =>
  roundOnFreshService(side, (baseUrl) => (side === 'petstore' ? petstoreAdd(baseUrl, file) : undiciAlone(baseUrl)), COUNT, 'pets');

const ms = (seconds) => `${(seconds * 1000).toFixed(0)} ms`;

console.log(`node ${process.version}, ${os.cpus().length} CPUs, ${load()}`);
const file = writePets(COUNT);
await round('petstore', file);
await round('undici', file);
const runs = await alternatingRounds(ROUNDS, (side) => round(side, file));
fs.rmSync(path.dirname(file), { recursive: true, force: true });
const wall = (side) => median(runs[side].map((r) => r.seconds));
const served = (side) => median(runs[side].map((r) => r.serviceSeconds));
const rss = (side) => median(runs[side].map((r) => r.rssMiB));
const pace = wall('undici') / wall('petstore');
const ok = pace >= PACE_TARGET;
console.log(
  `add --file of ${COUNT} pets, ${CONCURRENCY} connections: ${ms(wall('petstore'))} vs undici alone ${ms(wall('undici'))} = ${pace.toFixed(2)}x ` +
    `the pace (target >= ${PACE_TARGET}x) ${ok ? 'ok' : 'MISSED'}; service clock ${ms(served('petstore'))} vs ${ms(served('undici'))} = ` +
    `${(served('undici') / served('petstore')).toFixed(2)}x; peak RSS ${rss('petstore').toFixed(1)} vs ${rss('undici').toFixed(1)} MiB; ` +
    `medians of ${ROUNDS} rounds, ${load()}`,
);
console.log(
  `  each round (s): petstore ${runs.petstore.map((r) => r.seconds.toFixed(2)).join(' ')}, undici ${runs.undici.map((r) => r.seconds.toFixed(2)).join(' ')}`,
);
process.exitCode = ok ? 0 : 1;
