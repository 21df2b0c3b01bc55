#!/usr/bin/env node
// The fake service (sandbox/pet-service.mjs) with a clock on its requests, for
// bench/bulk.mjs: it measures every client's request rate in the same place,
// from the first request the sandbox receives to the last, whoever sends them.
// It prints its base URL on stdout; each line read on stdin is answered with
// one JSON line, {"requests": n, "seconds": s}, about the requests seen since
// the previous answer.
//
//   node bench/timed-sandbox.mjs --key <key>
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { startPetService } from '../sandbox/pet-service.mjs';

const { values } = parseArgs({ options: { key: { type: 'string', default: 'bench' } } });
const sandbox = await startPetService({ key: values.key, seed: false, record: false });
let requests = 0;
let first = 0;
let last = 0;
// One clock reading per request, the same cost whoever the client is.
sandbox.server.prependListener('request', () => {
  last = performance.now();
  if (requests === 0) first = last;
  requests += 1;
});
process.stdout.write(`${sandbox.baseUrl}\n`);
createInterface({ input: process.stdin }).on('line', () => {
  process.stdout.write(`${JSON.stringify({ requests, seconds: (last - first) / 1000 })}\n`);
  requests = 0;
});
process.stdin.on('end', () => sandbox.close().then(() => process.exit(0)));
