// `npm run quickstart`'s script (after its install and build): the sandbox,
// `petstore list --status available` against it with the built binary, each
// step said as it runs, and nothing more (no standalone executable).
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { spawnAsync, tempConfigHome } from './helpers.js';

const SCRIPT = fileURLToPath(new URL('../scripts/quickstart.mjs', import.meta.url));

test('starts the sandbox, lists the available pets, says each step, and stops there (also in a shell that exported PETSTORE_ENV)', async () => {
  const r = await spawnAsync(process.execPath, [SCRIPT], {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    XDG_CONFIG_HOME: tempConfigHome(),
    // The README's Quick start exports it; this config has no such environment.
    PETSTORE_ENV: 'local',
  });
  expect(r.code).toBe(0);
  // Piped: tab-separated rows of the sandbox's available pets.
  expect(r.stdout).toBe('1\tRex\t1\tavailable\n3\tBella\t1\tavailable\n');
  const url = /Sandbox running at (http:\/\/127\.0\.0\.1:\d+\/v1)\./.exec(r.stderr)?.[1];
  expect(url).toBeDefined();
  expect(r.stderr).toBe(
    [
      'Starting the sandbox, a local pet store that accepts the key "demo"...',
      `Sandbox running at ${url}.`,
      'Listing the available pets (key and base URL in the environment):',
      `  PETSTORE_BASE_URL=${url} \\`,
      '    PETSTORE_API_KEY=demo petstore list --status available',
      'Stopping the sandbox...',
      "Done. Next, to keep a sandbox running for the README's Quick start:",
      '  npm run sandbox -- --port 4010',
      "The README's Install section puts petstore on your PATH.",
      '',
    ].join('\n'),
  );
  expect(r.stderr).not.toMatch(/standalone/i);
});

test('npm run quickstart installs and builds, saying so, then runs the script: no standalone build', async () => {
  const { default: pkg } = await import('../package.json', { with: { type: 'json' } });
  expect(pkg.scripts.quickstart).toBe(
    "echo 'Installing the dependencies (npm ci)...' && npm ci --no-audit --no-fund --loglevel=error && echo 'Building petstore (npm run build)...' && npm run build --silent && node scripts/quickstart.mjs",
  );
});
