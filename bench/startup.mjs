#!/usr/bin/env node
// Per-call cost of petstore against bare `node -e 0`, on the same Node binary:
// alternating runs, the median of N pairs (default 31), and peak RSS of
// `get --json` against the sandbox on loopback. The sandbox runs as its own
// process, so that it can answer while a measured run waits on it; every run's
// exit code is checked. Run by hand: npm run bench
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './median.mjs';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 31);
const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
const NODE = process.execPath;

function once(args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(NODE, args, { env, stdio: ['ignore', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}`));
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
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  PETSTORE_BASE_URL: sandbox.baseUrl,
  PETSTORE_API_KEY: 'bench',
  PETSTORE_NO_DEPRECATION_WARNING: '1',
};

const cases = [
  { name: 'petstore --version', args: [BIN, '--version'], target: 1.3 },
  { name: 'petstore --help', args: [BIN, '--help'], target: 1.6 },
  { name: 'petstore get 1 --json', args: [BIN, 'get', '1', '--json'], target: 3.2 },
  // For information: every call as slow as the first, as where the cache folder does not persist.
  { name: 'get, no code cache', args: [BIN, 'get', '1', '--json'], env: { NODE_DISABLE_COMPILE_CACHE: '1' } },
];

console.log(`node ${process.version}, ${PAIRS} alternating pairs per case, medians`);
let failed = false;
for (const c of cases) {
  const toolEnv = { ...env, ...c.env };
  for (let i = 0; i < 3; i += 1) {
    await once(['-e', '0'], env);
    await once(c.args, toolEnv);
  }
  const bare = [];
  const tool = [];
  for (let i = 0; i < PAIRS; i += 1) {
    bare.push(await once(['-e', '0'], env));
    tool.push(await once(c.args, toolEnv));
  }
  const ratio = median(tool) / median(bare);
  const ok = c.target === undefined || ratio <= c.target;
  failed ||= !ok;
  const verdict = c.target === undefined ? '(no target)' : `(target <= ${c.target}x) ${ok ? 'ok' : 'MISSED'}`;
  console.log(
    `${c.name.padEnd(24)} ${median(tool).toFixed(1)} ms vs node -e 0 ${median(bare).toFixed(1)} ms = ${ratio.toFixed(2)}x ${verdict}`,
  );
}

const bareRss = [];
const getRss = [];
for (let i = 0; i < 5; i += 1) {
  bareRss.push(peakRssMiB(['-e', '0'], env));
  getRss.push(peakRssMiB([BIN, 'get', '1', '--json'], env));
}
if (bareRss.includes(undefined) || getRss.includes(undefined)) {
  console.log('peak RSS: /usr/bin/time not found (apt-get install time)');
} else {
  const ratio = median(getRss) / median(bareRss);
  failed ||= ratio > 1.5;
  console.log(
    `peak RSS get --json      ${median(getRss).toFixed(1)} MiB vs node -e 0 ${median(bareRss).toFixed(1)} MiB = ${ratio.toFixed(2)}x (target <= 1.5x) ${ratio <= 1.5 ? 'ok' : 'MISSED'}`,
  );
}
sandbox.close();
process.exitCode = failed ? 1 : 0;
