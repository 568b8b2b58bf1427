import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleType } from '@reskin/contract';
import { loadConfig } from '../src/config';
import { call, createTestApp, createUser, filesForm, storedKeys, testDb, type TestApp } from './helpers';

/** The permission bits of a file or folder (0o600, 0o700 ...). */
const modeOf = (path: string) => statSync(path).mode & 0o777;

/**
 * The database, the JWT secret and the stored files are readable by the server's user only, whatever
 * the umask. The tests run with umask 000, under which the default modes would be 666 and 777.
 */
describe(`file modes on ${testDb}`, () => {
  let previousUmask: number;
  let t: TestApp;
  const scratch = mkdtempSync(join(tmpdir(), 'reskin-modes-'));

  beforeAll(async () => {
    previousUmask = process.umask(0);
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
    process.umask(previousUmask);
    rmSync(scratch, { recursive: true, force: true });
  });

  it('a DATA_DIR the server creates is 0700 (with its missing parents) and the JWT secret it writes is 0600', () => {
    const dataDir = join(scratch, 'parent', 'data');
    loadConfig({ DATA_DIR: dataDir });
    expect(modeOf(join(scratch, 'parent'))).toBe(0o700);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(join(dataDir, 'jwt-secret'))).toBe(0o600);
  });

  it.runIf(testDb === 'sqlite')('the SQLite database file and its WAL files are 0600', () => {
    const database = join(t.config.dataDir, 'reskin.sqlite');
    expect(modeOf(database)).toBe(0o600);
    for (const suffix of ['-wal', '-shm']) {
      const path = `${database}${suffix}`;
      if (statSync(path, { throwIfNoEntry: false })) expect(modeOf(path), path).toBe(0o600);
    }
  });

  it('stored files are 0600 and the folders the storage creates 0700', async () => {
    const admin = await createUser(t, RoleType.Admin);
    const game = await call(t, 'POST', '/api/games', {
      token: admin.token,
      payload: { name: 'Modes', description: 'd', width: 640, height: 480 },
    });
    expect(game.statusCode, game.body).toBe(201);
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.json<{ id: number }>().id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([
        { path: 'assets/js/main.js', content: 'console.log(1);' },
        { path: 'index.html', content: '<p>hi</p>' },
      ]),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const root = join(t.config.dataDir, 'files');
    const keys = storedKeys(t);
    expect(keys.length).toBeGreaterThan(0);
    expect(modeOf(root)).toBe(0o700);
    for (const key of keys) {
      expect(modeOf(join(root, key)), key).toBe(0o600);
      const parts = key.split('/').slice(0, -1);
      for (let depth = 1; depth <= parts.length; depth++) {
        const folder = join(root, ...parts.slice(0, depth));
        expect(modeOf(folder), folder).toBe(0o700);
      }
    }
  });
});
