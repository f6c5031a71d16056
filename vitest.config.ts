import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    // The real-data suite reads ../shared/data and has its own config (vitest.realdata.config.ts).
    exclude: ['**/node_modules/**', '**/.git/**', 'tests/realdata/**'],
    globalSetup: ['tests/setup/postgres.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
