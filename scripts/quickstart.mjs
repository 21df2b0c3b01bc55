// Quick start: starts the sandbox on a free loopback port, runs
// `petstore list --status available` against it with the real binary, and
// stops; then builds the standalone executable, which needs no Node.js, and
// says where it is and how to put it on PATH.
import { spawn } from 'node:child_process';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPetService } from '../sandbox/pet-service.mjs';

/** Runs `args` with this Node, output inherited; resolves to the exit code. */
const node = (args, env = process.env) =>
  new Promise((resolve) => spawn(process.execPath, args, { stdio: 'inherit', env }).on('close', (code) => resolve(code ?? 1)));
const file = (path) => fileURLToPath(new URL(path, import.meta.url));

const sandbox = await startPetService({ key: 'demo', record: false });
const baseUrl = sandbox.baseUrl;
const args = ['list', '--status', 'available'];
process.stderr.write(`sandbox on ${baseUrl}\n$ PETSTORE_BASE_URL=${baseUrl} PETSTORE_API_KEY=demo petstore ${args.join(' ')}\n`);
// The sandbox answers from this process, so the CLI runs as a child beside it.
const listed = await node([file('../bin/petstore.js'), ...args], { ...process.env, PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: 'demo' });
await sandbox.close();
if (listed !== 0) process.exit(listed);

if (process.platform !== 'linux') {
  process.stderr.write(`\nThe standalone executable is built on Linux only so far; here, run petstore with Node.js (README, "Install").\n`);
} else {
  process.stderr.write('\nBuilding the standalone executable, which runs without Node.js...\n');
  const built = await node([file('./build-standalone.mjs')]);
  if (built !== 0) process.exit(built);
  const standalone = file(`../dist/petstore-${process.platform}-${process.arch}`);
  process.stderr.write(
    `\nStandalone executable: ${standalone}\n` +
      `To call it as "petstore" from anywhere, copy it to a folder on your PATH, for example:\n` +
      `  mkdir -p ~/.local/bin && cp ${relative(process.cwd(), standalone) || standalone} ~/.local/bin/petstore\n` +
      `(~/.local/bin is on PATH in most Linux shells once it exists; otherwise add it in your shell's profile.)\n`,
  );
}
