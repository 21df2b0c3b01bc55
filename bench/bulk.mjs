#!/usr/bin/env node
// Bulk load: `petstore add --file` of 10,000 pets against autocannon sending
// the same POSTs at the same concurrency to the same sandbox (requests per
// second, medians of alternating rounds), and peak RSS of `add --file` of
// 100,000 pets. For reference it also times undici alone sending the same
// POSTs (bench/undici-alone.mjs): the most petstore could reach with undici on
// this machine. The sandbox runs in a process of its own. Run by hand: npm run bench
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { median } from './median.mjs';

const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
const SANDBOX = fileURLToPath(new URL('../sandbox/server.mjs', import.meta.url));
const UNDICI_ALONE = fileURLToPath(new URL('./undici-alone.mjs', import.meta.url));
const CONCURRENCY = 8;
const SMALL = Number(process.env.BENCH_BULK_SMALL ?? 10_000);
const LARGE = Number(process.env.BENCH_BULK_LARGE ?? 100_000);
const ROUNDS = Number(process.env.BENCH_BULK_ROUNDS ?? 7);

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

/** Seconds a fresh `node <args>` takes from start to exit; throws naming `name` when it fails. */
function secondsOfNode(name, args, env) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${name} exited ${r.status}: ${r.stderr.slice(-400)}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

function petstoreAdd(file, baseUrl, { measureRss = false } = {}) {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: 'bench' };
  const args = [BIN, 'add', '--file', file, '--concurrency', String(CONCURRENCY)];
  if (!measureRss) return { seconds: secondsOfNode('petstore add --file', args, env) };
  const started = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`petstore add --file exited ${r.status}: ${r.stderr.slice(-400)}`);
  return { seconds, rssMiB: Number(r.stderr.trim().split('\n').pop()) / 1024 };
}

/** Seconds a fresh process sending `count` POSTs through undici alone takes, timed like petstore. */
function undiciAlone(baseUrl, count) {
  return secondsOfNode('undici-alone', [UNDICI_ALONE, baseUrl, String(count), String(CONCURRENCY)], process.env);
}

/**
 * Requests per second of autocannon sending `count` POSTs. Timed here, from
 * the start to the last response: autocannon's own `duration` ends on its
 * one-second sampling tick (10,000 requests done in 1.2 s report 2 s).
 */
function autocannonPosts(baseUrl, count) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let last = started;
    const instance = autocannon(
      {
        url: `${baseUrl}/pets`,
        method: 'POST',
        headers: { authorization: 'Bearer bench', 'content-type': 'application/json', accept: 'application/json' },
        body: '{"name":"pet-autocannon","categoryId":1,"status":"available"}',
        connections: CONCURRENCY,
        amount: count,
      },
      (error, result) => {
        if (error) reject(error);
        else if (result.non2xx) reject(new Error(`autocannon saw ${result.non2xx} non-2xx answers`));
        else resolve(result.requests.total / ((last - started) / 1000));
      },
    );
    instance.on('response', () => {
      last = performance.now();
    });
  });
}

console.log(`node ${process.version}, concurrency ${CONCURRENCY}`);
let failed = false;

// Each side gets a fresh sandbox, warmed by the same autocannon burst, so that
// none meets a store grown by another; the order of the sides rotates each round.
{
  const file = writePets(SMALL);
  const rates = { cannon: [], ours: [], undici: [] };
  const sides = Object.keys(rates);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const side of [...sides.slice(round % 3), ...sides.slice(0, round % 3)]) {
      const sandbox = await startSandbox();
      await autocannonPosts(sandbox.baseUrl, 1000);
      if (side === 'cannon') rates.cannon.push(await autocannonPosts(sandbox.baseUrl, SMALL));
      else if (side === 'ours') rates.ours.push(SMALL / petstoreAdd(file, sandbox.baseUrl).seconds);
      else rates.undici.push(SMALL / undiciAlone(sandbox.baseUrl, SMALL));
      sandbox.child.kill();
    }
  }
  const cannon = median(rates.cannon);
  const ratio = median(rates.ours) / cannon;
  failed ||= ratio < 0.8;
  const spread = (values) => `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`;
  console.log(
    `add --file ${SMALL} pets: ${median(rates.ours).toFixed(0)} req/s vs autocannon ${cannon.toFixed(0)} req/s = ${ratio.toFixed(2)}x, medians of ${ROUNDS} rounds (target >= 0.8x) ${ratio >= 0.8 ? 'ok' : 'MISSED'}`,
  );
  console.log(
    `  for reference, undici alone (bench/undici-alone.mjs): ${median(rates.undici).toFixed(0)} req/s = ${(median(rates.undici) / cannon).toFixed(2)}x; ` +
      `ranges: petstore ${spread(rates.ours)}, undici ${spread(rates.undici)}, autocannon ${spread(rates.cannon)} req/s`,
  );
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
