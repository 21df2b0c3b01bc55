#!/usr/bin/env node
// The floor of `petstore get -` (issue 37 item 8): a fresh process reading ids
// from stdin (any whitespace between them) and sending GET /pets/{id} for each
// through one undici Pool, `concurrency` at a time, printing each body as a
// line as it comes, with nothing else: no checks, no order, no exact ids.
//
//   node bench/undici-pool-get.mjs <base-url> <concurrency> <user-agent> < ids
import { Pool } from 'undici';

const [baseUrl, concurrencyText, userAgent] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const pets = new URL(`${baseUrl}/pets/`);
const pool = new Pool(pets.origin, { connections: concurrency });
const headers = { authorization: 'Bearer bench', accept: 'application/json', 'user-agent': userAgent };
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const ids = Buffer.concat(chunks).toString('utf8').split(/\s+/).filter(Boolean);
let sent = 0;
let done = 0;

function send() {
  if (sent >= ids.length) return;
  const path = `${pets.pathname}${ids[sent]}`;
  sent += 1;
  const body = [];
  let status = 0;
  pool.dispatch(
    { path, method: 'GET', headers },
    {
      onRequestStart() {},
      onResponseStart(_controller, statusCode) {
        status = statusCode;
      },
      onResponseData(_controller, chunk) {
        body.push(chunk);
      },
      onResponseEnd() {
        if (status !== 200) throw new Error(`HTTP ${status} for ${path}`);
        process.stdout.write(`${Buffer.concat(body).toString('utf8')}\n`);
        done += 1;
        if (done === ids.length) void pool.close();
        else send();
      },
      onResponseError(_controller, error) {
        console.error(error);
        process.exit(1);
      },
    },
  );
}

if (ids.length === 0) void pool.close();
for (let i = 0; i < concurrency; i += 1) send();
