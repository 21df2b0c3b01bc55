import { defineConfig } from 'vitest/config';

/**
 * The packaging checks: what `npm pack`, `npm run build`, the quick start, the standalone executables and the Debian
 * and RPM packages produce and how they install. They build and install whole artefacts, so they run on their own, after the
 * suite: `npm test` runs both, `npx vitest run` only the suite.
 */
export const packagingChecks = [
  'test/package.test.ts',
  'test/build.test.ts',
  'test/quickstart.test.ts',
  'test/deb.test.ts',
  'test/rpm.test.ts',
  'test/standalone-arm64.test.ts',
];

export default defineConfig({
  test: {
    include: packagingChecks,
    setupFiles: ['test/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    maxWorkers: 2,
    isolate: false,
    reporters: ['default', ['json', { outputFile: 'test-results-packaging.json' }]],
  },
});
