#!/usr/bin/env node
// The most undici allows `add --file` here: a fresh process sending `count`
// POST /pets through one undici Pool at the given concurrency, with nothing
// else (no input file, no checks, no exact ids, no output; each body is only
// JSON.parse'd). bench/bulk.mjs runs it like petstore, as a fresh process.
//
//   node bench/undici-alone.mjs <base-url> <count> <concurrency> <user-agent>
import { Pool } from 'undici';

const [baseUrl, countText, concurrencyText, userAgent] = process.argv.slice(2);
const count = Number(countText);
const url = new URL(`${baseUrl}/pets`);
const pool = new Pool(url.origin);
const headers = { authorization: 'Bearer bench', accept: 'application/json', 'user-agent': userAgent, 'content-type': 'application/json' };
let sent = 0;
let done = 0;

function send() {
  if (sent >= count) return;
  const body = `{"name":"pet-${sent}","categoryId":${sent % 7},"status":"available"}`;
  sent += 1;
  const chunks = [];
  let status = 0;
  pool.dispatch(
    { path: url.pathname, method: 'POST', headers, body },
    {
      onRequestStart() {},
      onResponseStart(_controller, statusCode) {
        status = statusCode;
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (status !== 201) throw new Error(`HTTP ${status}`);
        done += 1;
        if (done === count) void pool.close();
        else send();
      },
      onResponseError(_controller, error) {
        console.error(error);
        process.exit(1);
      },
    },
  );
}

for (let i = 0; i < Number(concurrencyText); i += 1) send();
