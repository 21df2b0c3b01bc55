#!/usr/bin/env node
// What bin/petstore.js would be on Node's public path (issue 21, "boring
// start-up"): the bundle loaded by Node's own loader with Node's compile
// cache, without src/launch.ts. bench/startup.mjs runs it against the bin.
'use strict';
const path = require('node:path');
const { enableCompileCache } = require('node:module');

if (!process.env.NODE_DISABLE_COMPILE_CACHE)
  enableCompileCache(path.join(process.env.XDG_CACHE_HOME ?? require('node:os').tmpdir(), 'petstore-node-compile-cache'));
require(path.join(__dirname, '..', 'dist', 'petstore.cjs'))
  .start(process.argv.slice(2))
  .catch((error) => {
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = 1;
  });
