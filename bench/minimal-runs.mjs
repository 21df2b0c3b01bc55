// What bench/get-many.mjs and bench/add-file-minimal.mjs share (issue 37 item 8): bench/minimal-service.mjs as a process of its own, a
// fresh `node` timed from start to exit under GNU time, and the load average to print beside every figure.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SERVICE = fileURLToPath(new URL('./minimal-service.mjs', import.meta.url));

/** What petstore sends as User-Agent, so that every client sends the same requests. */
export const USER_AGENT = `petstore/${JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}`;

/** The three load averages, as `load 1.20 1.35 2.00` (1, 5 and 15 minutes). */
export const load = () =>
  `load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;

// petstore's code cache (src/launch.ts) in a folder of this bench's own: a build run from elsewhere with the shared cache folder
// removes the caches of other builds, and a run without one compiles the whole bundle (the warm-up runs write it).
const CACHE_HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bench-cache-'));
process.on('exit', () => fs.rmSync(CACHE_HOME, { recursive: true, force: true }));

/** The environment of a petstore run against `baseUrl` (any key: the minimal service checks none), with the bench's own code cache. */
export function petstoreEnv(baseUrl, more = {}) {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    XDG_CACHE_HOME: CACHE_HOME,
    PETSTORE_BASE_URL: baseUrl,
    PETSTORE_API_KEY: 'bench',
    ...more,
  };
}

/** The minimal service as a process of its own: its base URL, `clock()` (requests and seconds since the last call) and `stop()`. */
export async function startService() {
  const child = spawn(process.execPath, [SERVICE], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const baseUrl = (await lines.next()).value;
  const clock = async () => {
    child.stdin.write('\n');
    return JSON.parse((await lines.next()).value);
  };
  return { baseUrl, clock, stop: () => child.stdin.end() };
}

/**
 * Runs a fresh `node <args>` under GNU time, stdin `input` (a file's path, or nothing) and stdout a pipe read here (`stdout: 'pipe'`) or
 * /dev/null; returns its wall time in seconds (start to exit), peak RSS in MiB and the lines it printed. Throws naming `name` when it fails.
 */
export function runNode(name, args, env, { input, stdout = 'pipe' } = {}) {
  const fd = input === undefined ? 'ignore' : fs.openSync(input, 'r');
  const started = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], {
    env,
    stdio: [fd, stdout, 'pipe'],
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (fd !== 'ignore') fs.closeSync(fd);
  if (r.error) throw new Error(`/usr/bin/time: ${r.error.message} (apt-get install time)`);
  if (r.status !== 0) throw new Error(`${name} exited ${r.status}: ${r.stderr.slice(-400)}`);
  const rssMiB = Number(r.stderr.trim().split('\n').pop()) / 1024;
  let lines = 0;
  const out = r.stdout ?? '';
  for (let i = out.indexOf('\n'); i !== -1; i = out.indexOf('\n', i + 1)) lines += 1;
  return { seconds, rssMiB, lines };
}

/**
 * One run of `name` against a fresh minimal service: `run(baseUrl)` returns runNode's result; throws unless the service counted
 * `expected` requests (`noun` names what they were for). Returns the run's figures with the service's own clock (`serviceSeconds`).
 */
export async function roundOnFreshService(name, run, expected, noun) {
  const service = await startService();
  try {
    const result = run(service.baseUrl);
    const { requests, seconds } = await service.clock();
    if (requests !== expected) throw new Error(`${name} sent ${requests} requests for ${expected} ${noun}`);
    return { ...result, serviceSeconds: seconds };
  } finally {
    service.stop();
  }
}

/** `rounds` rounds of both sides, `round(side)` each; the order within a round alternates, so that neither side always runs second. */
export async function alternatingRounds(rounds, round) {
  const runs = { petstore: [], undici: [] };
  for (let i = 0; i < rounds; i += 1) {
    for (const side of i % 2 ? ['undici', 'petstore'] : ['petstore', 'undici']) runs[side].push(await round(side));
  }
  return runs;
}
