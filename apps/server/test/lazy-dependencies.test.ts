import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDb } from './helpers';
import { buildIfStale, freePort, startServer, type ServerProcess } from './support/server-process';

// The optional dependencies load only when configured. The built server started as `npm start`
// starts it, on the defaults (SQLite, local storage, no Redis) with the demo seed, records every module
// specifier it imports (a resolve hook preloaded with NODE_OPTIONS); none of them may be among these.
const optional = ['pg', 'pg-boss', 'ioredis', '@aws-sdk/client-s3', '@aws-sdk/lib-storage'];

describe.runIf(testDb === 'sqlite')('optional dependencies', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;

  beforeAll(() => buildIfStale(), 180_000);

  afterAll(() => {
    server?.killProcessGroup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a server on SQLite with local storage and no Redis never imports pg, pg-boss, ioredis or the AWS SDK', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'reskin-lazy-'));
    const log = join(dataDir, 'imports.log');
    const hook = pathToFileURL(join(import.meta.dirname, 'support', 'record-imports.mjs')).href;
    const [port, playPort] = [await freePort(), await freePort()];
    server = startServer({
      PORT: String(port),
      PLAY_PORT: String(playPort),
      DATA_DIR: join(dataDir, 'data'),
      SEED_DEMO: 'true',
      NODE_OPTIONS: `--import ${hook}`,
      RECORD_IMPORTS_TO: log,
    });
    await server.waitFor(/Reskin Studio on http/);
    const imported = new Set(readFileSync(log, 'utf8').split('\n'));
    // The hook sees the server's imports: its own modules and the packages it does use.
    expect(imported).toContain('fastify');
    expect(imported).toContain('better-sqlite3');
    expect(
      optional.filter((name) =>
        [...imported].some((specifier) => specifier === name || specifier.startsWith(`${name}/`)),
      ),
    ).toEqual([]);
  });
});
