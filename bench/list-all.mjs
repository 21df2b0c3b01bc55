#!/usr/bin/env node
// Reading a whole store of N pets (default 100,000; issue 29 asks 1,000,000:
// BENCH_LIST_PETS=1000000), pages of 100: `petstore list --all --json`,
// `list --all --format ndjson`, `--format tsv` and `api /pets --paginate` against a plain
// node:http pager over the same pages writing the same bytes
// (bench/http-pager.mjs), both fresh processes writing to /dev/null, in
// alternating pairs (medians): the time ratio, and petstore's peak RSS (GNU
// time). The service holds the pets in a process of its own
// (bench/list-sandbox.mjs). BENCH_LIST_FIRST_ID=9007199254740993 gives every
// pet an id above 2^53 (each a bigint in petstore), and BENCH_LIST_ID_STEP=1000
// ids 1,000 apart: the most that the set of ids a listing keeps, to print none
// twice, can cost (it packs ids 64 to a block). Run by hand: npm run bench
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { median } from './median.mjs';

// BENCH_LIST_BIN: another build's bin/petstore.js (an earlier commit's, copied with its dist/), to compare.
const BIN = process.env.BENCH_LIST_BIN ?? fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
const PAGER = fileURLToPath(new URL('./http-pager.mjs', import.meta.url));
const SANDBOX = fileURLToPath(new URL('./list-sandbox.mjs', import.meta.url));
const COUNT = Number(process.env.BENCH_LIST_PETS ?? 100_000);
const PAIRS = Number(process.env.BENCH_LIST_PAIRS ?? 7);
const TIME_TARGET = 1.5;
const RSS_TARGET_MIB = 150;

const FIRST_ID = process.env.BENCH_LIST_FIRST_ID ?? '1';
const ID_STEP = process.env.BENCH_LIST_ID_STEP ?? '1';
const child = spawn(process.execPath, [SANDBOX, String(COUNT), 'bench', FIRST_ID, ID_STEP], { stdio: ['pipe', 'pipe', 'inherit'] });
const baseUrl = (await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value;

/** One run under GNU time: seconds and peak RSS in MiB; throws when it fails. */
function timed(name, args, env) {
  const started = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (r.error) throw new Error(`/usr/bin/time: ${r.error.message} (apt-get install time)`);
  if (r.status !== 0) throw new Error(`${name} exited ${r.status}: ${r.stderr.slice(-400)}`);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, rssMiB: Number(r.stderr.trim().split('\n').pop()) / 1024 };
}

const env = { PATH: process.env.PATH, HOME: process.env.HOME, PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: 'bench' };
const CASES = [
  { name: 'list --all --json', ours: ['list', '--all', '--json'], peer: [] },
  { name: 'list --all --format ndjson', ours: ['list', '--all', '--format', 'ndjson'], peer: ['ndjson'] },
  { name: 'list --all --format tsv', ours: ['list', '--all', '--format', 'tsv'], peer: ['tsv'] },
  { name: 'api /pets -F limit=100 -X GET --paginate', ours: ['api', '/pets', '-F', 'limit=100', '-X', 'GET', '--paginate'], peer: [] },
];
const only = process.env.BENCH_LIST_CASES?.split(',');
console.log(
  `node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
let ok = true;
for (const { name, ours: args, peer: mode } of CASES.filter((_, i) => !only || only.includes(String(i)))) {
  const ours = () => timed(`petstore ${name}`, [BIN, ...args], env);
  const peer = () => timed('http-pager', [PAGER, baseUrl, 'bench', ...mode], env);
  ours();
  peer();
  const runs = { ours: [], peer: [] };
  for (let i = 0; i < PAIRS; i += 1) {
    // The order within a pair alternates, so that neither side always runs on a warmer machine.
    for (const side of i % 2 ? ['peer', 'ours'] : ['ours', 'peer']) runs[side].push(side === 'ours' ? ours() : peer());
  }
  const seconds = (side) => median(runs[side].map((r) => r.seconds));
  const rss = (side) => median(runs[side].map((r) => r.rssMiB));
  const maxRss = Math.max(...runs.ours.map((r) => r.rssMiB));
  const ratio = seconds('ours') / seconds('peer');
  const timeOk = ratio <= TIME_TARGET;
  const rssOk = maxRss <= RSS_TARGET_MIB;
  ok &&= timeOk && rssOk;
  console.log(
    `${name} of ${COUNT} pets (ids from ${FIRST_ID}, ${ID_STEP} apart): ${seconds('ours').toFixed(2)} s vs node:http pager ${seconds('peer').toFixed(2)} s = ${ratio.toFixed(2)}x, ` +
      `medians of ${PAIRS} alternating pairs (target <= ${TIME_TARGET}x) ${timeOk ? 'ok' : 'MISSED'}; load ${os.loadavg()[0].toFixed(2)}`,
  );
  console.log(
    `  peak RSS median ${rss('ours').toFixed(1)} MiB, most ${maxRss.toFixed(1)} MiB (target <= ${RSS_TARGET_MIB} MiB) ${rssOk ? 'ok' : 'MISSED'}; the pager's ${rss('peer').toFixed(1)} MiB`,
  );
}
child.stdin.end();
process.exitCode = ok ? 0 : 1;
