// Quick start, the main job once (`npm run quickstart` has installed and
// built first): starts the sandbox (a local pet store) on a free loopback
// port, runs `petstore list --status available` against it with the real
// binary, stops the sandbox and stops there. Each step says what it does
// while it runs. The standalone executable is the README's install step, not this.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startPetService } from '../sandbox/pet-service.mjs';

// Wrapped between words at the terminal's width (80 when piped), as petstore's own messages; a command stays on a line of its own.
const { wrapMessage } = createRequire(import.meta.url)('../dist/petstore.cjs');
const say = (text) => process.stderr.write(`${wrapMessage(text, (process.stderr.isTTY && process.stderr.columns) || 80)}\n`);
const bin = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));

say('Starting the sandbox, a local pet store that accepts the key "demo"...');
const sandbox = await startPetService({ key: 'demo', record: false });
const baseUrl = sandbox.baseUrl;
say(`Sandbox running at ${baseUrl}.`);

const args = ['list', '--status', 'available'];
say('Listing the available pets (key and base URL in the environment):');
say(`  PETSTORE_BASE_URL=${baseUrl} \\\n    PETSTORE_API_KEY=demo petstore ${args.join(' ')}`);
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
say("Done. Next, to keep a sandbox running for the README's Quick start:\n  npm run sandbox -- --port 4010");
say("The README's Install section puts petstore on your PATH.");
