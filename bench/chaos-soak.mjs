#!/usr/bin/env node
// The chaos soak (issue 19, item 6): one bulk load of 200,000 pets through a
// fault-injecting local service, killed on the way, and checked against the
// service's own record. The service (sandbox/pet-service.mjs, in this
// process) stores a pet and then drops the connection for 1% of the POSTs,
// answers 503 with Retry-After for 5%, stalls 1% (half answer after the
// client gave up, having stored the pet; half never store it), and rejects
// with 400 the items meant to fail (every name starting `reject-`, 1% of the
// input). During the load it sends kill -9 at three random points and SIGHUP
// (to the process group, as a closed terminal does) at one; after each death
// it runs the same command again, until a run ends by itself, and then once
// more, which must send nothing (and exit 1 if an item is failed or
// unknown, 0 only when every item is created). At the end every pet must be stored once,
// except those recorded `unknown` (each stored at most once) and those
// recorded `failed` (never stored). While each run that is then killed is
// sending, a second process starts the same load in another PID namespace
// (`unshare --pid --fork --mount-proc`, as root; issue 30 item 10), where its
// pid is 1 and the first load's pid means nothing: it must be refused (exit
// 2) while the first is live. Where unshare cannot run, that part is skipped
// with the reason printed. One run more is paused (issue 38 item 2): SIGSTOP
// at a random point, held until its lock is stale, then a second identical
// load starts and takes it over, and once that one sends, SIGCONT: the first
// must stop at once (exit 1, saying its lock went unrenewed or was taken
// over), and the second must go on to its end undisturbed. Every run has
// PETSTORE_TEST_LOCK_STALE_MS (3 s, --stale-ms) so that the pause takes
// seconds, not half a minute. With --resolve-unknown (issue 29 item 7)
// every run is given that flag, and no item may end `unknown`. It prints the
// figures; bench/RESULTS.md keeps them. A benchmark, run by hand (it takes
// minutes):
//
//   npm run build && node bench/chaos-soak.mjs [--pets 200000] [--seed 1] [--concurrency 32] [--resolve-unknown]
//
// Exit 0 when nothing is lost and nothing duplicated (and, with
// --resolve-unknown, nothing unknown), 1 otherwise.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startPetService } from '../sandbox/pet-service.mjs';
import { chaosFaults, mulberry32 } from './chaos-faults.mjs';
import { pauseOwner } from './chaos-pause.mjs';

const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
const { values } = parseArgs({
  options: {
    pets: { type: 'string', default: '200000' },
    seed: { type: 'string', default: String(Date.now() % 100000) },
    concurrency: { type: 'string', default: '32' },
    timeout: { type: 'string', default: '2000' },
    'retry-after': { type: 'string', default: '1' },
    'resolve-unknown': { type: 'boolean', default: false },
    'stale-ms': { type: 'string', default: '3000' },
  },
});
const STALE_MS = Number(values['stale-ms']);
const PETS = Number(values.pets);
const RESOLVE = values['resolve-unknown'];
const SEED = Number(values.seed);
const TIMEOUT_MS = Number(values.timeout);
const random = mulberry32(SEED);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-chaos-'));
const input = path.join(dir, 'pets.ndjson');
const failed = path.join(dir, 'failed.ndjson');
const isReject = (i) => i % 100 === 37;
const nameOf = (i) => `${isReject(i) ? 'reject' : 'pet'}-${i}`;
writeInput(input, PETS);

const posts = { count: 0 };
const sandbox = await startPetService({
  key: 'chaos',
  seed: false,
  record: false,
  faults: chaosFaults({ random, posts, stallMs: TIMEOUT_MS + 1000, retryAfter: values['retry-after'] }),
});

// The second process in another PID namespace, where unshare can make one.
const probe = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true'], { encoding: 'utf8' });
const INTRUDE = probe.status === 0;
if (!INTRUDE)
  process.stderr.write(
    `skipped: the second load in another PID namespace (unshare --pid --fork --mount-proc cannot run here: ${probe.stderr?.trim() || probe.error?.message || `exit ${probe.status}`})\n`,
  );
const intruders = [];

// Five events at random points of the load (by POSTs the service received):
// three kill -9, one SIGHUP and one pause (SIGSTOP), in a random order.
const deaths = Array.from({ length: 5 }, () => Math.floor(PETS * (0.05 + 0.85 * random())))
  .sort((a, b) => a - b)
  .map((at) => ({ at, signal: 'SIGKILL' }));
const [hangup, pause] = [0, 1].map(() => deaths.splice(Math.floor(random() * deaths.length), 1)[0]);
hangup.signal = 'SIGHUP';
pause.signal = 'SIGSTOP';
deaths.push(hangup, pause);
deaths.sort((a, b) => a.at - b.at);
const paused = [];

const started = performance.now();
const runs = [];
let peakRssKiB = 0;
for (const death of [...deaths, null]) {
  const run = death?.signal === 'SIGSTOP' ? await runPaused(death) : await runLoad(death);
  runs.push(run);
  peakRssKiB = Math.max(peakRssKiB, run.peakRssKiB);
  if (death === null && run.code !== 0 && run.code !== 1) throw new Error(`the last run exited ${run.code}: ${run.stderrTail}`);
}
const wallSeconds = (performance.now() - started) / 1000;
await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 1500)); // the stalled answers that store late
const before = posts.count;
const again = await runLoad(null);
const sentAgain = posts.count - before;

const report = check();
await sandbox.close();
const figures = {
  seed: SEED,
  pets: PETS,
  resolveUnknown: RESOLVE,
  stored: report.stored,
  unknown: report.unknown,
  unknownStored: report.unknownStored,
  failed: report.failed,
  rejected400: report.rejected,
  lost: report.lost,
  duplicated: report.duplicated,
  misrecorded: report.misrecorded,
  posts: before,
  wallSeconds: Number(wallSeconds.toFixed(1)),
  peakRssMiB: Number((peakRssKiB / 1024).toFixed(1)),
  deaths: deaths.map(
    (d, i) =>
      `${{ SIGKILL: 'kill -9', SIGHUP: 'SIGHUP', SIGSTOP: 'paused' }[d.signal]} at ${d.at} POSTs: exit ${runs[i].code ?? runs[i].signal}`,
  ),
  pausedOwner: paused.map(
    (p) =>
      `paused at ${p.at} POSTs for ${p.pausedSeconds} s; the second load took over and sent from ${p.takenAt}; the first ` +
      `${p.stopped ? 'stopped' : 'did NOT stop'} (exit ${p.firstCode}), the second ` +
      `${p.secondDisturbed ? 'WAS disturbed' : 'went on'} (then exit ${p.secondCode ?? p.secondSignal})`,
  ),
  otherPidNamespace: INTRUDE
    ? intruders.map(
        (i) => `at ${i.at} POSTs: exit ${i.code}, ${i.firstLive ? (i.refused ? 'refused' : 'NOT refused') : 'after the first load ended'}`,
      )
    : 'skipped',
  finishedRerun: `exit ${again.code}, ${sentAgain} requests`,
  load: os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' '),
};
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
const ok =
  report.lost === 0 &&
  report.duplicated === 0 &&
  report.misrecorded === 0 &&
  // Exit 0 only when every item was created (issue 30): the failed and unknown ones make the finished rerun exit 1.
  again.code === (report.failed + report.unknown > 0 ? 1 : 0) &&
  sentAgain === 0 &&
  intruders.every((i) => i.refused) &&
  paused.every((p) => p.stopped && !p.secondDisturbed) &&
  (!RESOLVE || report.unknown === 0);
if (!ok) process.stderr.write(`chaos soak FAILED; the runs' stderr is in ${dir}\n`);
else fs.rmSync(dir, { recursive: true, force: true });
process.exit(ok ? 0 : 1);

/** NDJSON of `count` NewPets named `pet-<i>` (or `reject-<i>`, meant to fail). */
function writeInput(file, count) {
  const out = fs.openSync(file, 'w');
  for (let i = 0; i < count; i += 10_000) {
    let chunk = '';
    for (let j = i; j < Math.min(i + 10_000, count); j += 1)
      chunk += `${JSON.stringify({ name: nameOf(j), categoryId: j % 7, status: 'available' })}\n`;
    fs.writeSync(out, chunk);
  }
  fs.closeSync(out);
}

/**
 * Runs `petstore add --file input --failed failed` in a process group of its
 * own; with a `death`, signals it once the service has received `death.at`
 * POSTs. Resolves with its exit code or signal, its peak RSS in KiB (VmHWM,
 * read while it runs) and the end of its stderr.
 */
function runLoad(death) {
  const log = path.join(dir, `run-${runs.length + (death ? 0 : 1)}-stderr.txt`);
  const { child, args, env } = spawnLoad(log);
  let peak = 0;
  let signalled = false;
  let exited = false;
  let intruded = 'no';
  const startPosts = posts.count;
  const watch = setInterval(() => {
    peak = Math.max(peak, vmHwmKiB(child.pid));
    if (INTRUDE && death && intruded === 'no' && !signalled && posts.count > startPosts) {
      intruded = 'running';
      // The death waits for the second load's end: it must meet the first one live.
      void intrude(args, env, () => !exited && !signalled).then(() => {
        intruded = 'done';
      });
    }
    if (death && !signalled && intruded !== 'running' && posts.count >= death.at) {
      signalled = true;
      process.kill(death.signal === 'SIGHUP' ? -child.pid : child.pid, death.signal);
    }
  }, 20);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      exited = true;
      clearInterval(watch);
      const text = fs.readFileSync(log, 'utf8');
      resolve({ code, signal, peakRssKiB: peak, stderrTail: text.slice(-600) });
    });
  });
}

/** Starts `petstore add --file input --failed failed` in a process group of its own, its stderr into `log`: the child, its argv, env and log. */
function spawnLoad(log) {
  const err = fs.openSync(log, 'w');
  const args = [BIN, 'add', '--file', input, '--failed', failed, '--concurrency', values.concurrency, '--timeout', String(TIMEOUT_MS)];
  if (RESOLVE) args.push('--resolve-unknown');
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    PETSTORE_BASE_URL: sandbox.baseUrl,
    PETSTORE_API_KEY: 'chaos',
    PETSTORE_TEST_LOCK_STALE_MS: String(STALE_MS),
  };
  const child = spawn(process.execPath, args, { env, detached: true, stdio: ['ignore', 'ignore', err] });
  fs.closeSync(err);
  return { child, args, env, log };
}

/** The paused run of `death` (bench/chaos-pause.mjs), its logs numbered as this run's; its outcome goes to `paused`. */
async function runPaused(death) {
  const { run, record } = await pauseOwner({
    at: death.at,
    posts,
    lockFolder: `${failed}.lock`,
    staleMs: STALE_MS,
    concurrency: Number(values.concurrency),
    spawnLoad: (name) => spawnLoad(path.join(dir, `run-${runs.length}-${name}-stderr.txt`)),
  });
  if (record) paused.push(record);
  return run;
}

/**
 * Runs the same load (`args`, `env`) as pid 1 of a new PID namespace while the first one sends, and records in `intruders` whether it
 * was refused: exit 2 with the lock's message. `live()` says whether the first load still ran when the second ended (else the result
 * proves nothing). Resolves when the second load has exited.
 */
function intrude(args, env, live) {
  const at = posts.count;
  const child = spawn('unshare', ['--pid', '--fork', '--mount-proc', process.execPath, ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (data) => {
    stderr += data;
  });
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      const refused = code === 2 && stderr.includes('is being written by another petstore add --file');
      // Once the first load has ended, taking its lock is no fault.
      const firstLive = live();
      intruders.push({ at, code, refused: refused || !firstLive, firstLive });
      if (!refused && firstLive) process.stderr.write(`the second load was not refused (exit ${code}): ${stderr.slice(-600)}\n`);
      resolve();
    });
  });
}

function vmHwmKiB(pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Compares the service's pets with the --failed file's outcomes, item by item. */
function check() {
  const storedCount = new Map();
  for (const pet of sandbox.pets.values()) storedCount.set(pet.name, (storedCount.get(pet.name) ?? 0) + 1);
  const outcome = new Map();
  for (const line of fs.readFileSync(failed, 'utf8').split('\n')) {
    if (line === '') continue;
    const record = JSON.parse(line);
    outcome.set(record.item.name, record.outcome);
  }
  const r = { stored: 0, unknown: 0, unknownStored: 0, failed: 0, rejected: 0, lost: 0, duplicated: 0, misrecorded: 0 };
  for (let i = 0; i < PETS; i += 1) {
    const name = nameOf(i);
    const count = storedCount.get(name) ?? 0;
    const recorded = outcome.get(name);
    r.stored += count > 0 ? 1 : 0;
    if (count > 1) r.duplicated += 1;
    if (recorded === 'unknown') {
      r.unknown += 1;
      r.unknownStored += count;
    } else if (recorded === 'failed') {
      r.failed += 1;
      if (isReject(i)) r.rejected += 1;
      if (count > 0) r.misrecorded += 1;
    } else if (recorded !== undefined) {
      if (count > 0)
        r.misrecorded += 1; // not_sent, yet stored
      else r.lost += 1;
    } else if (count === 0) r.lost += 1;
    // A reject in flight at a death has no answer: `unknown` is all petstore can know of it (the service never stores one).
    if (isReject(i) && recorded !== 'failed' && recorded !== 'unknown') r.misrecorded += 1;
  }
  return r;
}
