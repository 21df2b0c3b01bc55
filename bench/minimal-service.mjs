#!/usr/bin/env node
// A pet store that only answers, for pace benchmarks (issue 37 item 8): GET
// /v1/pets/{id} with a Pet of that id, POST /v1/pets with 201 and the pet sent
// with an id; anything else 404. No key is checked, nothing is stored or
// parsed, so that a client's own cost per request shows, not the service's.
// As a process it prints its base URL on stdout; each line read on stdin is
// answered with one JSON line, {"requests": n, "seconds": s}: the requests
// since the previous answer and the seconds from the first to the last of
// them (the service's own clock). It ends when stdin ends.
//
//   node bench/minimal-service.mjs [--port <n>]
import http from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const PET_PATH = /^\/v1\/pets\/(-?\d{1,19})$/;
const JSON_TYPE = 'application/json';

function answer(res, status, body) {
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Starts the service on 127.0.0.1; resolves with its base URL, its clock (requests and seconds since the last reading) and close. */
export async function startMinimalService({ port = 0 } = {}) {
  let nextId = 1;
  let requests = 0;
  let first = 0;
  let last = 0;
  const server = http.createServer((req, res) => {
    last = performance.now();
    if (requests === 0) first = last;
    requests += 1;
    const pet = req.method === 'GET' ? PET_PATH.exec(req.url) : null;
    if (pet) {
      const id = pet[1];
      answer(res, 200, `{"id":${id},"name":"pet-${id}","categoryId":${(id.charCodeAt(id.length - 1) % 7) + 1},"status":"available"}`);
      return;
    }
    if (req.method === 'POST' && req.url === '/v1/pets') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk) => {
        body += chunk;
      });
      // The NewPet sent, with an id in front: `{"id":n,` and the body after its `{`.
      req.on('end', () => answer(res, 201, `{"id":${nextId++},${body.trim().slice(1)}`));
      return;
    }
    req.resume();
    answer(res, 404, '{"code":"not_found","message":"not answered here","status":404}');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const clock = () => {
    const reading = { requests, seconds: (last - first) / 1000 };
    requests = 0;
    return reading;
  };
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
    clock,
    close: () => new Promise((resolve) => server.close(resolve).closeAllConnections()),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });
  const service = await startMinimalService({ port: Number(values.port) });
  process.stdout.write(`${service.baseUrl}\n`);
  createInterface({ input: process.stdin }).on('line', () => process.stdout.write(`${JSON.stringify(service.clock())}\n`));
  process.stdin.on('end', () => service.close().then(() => process.exit(0)));
}
