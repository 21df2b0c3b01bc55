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

// The bundle runs through dist/launch.cjs, which keeps a V8 code cache of it.
var path = require('node:path');
require('../dist/launch.cjs')
  .launch(path.join(__dirname, '..', 'dist', 'petstore.cjs'), args)
  .catch(function (error) {
    process.stderr.write('error: ' + (error && error.message) + '\n');
    process.exitCode = 1;
  });
