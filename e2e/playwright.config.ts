import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { chromiumFlags } from './chromium-flags';
import { e2eJwtSecret } from './fixtures/tokens';

const isCI = process.env.CI === 'true' || process.env.CI === '1';
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// The repo's runner (scripts/test.mjs) picks free ports and a temporary DATA_DIR. Run on its own, the suite
// falls back to fixed ports and makes its own data dir here, once, in the main process: the workers load
// this file again but inherit the environment, so they all see the same dir; global-teardown removes it.
process.env.E2E_PORT ??= '3210';
process.env.E2E_PLAY_PORT ??= '3211';
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = mkdtempSync(join(tmpdir(), 'reskin-e2e-'));
  process.env.E2E_DATA_DIR_CREATED = '1';
}
process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';

const port = process.env.E2E_PORT;
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results',
  fullyParallel: true,
  workers: 2,
  retries: isCI ? 1 : 0,
  forbidOnly: isCI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { outputFolder: 'playwright-report', open: 'never' }]],
  globalTeardown: './global-teardown.ts',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: chromiumFlags,
    },
  },
  projects: [{ name: 'chromium' }],
  webServer: {
    // The production server as `npm start` runs it (built by scripts/build.mjs when stale), on its real
    // SQLite database; it also serves the built web app (apps/web/dist).
    command: 'node scripts/start.mjs',
    cwd: repoRoot,
    url: `${baseURL}/api/config`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: port,
      PLAY_PORT: process.env.E2E_PLAY_PORT,
      DATA_DIR: process.env.E2E_DATA_DIR,
      SEED_DEMO: 'true',
      AUTH_RATE_LIMIT_MAX: '100000',
      // A version with more notes than one page of GET /notes holds is written in seconds (workbench-virtual.spec.ts).
      NOTES_BURST: '100000',
      LOG_LEVEL: 'warn',
      JWT_SECRET: e2eJwtSecret,
      // The play usage record (decision 0023): a short "at start" window that play-usage.spec.ts waits out on the
      // server's clock, and counts written twice a second so the screens show them soon.
      PLAY_USAGE_START_SECONDS: '5',
      PLAY_USAGE_FLUSH_SECONDS: '0.5',
    },
  },
});
