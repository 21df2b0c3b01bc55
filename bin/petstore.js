#!/usr/bin/env node
// Entry of the petstore command. Kept to syntax every Node version parses, so
// that an unsupported Node gets a message saying what to do instead of a crash.
// Hence the one file Biome leaves out (biome.json): its fixes (template
// literals, arrow functions, ?.) are syntax that old Nodes cannot parse.
'use strict';

// The Node.js versions petstore runs on (scripts/supported-node.mjs, the
// packed package's "engines"): those that every bundled package supports
// (read@6 and mute-stream@4 set the bounds). On another, a message of at most
// 72 columns names the ways out, each command on a line of its own.
var v = process.versions.node.split('.').map(Number);
if (!((v[0] === 22 && (v[1] > 22 || (v[1] === 22 && v[2] >= 2))) || (v[0] === 24 && v[1] >= 15) || v[0] >= 26)) {
  process.stderr.write(
    'petstore needs Node.js 22.22.2 or a later 22, 24.15 or a later 24, or 26\n' +
      'and newer; this is Node.js ' + process.versions.node + '. Ways out:\n' +
      '  - install a supported Node.js (the current LTS will do), or\n' +
      '  - on Linux, use a petstore that carries its own Node.js, built in a\n' +
      '    clone of petstore (README, "Install"), one of:\n' +
      '    the Debian package (.deb), for apt install:\n' +
      '      npm ci && npm run build:deb\n' +
      '    the RPM package (.rpm), for dnf install:\n' +
      '      npm ci && npm run build:rpm\n' +
      '    the standalone executable, to copy to ~/.local/bin/petstore:\n' +
      '      npm ci && npm run build:standalone\n'
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
