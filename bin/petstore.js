#!/usr/bin/env node
// Entry of the petstore command. Kept to syntax every Node version parses, so
// that an unsupported Node gets a message saying what to do instead of a crash.
// Hence the one file Biome leaves out (biome.json): its fixes (template
// literals, arrow functions, ?.) are syntax that old Nodes cannot parse.
'use strict';

// The Node.js versions of package.json's "engines": those that every bundled
// package supports (read@6 and mute-stream@4 set the bounds).
var v = process.versions.node.split('.').map(Number);
if (!((v[0] === 22 && (v[1] > 22 || (v[1] === 22 && v[2] >= 2))) || (v[0] === 24 && v[1] >= 15) || v[0] >= 26)) {
  process.stderr.write(
    'petstore needs Node.js 22.22.2 or a later 22, 24.15 or a later 24, or 26 and newer (found v' + process.versions.node + ').\n' +
      'Two ways out:\n' +
      '  - install a supported Node.js (the current LTS will do), or\n' +
      '  - use the standalone executable, which needs no Node.js (Linux): in a clone of petstore run\n' +
      '    "npm ci && npm run build:standalone", then copy dist/petstore-' + process.platform + '-' + process.arch + ' to a folder on your PATH,\n' +
      '    for example ~/.local/bin/petstore (README, "Install").\n'
  );
  process.exit(1);
}

// `petstore --version` is answered here, before any module loads: scripts call it to probe the tool.
var args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.on('error', function (error) {
    if (error.code === 'EPIPE') process.exit(0);
    process.stderr.write('error: cannot write to standard output: ' + (error.code || error.message) + '\n');
    process.exit(1);
  });
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
