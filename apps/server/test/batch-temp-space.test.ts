import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { ZipFile } from 'yazl';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RoleType, errorCodes, type BatchAnswer, type GameVersion, type UserGame } from '@reskin/contract';
import {
  call,
  createGame,
  createTestApp,
  createUser,
  errorOf,
  filesForm,
  storedKeys,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { solidPng } from './support/image-samples';

// The temporary folder of a version's batch (decision 0045): TMPDIR on a small tmpfs this test mounts (as
// disk-full.test.ts mounts DATA_DIR; the suite runs as root), DATA_DIR on the ordinary disk. Below the threshold a
// batch answers 507 naming the temporary folder before it reads a byte; a .zip that inflates past what is left
// answers 507 too, never a 500, and leaves no temporary files. Where mounting is not allowed this file skips, loudly.

const MB = 1024 * 1024;
const volumeSize = 32 * MB;
const minFree = 2 * MB;

const realTmp = tmpdir();
const dataDir = mkdtempSync(join(realTmp, 'reskin-batch-data-'));
const tempDir = mkdtempSync(join(realTmp, 'reskin-batch-tmp-'));
let mounted = false;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${volumeSize},mode=0700`, 'tmpfs', tempDir], {
    stdio: 'pipe',
  });
  mounted = true;
} catch (error) {
  console.warn(
    `\n*** batch-temp-space.test.ts SKIPPED: cannot mount a tmpfs (${(error as Error).message.split('\n')[0]}). ***\n`,
  );
}

describe.runIf(mounted)(`a batch and a full temporary folder on ${testDb}`, () => {
  let t: TestApp;
  let artist: TestUser;
  let version: GameVersion;
  let fillers = 0;

  const freeBytes = async () => {
    const info = await statfs(tempDir);
    return info.bavail * info.bsize;
  };
  const fillTo = async (leave: number) => {
    const bytes = (await freeBytes()) - leave;
    if (bytes > 0) writeFileSync(join(tempDir, `filler-${fillers++}`), Buffer.alloc(bytes));
  };
  const freeSpace = () => {
    for (const name of readdirSync(tempDir))
      if (name.startsWith('filler-')) rmSync(join(tempDir, name), { force: true });
  };
  const batchFolders = () => readdirSync(tempDir).filter((name) => name.startsWith('reskin-batch-'));
  const send = (files: { path: string; content: Buffer }[]) => {
    const body = new FormData();
    for (const file of files) {
      body.append('path', file.path);
      body.append('file', new Blob([file.content]), file.path);
    }
    return t.app.inject({
      method: 'POST',
      url: `/api/game-versions/${version.id}/batch`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: body,
    });
  };
  const expectTempFull = (response: Awaited<ReturnType<typeof send>>) => {
    expect(response.statusCode, response.body).toBe(507);
    expect(errorOf(response)).toMatchObject({
      statusCode: 507,
      name: 'InsufficientStorageError',
      code: errorCodes.storageFull,
    });
    expect(errorOf(response).message).toContain("the server's temporary folder (TMPDIR)");
  };

  beforeAll(async () => {
    // The app's temporary folder is the process's TMPDIR (os.tmpdir()), read when the app is built and per request.
    process.env.TMPDIR = tempDir;
    t = await createTestApp({
      dataDir,
      storage: { kind: 'local', dir: join(dataDir, 'files') },
      minFreeSpace: { percent: 100, bytes: minFree },
    });
    const admin = await createUser(t, RoleType.Admin);
    artist = await createUser(t);
    const game = await createGame(t, admin.token, {
      name: 'Temp',
      description: 'x',
      width: 480,
      height: 640,
    });
    const userGame = (
      await call(t, 'POST', '/api/user-games', {
        token: admin.token,
        payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 1 },
      })
    ).json<UserGame>();
    const files = [
      { path: 'hero.png', content: await solidPng(40, 20) },
      ...Array.from({ length: 9 }, (_, i) => ({ path: `data/level-${i}.txt`, content: `level ${i}` })),
    ];
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/game/upload/${game.id}`,
          headers: { authorization: `Bearer ${admin.token}` },
          payload: filesForm(files),
        })
      ).statusCode,
    ).toBe(200);
    version = (
      await call(t, 'POST', '/api/game-versions', {
        token: artist.token,
        payload: { name: 'Temp look', description: 'Temp', gameId: game.id, userGamesId: userGame.id },
      })
    ).json<GameVersion>();
  });
  afterEach(() => freeSpace());
  afterAll(async () => {
    await t?.close();
    process.env.TMPDIR = realTmp;
    execFileSync('umount', [tempDir]);
    rmSync(tempDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('below the threshold: a batch answers 507 naming the temporary folder, stores nothing, and works once space is freed', async () => {
    const keysBefore = storedKeys(t);
    await fillTo(minFree / 2);
    expectTempFull(await send([{ path: 'hero.png', content: await solidPng(40, 20, 'blue') }]));
    expect(storedKeys(t)).toEqual(keysBefore);
    expect(batchFolders()).toEqual([]);
    freeSpace();
    const replaced = await send([{ path: 'hero.png', content: await solidPng(40, 20, 'blue') }]);
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json<BatchAnswer>().summary.replaced).toBe(1);
  });

  it('a small .zip that inflates past the room left is answered by its rows, never a 500, and leaves no files', async () => {
    // Nine entries of 900 KB of zeros (under the size from which the ratio is checked): a zip of a few KB that
    // inflates to 8 MB, with 3 MB left. Its entries are read from the zip when their rows need them, never
    // inflated into the temporary folder (decision 0060), so the room left is enough.
    const zip = new ZipFile();
    for (let i = 0; i < 9; i++) zip.addBuffer(Buffer.alloc(900 * 1024), `data/level-${i}.txt`);
    zip.end();
    const bytes = await buffer(zip.outputStream);
    expect(bytes.length).toBeLessThan(100 * 1024);
    await fillTo(minFree + MB);
    const keysBefore = storedKeys(t);
    const answered = await send([{ path: 'levels.zip', content: bytes }]);
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json<BatchAnswer>().summary).toMatchObject({ total: 9, notReplaceable: 9, replaced: 0 });
    expect(storedKeys(t)).toEqual(keysBefore);
    expect(batchFolders()).toEqual([]);
  });
});
