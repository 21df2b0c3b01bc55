#!/usr/bin/env node
// Entry of the petstore command. Kept to syntax every Node version parses, so
// that an old Node gets a one-line message instead of a crash.
'use strict';

var REQUIRED = [22, 20];
var found = process.versions.node.split('.').map(Number);
if (found[0] < REQUIRED[0] || (found[0] === REQUIRED[0] && found[1] < REQUIRED[1])) {
  process.stderr.write('petstore needs Node.js ' + REQUIRED.join('.') + ' or newer (found v' + process.versions.node + ')\n');
  process.exit(1);
}

// `petstore --version` is answered here, before any module loads: scripts call it to probe the tool.
var args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(require('../package.json').version + '\n');
  return;
}

// Caches V8's compiled code between runs; it must be enabled before the bundle loads.
var nodeModule = require('node:module');
if (nodeModule.enableCompileCache) {
  try {
    nodeModule.enableCompileCache();
  } catch (error) {
    // The cache is an optimisation only.
  }
}

import('../dist/petstore.js').then(function (entry) {
  return entry.start();
});
