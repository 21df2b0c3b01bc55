#!/usr/bin/env node
// The standalone executable against bin/petstore.js on the pinned Node:
// `--version`, `--help` and `get 1 --json` (against the sandbox on loopback),
// each as a ratio to bare `node -e 0` on the same Node binary (alternating
// runs, medians of N rounds, default 31), peak RSS of `get` (GNU time) and the
// file size. Each tool has its own warmed code cache folder. Run by hand after
// `npm run build:standalone`:  npx node bench/standalone.mjs
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPetService } from '../sandbox/pet-service.mjs';
import { median } from './median.mjs';

const ROUNDS = Number(process.env.BENCH_PAIRS ?? 31);
const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
const STANDALONE = fileURLToPath(new URL(`../dist/petstore-${process.platform}-${process.arch}`, import.meta.url));
const NODE = process.execPath;
if (!fs.existsSync(STANDALONE)) throw new Error(`${STANDALONE} is missing: run "npm run build:standalone"`);

const sandbox = await startPetService({ key: 'bench', record: false });
const env = (cache) => ({
  PATH: '/usr/bin:/bin',
  HOME: cache,
  XDG_CACHE_HOME: cache,
  PETSTORE_BASE_URL: sandbox.baseUrl,
  PETSTORE_API_KEY: 'bench',
  PETSTORE_NO_DEPRECATION_WARNING: '1',
});
const folder = () => fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bench-'));
const bare = { name: 'node -e 0', command: NODE, args: ['-e', '0'], env: env(folder()) };
const binCache = folder();
const standaloneCache = folder();
const cases = [bare];
for (const args of [['--version'], ['--help'], ['get', '1', '--json']]) {
  cases.push({ name: `bin ${args[0]}`, command: NODE, args: [BIN, ...args], env: env(binCache) });
  cases.push({ name: `standalone ${args[0]}`, command: STANDALONE, args, env: env(standaloneCache) });
}

function once({ command, args, env }) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`${command} exited ${code}`)),
    );
  });
}

/**
 * Peak RSS in MiB of one successful run, from GNU time (`apt-get install
 * time`); undefined without it. Spawned without blocking: the sandbox answers
 * from this process.
 */
function peakRssMiB({ command, args, env }) {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%M', command, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve(Number(stderr.trim().split('\n').pop()) / 1024);
    });
  });
}

// Three runs each first: the first run of a command writes its code cache.
for (let i = 0; i < 3; i += 1) for (const c of cases) await once(c);
const times = cases.map(() => []);
for (let i = 0; i < ROUNDS; i += 1) for (const [k, c] of cases.entries()) times[k].push(await once(c));
const bareMs = median(times[0]);
console.log(`node ${process.version}, ${ROUNDS} alternating rounds, medians`);
for (const [k, c] of cases.entries()) {
  const rss = [];
  if (c.args.includes('get') || c === bare) for (let i = 0; i < 5; i += 1) rss.push(await peakRssMiB(c));
  const rssText =
    rss.length === 0 ? '' : rss.includes(undefined) ? '  peak RSS: no /usr/bin/time' : `  peak RSS ${median(rss).toFixed(1)} MiB`;
  console.log(`${c.name.padEnd(20)} ${median(times[k]).toFixed(1).padStart(6)} ms = ${(median(times[k]) / bareMs).toFixed(2)}x${rssText}`);
}
console.log(`standalone size      ${(fs.statSync(STANDALONE).size / 2 ** 20).toFixed(1)} MiB (${path.basename(STANDALONE)})`);
const ratio = median(times[6]) / median(times[5]);
console.log(`standalone / bin, get --json: ${ratio.toFixed(2)}x ${ratio <= 1 ? '(not slower: ok)' : '(SLOWER)'}`);
await sandbox.close();
process.exitCode = ratio <= 1 ? 0 : 1;
