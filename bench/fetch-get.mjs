#!/usr/bin/env node
// The peer of `petstore get 1 --json` in bench/startup.mjs (issue 32): Node's
// own fetch (its bundled undici) doing the same GET and printing the body,
// with nothing else in the script.
//
//   PETSTORE_BASE_URL=... PETSTORE_API_KEY=... node bench/fetch-get.mjs [id]
const response = await fetch(`${process.env.PETSTORE_BASE_URL}/pets/${process.argv[2] ?? 1}`, {
  headers: { authorization: `Bearer ${process.env.PETSTORE_API_KEY}`, accept: 'application/json' },
});
process.stdout.write(`${await response.text()}\n`);
if (!response.ok) process.exitCode = 1;
