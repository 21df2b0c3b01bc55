#!/usr/bin/env node
// The fake service (sandbox/pet-service.mjs) holding `count` generated pets,
// for bench/list-all.mjs: GET /pets pages of up to 100 with Link rel="next".
// It prints its base URL on stdout and stops when stdin ends.
//
//   node bench/list-sandbox.mjs <count> <key> [first-id] [id-step]
import { startPetService } from '../sandbox/pet-service.mjs';

const [countText, key, firstId = '1', idStep = '1'] = process.argv.slice(2);
const sandbox = await startPetService({ key, seed: Number(countText), firstId: BigInt(firstId), idStep: BigInt(idStep), record: false });
process.stdout.write(`${sandbox.baseUrl}\n`);
process.stdin.resume();
process.stdin.on('end', () => sandbox.close().then(() => process.exit(0)));
