#!/usr/bin/env node
// Per-call cost of petstore against its peer, each as a ratio of medians over
// alternating pairs (default 31; BENCH_PAIRS): `--version`, `--help` and
// `get 1 --json` (key from PETSTORE_API_KEY, and key stored by `auth login`)
// against bare `node -e 0` on the same Node binary, and the stored key against
// the environment key; Node's public loader with
// its compile cache (bench/public-loader.cjs) against the bin's launcher
// (src/launch.ts) for `get 1 --json`; `get 1 --json` against Node's own fetch
// doing the same GET (bench/fetch-get.mjs, issue 32); and peak RSS of `get`
// against bare node and against that fetch script.
// With BENCH_BASELINE naming another build's bin/petstore.js (a checkout of an
// older commit, built), `--version`, `--help` and `get 1 --json` against it too
// (issue 31: within 3%).
// The sandbox runs as its own process; every run's exit code is checked; each
// figure is printed with the load average. Run by hand: npm run bench
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './median.mjs';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 31);
const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
const PUBLIC_LOADER = fileURLToPath(new URL('./public-loader.cjs', import.meta.url));
const NODE = process.execPath;
const load = () => `load ${os.loadavg()[0].toFixed(2)}`;

function once(args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    // stderr is kept to say why a run failed (petstore's own warnings go there too).
    const child = spawn(NODE, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(-400)}`));
      else resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

/** Peak RSS in MiB of one run, from GNU time (`apt-get install time`); throws when the run fails. */
function peakRssMiB(args, env) {
  const r = spawnSync('/usr/bin/time', ['-f', '%M', NODE, ...args], { env, encoding: 'utf8', timeout: 20_000 });
  if (r.error?.code === 'ENOENT') return undefined;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.trim().split('\n').slice(-2).join(' ')}`);
  const kib = Number(r.stderr.trim().split('\n').pop());
  return Number.isFinite(kib) ? kib / 1024 : undefined;
}

/** The sandbox CLI as a child process on a free port; resolves with its base URL and a stop function. */
function startSandbox() {
  const child = spawn(NODE, [fileURLToPath(new URL('../sandbox/server.mjs', import.meta.url)), '--port', '0', '--key', 'bench'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout.once('data', (d) => {
      const baseUrl = /http:\/\/\S+/.exec(String(d))?.[0];
      if (!baseUrl) reject(new Error(`the sandbox said: ${d}`));
      else resolve({ baseUrl, close: () => child.kill() });
    });
  });
}

const sandbox = await startSandbox();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bench-'));
// A config as `auth login` leaves it: the key stored for the sandbox's origin.
fs.mkdirSync(path.join(scratch, 'config', 'petstore'), { recursive: true, mode: 0o700 });
fs.writeFileSync(
  path.join(scratch, 'config', 'petstore', 'config.json'),
  JSON.stringify({
    environments: { production: { baseUrl: `${sandbox.baseUrl}/`, apiKey: 'bench', apiKeyOrigin: new URL(sandbox.baseUrl).origin } },
  }),
  { mode: 0o600 },
);
const base = {
  PATH: process.env.PATH,
  HOME: scratch,
  XDG_CACHE_HOME: path.join(scratch, 'cache'),
  XDG_CONFIG_HOME: path.join(scratch, 'config'),
  PETSTORE_NO_DEPRECATION_WARNING: '1',
};
const envKey = { ...base, PETSTORE_BASE_URL: sandbox.baseUrl, PETSTORE_API_KEY: 'bench' };
const GET = ['get', '1', '--json'];
const bare = { args: ['-e', '0'], env: base, name: 'node -e 0' };
// Issue 32: the transport's own floor, Node's fetch in a script of its own.
const FETCH_GET = fileURLToPath(new URL('./fetch-get.mjs', import.meta.url));
const fetchScript = { args: [FETCH_GET, '1'], env: envKey, name: 'fetch script' };
// The same GET through the npm undici alone (its public entry, Node's compile cache): what loading undici costs.
const UNDICI_GET = fileURLToPath(new URL('./undici-get.cjs', import.meta.url));
const undiciScript = { args: [UNDICI_GET, '1'], env: envKey, name: 'undici script' };

const cases = [
  { name: 'petstore --version', tool: { args: [BIN, '--version'], env: base }, peer: bare, target: 1.3 },
  { name: 'petstore --help', tool: { args: [BIN, '--help'], env: base }, peer: bare, target: 1.6 },
  { name: 'get 1 --json, env key', tool: { args: [BIN, ...GET], env: envKey }, peer: bare, target: 2.5 },
  { name: 'get 1 --json, stored key', tool: { args: [BIN, ...GET], env: base }, peer: bare, target: 2.5 },
  { name: 'get, env key / fetch', tool: { args: [BIN, ...GET], env: envKey }, peer: fetchScript, target: 1.0 },
  { name: 'get, stored key / fetch', tool: { args: [BIN, ...GET], env: base }, peer: fetchScript, target: 1.0 },
  { name: 'undici script / fetch', tool: undiciScript, peer: fetchScript, note: "(for information: the npm undici's floor)" },
  { name: 'get, env key / undici', tool: { args: [BIN, ...GET], env: envKey }, peer: undiciScript, note: '(for information)' },
  // Issue 23: a stored key costs nothing extra.
  {
    name: 'stored key / env key',
    tool: { args: [BIN, ...GET], env: base },
    peer: { args: [BIN, ...GET], env: envKey, name: 'env key' },
    note: '(for information: ~1.00x)',
  },
  // Issue 21: the launcher stays only while Node's public path is more than 10% slower.
  {
    name: 'public loader / launcher',
    tool: { args: [PUBLIC_LOADER, ...GET], env: envKey },
    peer: { args: [BIN, ...GET], env: envKey, name: 'bin' },
    pairs: Math.max(30, PAIRS),
    note: '(> 1.10x: the launcher stays)',
  },
  // For information: every call as slow as the first, as where the cache folder does not persist.
  { name: 'get, no code cache', tool: { args: [BIN, ...GET], env: { ...envKey, NODE_DISABLE_COMPILE_CACHE: '1' } }, peer: bare },
];

// Issue 31: against an earlier build of petstore, when one is named.
const BASELINE = process.env.BENCH_BASELINE;
if (BASELINE) {
  for (const [name, args, env] of [
    ['--version', ['--version'], base],
    ['--help', ['--help'], base],
    ['get 1 --json', GET, envKey],
  ]) {
    cases.push({
      name: `${name} / baseline`,
      tool: { args: [BIN, ...args], env },
      peer: { args: [BASELINE, ...args], env, name: 'baseline' },
      target: 1.03,
    });
  }
}

console.log(`node ${process.version}, ${os.cpus().length} CPUs, alternating pairs, medians`);
let failed = false;
for (const c of cases) {
  const pairs = c.pairs ?? PAIRS;
  // Warm-up, not counted: the first run of a command writes its code cache.
  for (let i = 0; i < 3; i += 1) {
    await once(c.peer.args, c.peer.env);
    await once(c.tool.args, c.tool.env);
  }
  const peer = [];
  const tool = [];
  for (let i = 0; i < pairs; i += 1) {
    // The order within a pair alternates, so that neither side always runs second.
    if (i % 2) tool.push(await once(c.tool.args, c.tool.env));
    peer.push(await once(c.peer.args, c.peer.env));
    if (!(i % 2)) tool.push(await once(c.tool.args, c.tool.env));
  }
  const ratio = median(tool) / median(peer);
  const ok = c.target === undefined || ratio <= c.target;
  failed ||= !ok;
  const verdict = c.target === undefined ? (c.note ?? '(no target)') : `(target <= ${c.target}x) ${ok ? 'ok' : 'MISSED'}`;
  console.log(
    `${c.name.padEnd(26)} ${median(tool).toFixed(1)} ms vs ${c.peer.name} ${median(peer).toFixed(1)} ms = ${ratio.toFixed(2)}x ${verdict}, ${pairs} pairs, ${load()}`,
  );
}

const bareRss = [];
const getRss = [];
const fetchRss = [];
const undiciRss = [];
for (let i = 0; i < 9; i += 1) {
  bareRss.push(peakRssMiB(bare.args, base));
  getRss.push(peakRssMiB([BIN, ...GET], envKey));
  fetchRss.push(peakRssMiB(fetchScript.args, envKey));
  undiciRss.push(peakRssMiB(undiciScript.args, envKey));
}
if (bareRss.includes(undefined) || getRss.includes(undefined) || fetchRss.includes(undefined)) {
  console.log('peak RSS: /usr/bin/time not found (apt-get install time)');
} else {
  const ratio = median(getRss) / median(bareRss);
  failed ||= ratio > 1.5;
  console.log(
    `peak RSS get --json         ${median(getRss).toFixed(1)} MiB vs node -e 0 ${median(bareRss).toFixed(1)} MiB = ${ratio.toFixed(2)}x (target <= 1.5x) ${ratio <= 1.5 ? 'ok' : 'MISSED'}, 9 pairs, ${load()}`,
  );
  const above = median(getRss) - median(fetchRss);
  failed ||= above > 4;
  console.log(
    `peak RSS get --json         ${median(getRss).toFixed(1)} MiB vs fetch script ${median(fetchRss).toFixed(1)} MiB = ${above.toFixed(1)} MiB above (target <= 4 MiB) ${above <= 4 ? 'ok' : 'MISSED'}, 9 rounds, ${load()}`,
  );
  console.log(
    `peak RSS undici script      ${median(undiciRss).toFixed(1)} MiB = ${(median(undiciRss) - median(fetchRss)).toFixed(1)} MiB above the fetch script (for information: the npm undici's floor), 9 rounds`,
  );
}
sandbox.close();
fs.rmSync(scratch, { recursive: true, force: true });
process.exitCode = failed ? 1 : 0;
