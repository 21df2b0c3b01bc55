#!/usr/bin/env node
// The sandbox command: the fake pet store service (sandbox/pet-service.mjs) on
// 127.0.0.1 for trying petstore by hand. Not part of the CLI. `--help` lists the flags.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import semver from 'semver';
import { SUPPORTED_NODE } from '../scripts/supported-node.mjs';

// The service needs what petstore's Node.js has (JSON.rawJSON for exact int64s): on an older one (`node sandbox/server.mjs` on
// Debian 12's Node.js 20) it would listen, then fail at its first request. npm's scripts run on the pinned Node.js (.nvmrc).
if (!semver.satisfies(process.versions.node, SUPPORTED_NODE)) {
  const pinned = fs.readFileSync(new URL('../.nvmrc', import.meta.url), 'utf8').trim();
  process.stderr.write(
    `petstore sandbox: needs Node.js ${SUPPORTED_NODE}, not v${process.versions.node}: start it with "npm run sandbox", which runs the Node.js ${pinned} that npm ci installed\n`,
  );
  process.exit(1);
}
const { dropEvery, pageFault, startPetService } = await import('./pet-service.mjs');

const USAGE = `Usage: npm run sandbox -- [options]

An in-memory pet store service on 127.0.0.1, as openapi/petstore.yaml describes it.

Options:
  --port <n>          port to listen on, 0 for a free one (default 4010)
  --key <key>         the API key it accepts as "Authorization: Bearer <key>" (default demo)
  --first-id <id>     id of the first pet, an int64 (default 1; try 9007199254740993)
  --no-seed           start empty instead of with four pets
  --pets <n>          start with n generated pets (pet-1, pet-2, ...) instead of four, 0 to 10000000
  --page-size <n>     most pets per page of GET /pets, 1 to 100 (default 100: the limit asked)
  --no-links          no Link rel="next" header: the first page is all a client gets
  --tls-cert <file>   serve https with this PEM certificate (needs --tls-key)
  --tls-key <file>    the PEM private key of --tls-cert
  --drop-every <n>    drop the answer of every n-th POST /pets after creating the pet
  --delay <ms>        wait this long before answering each request (a slow service), 0 to 60000
  --fail-page <k>     every GET /pets of page k of a listing answers 500 (its retries too)
  --drop-page <k>     every GET /pets of page k of a listing has its connection dropped
  --endless           after the last pet, link an empty next page, forever
  -h, --help          show this help
`;

/** Ends the command with exit 2 and `message` naming the flag. */
function usageError(message) {
  process.stderr.write(`petstore sandbox: ${message}\n(see npm run sandbox -- --help)\n`);
  process.exit(2);
}

/** A whole number from `min` to `max` given to `flag`, or exit 2. */
function wholeNumber(flag, text, min, max) {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    usageError(`invalid value for ${flag}: "${text}": must be a whole number from ${min} to ${max}`);
  }
  return Number(text);
}

function readPem(flag, file) {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    return usageError(`cannot read ${flag} ${file}: ${error.code ?? error.message}`);
  }
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      key: { type: 'string', default: 'demo' },
      'first-id': { type: 'string', default: '1' },
      'no-seed': { type: 'boolean', default: false },
      'page-size': { type: 'string', default: '100' },
      'no-links': { type: 'boolean', default: false },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'drop-every': { type: 'string' },
      delay: { type: 'string', default: '0' },
      pets: { type: 'string' },
      'fail-page': { type: 'string' },
      'drop-page': { type: 'string' },
      endless: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  usageError(error.message);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const port = wholeNumber('--port', values.port, 0, 65535);
if (!/^[\x21-\x7e]+$/.test(values.key)) usageError('invalid value for --key: must be printable ASCII without spaces');
const firstId = /^-?\d+$/.test(values['first-id']) ? BigInt(values['first-id']) : undefined;
if (firstId === undefined || firstId < -(2n ** 63n) || firstId >= 2n ** 63n) {
  usageError(`invalid value for --first-id: "${values['first-id']}": must be an int64 integer`);
}
const pageSize = wholeNumber('--page-size', values['page-size'], 1, 100);
if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined)) usageError('--tls-cert and --tls-key go together');
const tls =
  values['tls-cert'] === undefined
    ? undefined
    : { cert: readPem('--tls-cert', values['tls-cert']), key: readPem('--tls-key', values['tls-key']) };
const drop = values['drop-every'] === undefined ? undefined : wholeNumber('--drop-every', values['drop-every'], 1, 1_000_000);
const delayMs = wholeNumber('--delay', values.delay, 0, 60_000);
const generated = values.pets === undefined ? undefined : wholeNumber('--pets', values.pets, 0, 10_000_000);
if (generated !== undefined && values['no-seed']) usageError('--pets and --no-seed go apart: --pets 0 starts empty');
const failPage = values['fail-page'] === undefined ? undefined : wholeNumber('--fail-page', values['fail-page'], 1, 1_000_000_000);
const dropPage = values['drop-page'] === undefined ? undefined : wholeNumber('--drop-page', values['drop-page'], 1, 1_000_000_000);
const store = { firstId, pageSize };
const SERVER_ERROR = { status: 500, json: { code: 'internal', message: 'the sandbox fails this page (--fail-page)', status: 500 } };

/** The faults of --drop-every, --fail-page and --drop-page, each step (and every request it serves) delayed by --delay. */
function faultsOf(delay) {
  const dropping = drop === undefined ? undefined : dropEvery(drop);
  const failing = failPage === undefined ? undefined : pageFault(failPage, SERVER_ERROR, store);
  const cutting = dropPage === undefined ? undefined : pageFault(dropPage, { destroy: true }, store);
  if (!dropping && !failing && !cutting && !delay) return undefined;
  return (request, index) => {
    const step = failing?.(request) ?? cutting?.(request) ?? dropping?.(request, index) ?? { serve: true };
    return delay ? { ...step, delayMs: delay } : step;
  };
}

let service;
try {
  service = await startPetService({
    key: values.key,
    firstId,
    seed: generated ?? !values['no-seed'],
    pageSize,
    links: values['no-links'] ? false : values.endless ? 'endless' : true,
    record: false,
    faults: faultsOf(delayMs),
    tls,
    port,
  });
} catch (error) {
  const what = error.syscall === 'listen' ? `cannot listen on 127.0.0.1:${port}` : 'cannot start (is --tls-key the key of --tls-cert?)';
  process.stderr.write(`petstore sandbox: ${what}: ${error.code ?? error.message}\n`);
  process.exit(1);
}
process.stdout.write(`petstore sandbox listening on ${service.baseUrl}\n`);
if (drop !== undefined) process.stderr.write(`dropping the answer of one POST /pets in ${drop}, after creating the pet\n`);
if (delayMs) process.stderr.write(`answering every request after ${delayMs} ms\n`);
if (failPage !== undefined) process.stderr.write(`answering 500 to every GET /pets of page ${failPage}\n`);
if (dropPage !== undefined) process.stderr.write(`dropping the connection of every GET /pets of page ${dropPage}\n`);
if (values.endless) process.stderr.write('linking empty pages after the last pet, forever\n');
const stop = () => service.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
