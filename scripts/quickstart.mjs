// Quick start: starts the sandbox on a free loopback port, runs
// `petstore list --status available` against it with the real binary, and stops.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startPetService } from '../sandbox/pet-service.mjs';

const sandbox = await startPetService({ key: 'demo', record: false });
const baseUrl = sandbox.baseUrl;
const args = ['list', '--status', 'available'];
process.stderr.write(`sandbox on ${baseUrl}\n$ PETSTORE_BASE_URL=${baseUrl} PETSTORE_API_KEY=demo petstore ${args.join(' ')}\n`);
// The sandbox answers from this process, so the CLI runs as a child beside it.
const child = spawn(process.execPath, [fileURLToPath(new URL('../bin/petstore.js', import.meta.url)), ...args], {
  stdio: 'inherit',
  env: { ...process.env, PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: 'demo' },
});
child.on('close', (code) => {
  void sandbox.close();
  process.exitCode = code ?? 1;
});
