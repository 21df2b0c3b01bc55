#!/usr/bin/env node
// autocannon sending the POSTs that `petstore add --file` sends for the input
// of bench/bulk.mjs: the same headers, User-Agent included, and a body of its
// own for each pet, {"name":"pet-N","categoryId":N % 7,"status":"available"},
// built by autocannon's `setupRequest`. bench/bulk.mjs runs it as a fresh
// process, like petstore. Prints autocannon's result as one JSON line.
//
//   node bench/autocannon-posts.mjs <base-url> <count> <concurrency> <user-agent>
import autocannon from 'autocannon';

const [baseUrl, countText, concurrencyText, userAgent] = process.argv.slice(2);
let next = 0;
const body = () => {
  const n = next++;
  return `{"name":"pet-${n}","categoryId":${n % 7},"status":"available"}`;
};
const result = await autocannon({
  url: `${baseUrl}/pets`,
  connections: Number(concurrencyText),
  amount: Number(countText),
  method: 'POST',
  headers: { authorization: 'Bearer bench', accept: 'application/json', 'user-agent': userAgent, 'content-type': 'application/json' },
  requests: [{ setupRequest: (request) => ({ ...request, body: body() }) }],
});
process.stdout.write(`${JSON.stringify(result)}\n`);
