#!/usr/bin/env node
// Entry of the petstore command. Kept to syntax every Node version parses, so
// that an unsupported Node gets a message saying what to do instead of a crash.
// Hence the one file Biome leaves out (biome.json): its fixes (template
// literals, arrow functions, ?.) are syntax that old Nodes cannot parse.
'use strict';

// The Node.js versions petstore runs on (scripts/supported-node.mjs, the
// packed package's "engines"): those that every bundled package supports
// (read@6 and mute-stream@4 set the bounds). On another, an error as main
// reports one (src/main.ts): wrapped at stderr's width, or with --json one
// JSON object; it names the ways out, each command on a line of its own.
var args = process.argv.slice(2);
var v = process.versions.node.split('.').map(Number);
if (!((v[0] === 22 && (v[1] > 22 || (v[1] === 22 && v[2] >= 2))) || (v[0] === 24 && v[1] >= 15) || v[0] >= 26)) {
  report(
    'unsupported_node',
    'petstore needs Node.js 22.22.2 or a later 22, 24.15 or a later 24, or 26 and newer; this is Node.js ' + process.versions.node,
    'Install a supported Node.js (the current LTS will do). Or, on Linux, build in a clone of petstore (README, "Install") ' +
      'a petstore that carries its own Node.js, one of:\n' +
      'the Debian package (.deb), for apt install:\n' +
      '  npm ci && npm run build:deb\n' +
      'the RPM package (.rpm), for dnf install:\n' +
      '  npm ci && npm run build:rpm\n' +
      'the standalone executable, to copy to ~/.local/bin/petstore:\n' +
      '  npm ci && npm run build:standalone'
  );
  process.exit(1);
}

/**
 * An error on stderr as src/main.ts reports one: with --json anywhere on the line one JSON object (code, message, status, hint),
 * else "error: " and the message, then the hint, wrapped at stderr's width (80 when it is no terminal) by the rule of
 * src/terminal/wrap.ts (wrapMessage), which test/node-versions.test.ts holds this to.
 */
function report(code, message, hint) {
  if (args.indexOf('--json') !== -1) {
    var error = { code: code, message: message, status: null };
    if (hint) error.hint = hint;
    process.stderr.write(JSON.stringify(error) + '\n');
    return;
  }
  var width = (process.stderr.isTTY && process.stderr.columns) || 80;
  var lines = ('error: ' + message + (hint ? '\n' + hint : '')).split('\n');
  var wrapped = lines.map(function (line, i) {
    if (line.length <= width) return line;
    var indent = /^ */.exec(line)[0];
    // A command continues after " \\", indented further; a lead-in above a command stays flush; other text hangs by two.
    if (indent) return wrap(line.slice(indent.length), width, indent, indent + '    ', ' \\');
    return wrap(line, width, '', /^ +\S/.test(lines[i + 1] || '') ? '' : '  ', '');
  });
  process.stderr.write(wrapped.join('\n') + '\n');
}

/** `text` broken at spaces into lines of at most `width` columns, the first starting with `first`, the next with `rest`, `end` ending each but the last. */
function wrap(text, width, first, rest, end) {
  var lines = [];
  var line = first;
  var empty = true;
  text.split(' ').forEach(function (word) {
    if (!empty && (line + ' ' + word).length + end.length > width) {
      lines.push(line + end);
      line = rest + word;
    } else line += (empty ? '' : ' ') + word;
    empty = false;
  });
  lines.push(line);
  return lines.join('\n');
}

// `petstore --version` is answered here, before any module loads: scripts call it to probe the tool.
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
  var clone = path.dirname(dist);
  var word = /^[\w@%+=:,.\/~-]+$/.test(clone) ? clone : "'" + clone.replace(/'/g, "'\\''") + "'";
  if (notBuilt) report('not_built', 'petstore is not built', 'Build it in its clone:\n  cd ' + word + ' && npm run build');
  else report('internal_error', String(error && error.message));
  process.exitCode = 1;
}
try {
  require(path.join(dist, 'launch.cjs')).launch(path.join(dist, 'petstore.cjs'), args).catch(fail);
} catch (error) {
  fail(error);
}
