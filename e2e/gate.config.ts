import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { chromiumFlags } from './chromium-flags';
import { e2eJwtSecret } from './fixtures/tokens';

/**
 * The gate suite (gate/gate.spec.ts) over the game corpus: the production server on the database GATE_DATABASE_URL
 * names (PostgreSQL), or SQLite in its data dir when it is unset. scripts/test.mjs runs it once on each, on free
 * ports with a temporary DATA_DIR; run on its own it makes its own data dir here (global-teardown removes it).
 */
process.env.E2E_PORT ??= '3220';
process.env.E2E_PLAY_PORT ??= '3221';
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = mkdtempSync(join(tmpdir(), 'reskin-gate-'));
  process.env.E2E_DATA_DIR_CREATED = '1';
}
process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: 'gate',
  outputDir: 'test-results/gate',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: process.env.CI === 'true',
  timeout: 600_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  globalTeardown: './global-teardown.ts',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // WebGL games draw through SwiftShader (no GPU here).
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [...chromiumFlags, '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
    },
  },
  projects: [{ name: 'chromium' }],
  webServer: {
    command: 'node scripts/start.mjs',
    cwd: repoRoot,
    url: `${baseURL}/api/config`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: process.env.E2E_PORT,
      PLAY_PORT: process.env.E2E_PLAY_PORT,
      DATA_DIR: process.env.E2E_DATA_DIR,
      ...(process.env.GATE_DATABASE_URL ? { DATABASE_URL: process.env.GATE_DATABASE_URL } : {}),
      SEED_DEMO: 'true',
      AUTH_RATE_LIMIT_MAX: '100000',
      LOG_LEVEL: 'warn',
      JWT_SECRET: e2eJwtSecret,
    },
  },
});
