// Quick start, the main job once (`npm run quickstart` has installed and
// built first): starts the sandbox (a local pet store) on a free loopback
// port, runs `petstore list --status available` against it with the real
// binary, stops the sandbox and stops there. Each step says what it does
// while it runs. The standalone executable is the README's install step, not this.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startPetService } from '../sandbox/pet-service.mjs';

const say = (text) => process.stderr.write(`${text}\n`);
const bin = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));

say('Starting the sandbox, a local pet store that accepts the key "demo"...');
const sandbox = await startPetService({ key: 'demo', record: false });
const baseUrl = sandbox.baseUrl;
say(`Sandbox running at ${baseUrl}.`);

const args = ['list', '--status', 'available'];
say(`Listing the available pets from it (the key and base URL given through the environment):`);
say(`$ PETSTORE_BASE_URL=${baseUrl} PETSTORE_API_KEY=demo petstore ${args.join(' ')}`);
// The sandbox answers from this process, so the CLI runs as a child beside it.
const code = await new Promise((resolve) =>
  spawn(process.execPath, [bin, ...args], {
    stdio: 'inherit',
    // Without PETSTORE_ENV: a shell that exported one (the README's Quick start does) may name an environment this config lacks.
    env: { ...process.env, PETSTORE_ENV: undefined, PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: 'demo' },
  }).on('close', (status) => resolve(status ?? 1)),
);

say('Stopping the sandbox...');
await sandbox.close();
if (code !== 0) {
  say(`petstore exited ${code}; see the message above.`);
  process.exit(code);
}
say(
  'Done. Next: "npm run sandbox -- --port 4010" keeps a sandbox running for the README\'s Quick start; ' +
    "the README's Install section puts petstore on your PATH.",
);
