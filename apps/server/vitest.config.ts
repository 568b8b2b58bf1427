import { defineConfig } from 'vitest/config';

// Each test file gets its own database: a fresh SQLite file, or a fresh PostgreSQL schema (TEST_DB=postgres).
// Files share a worker's loaded modules (isolate: false): loading the server's modules again for every file took
// most of the suite's time. A file that replaces a module (vi.mock), or whose checks depend on a module's state
// being fresh (the sound conversions' turns), is named *.isolated.test.ts and gets a module graph of its own;
// ESLint refuses vi.mock anywhere else (decision 0005).
const isolated = ['src/**/*.isolated.test.ts', 'test/**/*.isolated.test.ts'];
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
          exclude: isolated,
          isolate: false,
        },
      },
      { test: { ...each, name: 'isolated', include: isolated } },
    ],
  },
});
