import { defineConfig } from 'vitest/config';

// Each test file gets its own database: a fresh SQLite file, or a fresh PostgreSQL schema (TEST_DB=postgres).
// Files share a worker's loaded modules (isolate: false): loading the server's modules again for every file took
// most of the suite's time. A file that replaces a module (vi.mock) is named *.mocks.test.ts and gets a fresh
// module graph of its own; ESLint refuses vi.mock anywhere else (decision 0005).
const mocking = ['src/**/*.mocks.test.ts', 'test/**/*.mocks.test.ts'];
const each = { pool: 'forks', testTimeout: 30_000, hookTimeout: 60_000 } as const;

export default defineConfig({
  test: {
    // Once for the run (the projects below do not repeat it): it names the run's PostgreSQL schemas.
    globalSetup: ['test/global-setup.ts'],
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...each,
          name: 'shared',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: mocking,
          isolate: false,
        },
      },
      { test: { ...each, name: 'mocks', include: mocking } },
    ],
  },
});
