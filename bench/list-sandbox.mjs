#!/usr/bin/env node
// The fake service (sandbox/pet-service.mjs) holding `count` pets, for
// bench/list-all.mjs: GET /pets pages of 100 with Link rel="next". It prints
// its base URL on stdout and stops when stdin ends.
//
//   node bench/list-sandbox.mjs <count> <key>
import { startPetService } from '../sandbox/pet-service.mjs';

const [countText, key] = process.argv.slice(2);
const sandbox = await startPetService({ key, seed: false, record: false });
const statuses = ['available', 'pending', 'sold'];
for (let i = 1n; i <= BigInt(countText); i += 1n) {
  sandbox.pets.set(i, { id: i, name: `pet-${i}`, categoryId: i % 7n, status: statuses[Number(i % 3n)] });
}
process.stdout.write(`${sandbox.baseUrl}\n`);
process.stdin.resume();
process.stdin.on('end', () => sandbox.close().then(() => process.exit(0)));
