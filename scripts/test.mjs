#!/usr/bin/env node
// The one test command (`npm test`): typecheck, lint, server tests on SQLite and on PostgreSQL,
// web unit tests, the web build, then the Playwright suite against the real server on free ports
// with a temporary DATA_DIR. Pass step names to run only some: `npm test -- server-sqlite e2e`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const root = new URL('..', import.meta.url).pathname;
const isCI = process.env.CI === 'true' || process.env.CI === '1';
const testDatabaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function run(label, command, args, env = {}) {
  const started = Date.now();
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n=== ${label} FAILED after ${seconds} s (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
  console.log(`=== ${label} passed in ${seconds} s`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function postgresReachable() {
  const client = new pg.Client({ connectionString: testDatabaseUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (error) {
    console.error(`PostgreSQL at ${testDatabaseUrl} is unreachable: ${error.message}`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const steps = {
  typecheck: () => run('typecheck', 'npx', ['tsc', '-b']),
  lint: () => run('lint', 'npx', ['eslint', '.', '--max-warnings', '0']),
  'server-sqlite': () => run('server tests on SQLite', 'npm', ['test', '-w', '@reskin/server'], { TEST_DB: 'sqlite' }),
  'server-postgres': async () => {
    if (!(await postgresReachable())) {
      if (isCI) {
        console.error('CI=true and PostgreSQL is unreachable: failing the run.');
        process.exit(1);
      }
      console.warn('\n' + '!'.repeat(78));
      console.warn('!!! SKIPPING the server tests on PostgreSQL: the database is unreachable.');
      console.warn(`!!! Start it or set TEST_DATABASE_URL (now ${testDatabaseUrl}).`);
      console.warn('!'.repeat(78) + '\n');
      return;
    }
    run('server tests on PostgreSQL', 'npm', ['test', '-w', '@reskin/server'], {
      TEST_DB: 'postgres',
      TEST_DATABASE_URL: testDatabaseUrl,
    });
  },
  web: () => run('web unit tests', 'npm', ['test', '-w', '@reskin/web']),
  build: () => run('production build (server and web app)', 'node', ['scripts/build.mjs', '--force']),
  e2e: async () => {
    if (!existsSync('/usr/bin/chromium')) {
      console.error('Browser tests need Debian Chromium at /usr/bin/chromium: apt-get install -y chromium');
      process.exit(1);
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'reskin-e2e-'));
    const port = await freePort();
    let playPort = await freePort();
    while (playPort === port) playPort = await freePort();
    try {
      run('browser tests (Playwright, Chromium)', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
        E2E_PORT: String(port),
        E2E_PLAY_PORT: String(playPort),
        E2E_DATA_DIR: dataDir,
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in steps));
if (unknown.length > 0) {
  console.error(`Unknown step(s): ${unknown.join(', ')}. Steps: ${Object.keys(steps).join(', ')}`);
  process.exit(2);
}
const started = Date.now();
for (const [name, step] of Object.entries(steps)) {
  if (wanted.length === 0 || wanted.includes(name)) await step();
}
console.log(`\nAll tests passed in ${((Date.now() - started) / 60000).toFixed(1)} min.`);
