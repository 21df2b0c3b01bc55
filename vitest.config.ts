import { configDefaults, defineConfig } from 'vitest/config';
import { packagingChecks } from './vitest.packaging.config.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...packagingChecks],
    setupFiles: ['test/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Most test files wait on child processes, servers and pseudo-terminals rather than on a core: more files than
    // cores run at once. Workers are reused across files (no fresh module graph per file): no test sets a nock mock
    // (test/setup.ts keeps nock as the network guard only), and nothing in src/ keeps state at module level.
    maxWorkers: 3,
    isolate: false,
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
