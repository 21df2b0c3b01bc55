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
var dist = path.join(__dirname, '..', 'dist');
function fail(error) {
  var notBuilt = error && (error.code === 'MODULE_NOT_FOUND' || error.code === 'ENOENT') && String(error.message).indexOf(dist) !== -1;
  process.stderr.write(notBuilt ? 'error: petstore is not built: run "npm run build" in ' + path.dirname(dist) + '\n' : 'error: ' + (error && error.message) + '\n');
  process.exitCode = 1;
}
try {
  require(path.join(dist, 'launch.cjs')).launch(path.join(dist, 'petstore.cjs'), args).catch(fail);
} catch (error) {
  fail(error);
}
