import { defineConfig } from 'vitest/config';

// Each test file gets its own database: a fresh SQLite file, or a fresh PostgreSQL schema (TEST_DB=postgres).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
