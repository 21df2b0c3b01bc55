#!/usr/bin/env node
// The fake service (sandbox/pet-service.mjs) holding `count` generated pets,
// for bench/list-all.mjs: GET /pets pages of up to 100 with Link rel="next".
// It prints its base URL on stdout and stops when stdin ends.
//
//   node bench/list-sandbox.mjs <count> <key>
import { startPetService } from '../sandbox/pet-service.mjs';

const [countText, key] = process.argv.slice(2);
const sandbox = await startPetService({ key, seed: Number(countText), record: false });
process.stdout.write(`${sandbox.baseUrl}\n`);
process.stdin.resume();
process.stdin.on('end', () => sandbox.close().then(() => process.exit(0)));
