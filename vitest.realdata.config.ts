import { defineConfig } from 'vitest/config';

/**
 * The real-data suite (issue #2 §8): imports the data sets of ../shared/data and checks the
 * figures against sums computed straight from the files. Run by CI after the main suite:
 * `npx vitest run --config vitest.realdata.config.ts`.
 */
export default defineConfig({
  test: {
    include: ['tests/realdata/**/*.test.ts'],
    globalSetup: ['tests/setup/postgres.ts'],
    pool: 'forks',
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
