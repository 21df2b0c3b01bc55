#!/usr/bin/env node
// The floor of `petstore get 1 --json` for a client of the npm undici (issue 32):
// the same GET through undici's public entry, request(), with Node's compile
// cache on, printing the body, with nothing else in the script. Its ratio to
// bench/fetch-get.mjs (Node's own fetch, whose undici is built into Node) is
// what loading undici costs before petstore does anything.
//
//   PETSTORE_BASE_URL=... PETSTORE_API_KEY=... node bench/undici-get.cjs [id]
'use strict';
const os = require('node:os');
const path = require('node:path');
require('node:module').enableCompileCache?.(path.join(os.tmpdir(), `petstore-bench-undici-get-${process.getuid?.() ?? 'user'}`));
const { request } = require('undici');

void (async () => {
  const answer = await request(`${process.env.PETSTORE_BASE_URL}/pets/${process.argv[2] ?? 1}`, {
    headers: { authorization: `Bearer ${process.env.PETSTORE_API_KEY}`, accept: 'application/json' },
  });
  process.stdout.write(`${await answer.body.text()}\n`);
  if (answer.statusCode !== 200) process.exitCode = 1;
})();
