import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { ZipFile } from 'yazl';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  GameStatus,
  RoleType,
  errorCodes,
  type Game,
  type GameFile,
  type Readiness,
  type User,
} from '@reskin/contract';
import { variantKey } from '../src/lib/images/copy-keys';
import {
  call,
  createGame,
  createTestApp,
  createUser,
  errorOf,
  filesForm,
  signupBody,
  storedKeys,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { linkToken, SmtpReceiver } from './support/smtp-receiver';

// A full disk (finding 2): DATA_DIR on a small volume of its own, a tmpfs this test mounts (the suite runs
// as root, in CI too), filled with a file of its own. Below the free-space threshold, uploads, zip uploads and
// Gen. answer 507 STORAGE_FULL naming the volume while deletes, Add User and Create game still work; a write
// that finds the volume full answers 507 too, never a generic 500; a generation that failed on the full disk runs
// again once space is freed. Where mounting is not allowed this file skips, loudly; the guard's arithmetic is
// covered with a fake free-space probe in src/storage/free-space.test.ts either way.

const MB = 1024 * 1024;
/** The volume's size, and the threshold the app keeps free on it (the smaller of 100% and 2 MB: 2 MB). */
const volumeSize = 48 * MB;
const minFree = 2 * MB;

/** Mounts a tmpfs of `size` bytes on `dir`; false (and why, loudly) when this machine does not allow it. */
function mountTmpfs(dir: string, size: number): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
    return true;
  } catch (error) {
    console.warn(
      `\n*** disk-full.test.ts SKIPPED: cannot mount a tmpfs (${(error as Error).message.split('\n')[0]}). ` +
        'The free-space guard is covered by src/storage/free-space.test.ts with a fake probe only. ***\n',
    );
    return false;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'reskin-full-'));
const mounted = mountTmpfs(dir, volumeSize);
afterAll(() => {
  if (!mounted) rmSync(dir, { recursive: true, force: true });
});

/** Pseudo-random pixels: PNG cannot compress them, so a copy weighs what its original does (width x height x 3). */
const noisePng = (width: number, height: number) =>
  sharp({
    create: {
      width,
      height,
      channels: 3,
      background: 'grey',
      noise: { type: 'gaussian', mean: 128, sigma: 80 },
    },
  })
    .png()
    .toBuffer();

describe.runIf(mounted)('a full disk', () => {
  let t: TestApp;
  let admin: TestUser;
  let fillers = 0;

  const freeBytes = async () => {
    const info = await statfs(dir);
    return info.bavail * info.bsize;
  };
  /** Fills the volume until `leave` bytes are free (rounded to its blocks). */
  const fillTo = async (leave: number) => {
    const bytes = (await freeBytes()) - leave;
    if (bytes > 0) writeFileSync(join(dir, `filler-${fillers++}`), Buffer.alloc(bytes));
  };
  /** Fills the volume to its last block: until a write fails with ENOSPC. */
  const fillUp = () => {
    for (const chunk of [MB, 4096]) {
      try {
        for (;;) writeFileSync(join(dir, `filler-${fillers++}`), Buffer.alloc(chunk));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  };
  const freeSpace = () => {
    for (const name of readdirSync(dir))
      if (name.startsWith('filler-')) rmSync(join(dir, name), { force: true });
  };

  const upload = (gameId: number, files: { path: string; content: Buffer | string }[]) =>
    call(t, 'POST', `/api/game/upload/${gameId}`, { token: admin.token, payload: filesForm(files) });
  const uploadZip = async (gameId: number) => {
    const zip = new ZipFile();
    zip.addBuffer(Buffer.from('<!doctype html><title>zipped</title>'), 'index.html');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const body = new FormData();
    body.append('file', new Blob([Buffer.concat(chunks)]), 'game.zip');
    return call(t, 'POST', `/api/game/upload-zip/${gameId}`, { token: admin.token, payload: body });
  };
  const newGame = (name: string) =>
    createGame(t, admin.token, { name, description: 'x', width: 480, height: 640 });
  const gameOf = async (id: number) =>
    (await call(t, 'GET', `/api/games/${id}`, { token: admin.token })).json<Game>();
  const generate = (id: number) => call(t, 'GET', `/api/games/${id}/generate`, { token: admin.token });
  const login = (email: string) =>
    call(t, 'POST', '/api/user/login', { payload: { email, password: signupBody().password } });

  /** A 507 in the envelope that names DATA_DIR. */
  const expectDataVolumeFull = (response: Awaited<ReturnType<typeof call>>) => {
    expect(response.statusCode, response.body).toBe(507);
    expect(errorOf(response)).toMatchObject({
      statusCode: 507,
      name: 'InsufficientStorageError',
      code: errorCodes.storageFull,
    });
    expect(errorOf(response).message).toContain("the server's data volume (DATA_DIR)");
  };

  afterEach(() => freeSpace());
  beforeAll(async () => {
    t = await createTestApp({
      logLevel: process.env.DEBUG_LOG ?? 'silent',
      dataDir: dir,
      storage: { kind: 'local', dir: join(dir, 'files') },
      minFreeSpace: { percent: 100, bytes: minFree },
    });
    admin = await createUser(t, RoleType.Admin);
  });
  afterAll(async () => {
    await t?.close();
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('below the threshold: uploads, zip uploads, helper files and Gen. answer 507 naming DATA_DIR; ready says low; deletes, Add User and Create game work', async () => {
    const game = await newGame('Low');
    const doomed = await newGame('To delete');
    expect(
      (
        await upload(game.id, [
          { path: 'index.html', content: '<!doctype html>' },
          { path: 'a.png', content: await noisePng(16, 16) },
        ])
      ).statusCode,
    ).toBe(200);
    await fillTo(minFree / 2);

    const ready = await call(t, 'GET', '/api/health/ready');
    expect(ready.statusCode).toBe(200);
    const report = ready.json<Readiness>();
    expect(report.checks.space).toBe('low');
    expect(report.space.find((volume) => volume.volume === 'data')).toMatchObject({
      low: true,
      minFreeBytes: minFree,
    });

    expectDataVolumeFull(await upload(game.id, [{ path: 'b.txt', content: 'more' }]));
    expectDataVolumeFull(await uploadZip(game.id));
    const helper = new FormData();
    helper.append('file', new Blob(['layers']), 'art.psd');
    expectDataVolumeFull(
      await call(t, 'POST', `/api/games/${game.id}/psd-files`, { token: admin.token, payload: helper }),
    );
    expectDataVolumeFull(await generate(game.id));
    expect((await gameOf(game.id)).gameStatusTypeId).toBe(GameStatus.Draft);

    // What frees space, and what needs only a little of it, still works.
    const added = await call(t, 'POST', '/api/user/create', { token: admin.token, payload: signupBody() });
    expect(added.statusCode, added.body).toBe(201);
    expect(
      (
        await call(t, 'POST', '/api/games', {
          token: admin.token,
          payload: { name: 'New', description: 'x', width: 480, height: 640 },
        })
      ).statusCode,
    ).toBe(201);
    const files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    const png = files.find((file) => file.path === 'a.png')!;
    expect(
      (await call(t, 'DELETE', `/api/games/${game.id}/files/${png.fileId}`, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    expect((await call(t, 'DELETE', `/api/games/${doomed.id}`, { token: admin.token })).statusCode).toBe(200);

    freeSpace();
    expect((await upload(game.id, [{ path: 'b.txt', content: 'more' }])).statusCode).toBe(200);
    expect((await call(t, 'GET', '/api/health/ready')).json<Readiness>().checks.space).toBe('ok');
  });

  it('a write that finds the volume full answers 507, never 500, leaves nothing behind, and everything works once space is freed', async () => {
    const game = await newGame('Full');
    const keysBefore = storedKeys(t);
    // Above the threshold, so the guard lets the upload in; the file is bigger than what is left.
    await fillTo(minFree + MB);
    expectDataVolumeFull(await upload(game.id, [{ path: 'big.bin', content: Buffer.alloc(12 * MB, 7) }]));
    expect(storedKeys(t)).toEqual(keysBefore);

    // Not a block left: every request answers, none with a generic 500 (SQLite's own writes may find no room: 507).
    fillUp();
    const answers = [
      await call(t, 'POST', '/api/user/create', { token: admin.token, payload: signupBody() }),
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name: 'Full 2', description: 'x', width: 480, height: 640 },
      }),
      await call(t, 'PUT', `/api/games/${game.id}`, {
        token: admin.token,
        payload: {
          name: 'Renamed',
          description: 'x',
          width: 480,
          height: 640,
          gameStatusTypeId: GameStatus.Draft,
          isActive: true,
        },
      }),
      await call(t, 'POST', '/api/user/login', { payload: { email: admin.email, password: admin.password } }),
      await call(t, 'POST', '/api/games/filter', { token: admin.token, payload: {} }),
      await upload(game.id, [{ path: 'index.html', content: '<!doctype html>' }]),
      await generate(game.id),
      await call(t, 'DELETE', `/api/games/${game.id}`, { token: admin.token }),
    ];
    for (const [index, answer] of answers.entries()) {
      expect(answer.statusCode, `request ${index}: ${answer.body}`).not.toBe(500);
      if (answer.statusCode >= 500) expectDataVolumeFull(answer);
    }

    freeSpace();
    const added = await call(t, 'POST', '/api/user/create', { token: admin.token, payload: signupBody() });
    expect(added.statusCode, added.body).toBe(201);
    expect((await login(added.json<User>().email)).statusCode).toBe(200);
    const again = await newGame('After');
    expect((await upload(again.id, [{ path: 'index.html', content: '<!doctype html>' }])).statusCode).toBe(
      200,
    );
  });

  it('Gen. on a game whose generation failed on the full disk runs again once space is freed, and ends Ready', async () => {
    const game = await newGame('Generated');
    const images = [await noisePng(1000, 1000), await noisePng(1000, 1000)];
    const uploaded = await upload(game.id, [
      { path: 'index.html', content: '<!doctype html>' },
      { path: 'img/a.png', content: images[0]! },
      { path: 'img/b.png', content: images[1]! },
    ]);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    // Room by the threshold (2 MB), but not for the watermarked copies (about 3 MB each).
    await fillTo(minFree + MB / 2);
    expect((await generate(game.id)).statusCode).toBe(200);
    await t.generation.idle();
    const failed = await gameOf(game.id);
    // Failed with the reason; or, when SQLite (on the same full volume) could not record even that, left Generating
    // with no job: which the next Gen. takes back.
    if (failed.gameStatusTypeId === GameStatus.Failed)
      expect(failed.statusReason).toContain('too little free space');
    else expect(failed.gameStatusTypeId).toBe(GameStatus.Generating);

    freeSpace();
    const again = await generate(game.id);
    expect(again.statusCode, again.body).toBe(200);
    await t.generation.idle();
    expect(await gameOf(game.id)).toMatchObject({ gameStatusTypeId: GameStatus.Ready, statusReason: null });
    const files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    const keys = storedKeys(t);
    const rows = await t.database.db
      .selectFrom('gameFiles')
      .select('storageKey')
      .where('gameId', '=', game.id)
      .where('path', 'like', 'img/%')
      .execute();
    expect(rows).toHaveLength(files.filter((file) => file.path.startsWith('img/')).length);
    for (const { storageKey } of rows)
      expect(keys).toEqual(
        expect.arrayContaining([variantKey(storageKey, 'skeleton'), variantKey(storageKey, 'watermark')]),
      );
  }, 120_000);

  // Decision 0044: the forgot-password answer (202) goes before its token and mail are written; a full disk then
  // must not lose the request. SQLite only: its file is on this volume (PostgreSQL's disk is not).
  describe.runIf(testDb === 'sqlite')('forgot password on a full disk (decision 0044)', () => {
    const smtp = new SmtpReceiver();
    let m: TestApp;
    beforeAll(async () => {
      await smtp.start();
      const mailDir = join(dir, 'mail');
      mkdirSync(mailDir);
      m = await createTestApp({
        logLevel: process.env.DEBUG_LOG ?? 'silent',
        dataDir: mailDir,
        storage: { kind: 'local', dir: join(mailDir, 'files') },
        minFreeSpace: { percent: 100, bytes: minFree },
        mail: {
          smtpUrl: smtp.url,
          from: '"Reskin Studio" <no-reply@app.test>',
          publicUrl: 'http://app.test',
          digestHourUtc: 8,
          pollMs: 3_600_000,
        },
      });
    });
    afterAll(async () => {
      await m?.close();
      await smtp.stop();
    });

    it('a forgot-password request answered 202 while the disk was full is mailed once space returns, and its link works', async () => {
      const user = await createUser(m);
      await m.mail.settled();
      await m.mail.tick();
      const resets = () =>
        smtp.to(user.email).filter((mail) => mail.subject.startsWith('Reset your password'));

      fillUp();
      expect(
        (await call(m, 'POST', '/api/user/forgot-password', { payload: { email: user.email } })).statusCode,
      ).toBe(202);
      await m.mail.settled();
      await m.mail.tick().catch(() => 0);
      expect(resets()).toHaveLength(0);

      freeSpace();
      await m.mail.tick();
      expect(resets()).toHaveLength(1);
      const token = linkToken(resets()[0]!);
      expect(
        (
          await call(m, 'POST', '/api/user/reset-password', {
            payload: { token, password: 'After-the-full-disk-1' },
          })
        ).statusCode,
      ).toBe(204);
      // Mailed once: later rounds send it no more.
      await m.mail.tick();
      expect(resets()).toHaveLength(1);
    });
  });
});

describe('a generation left Generating with no job to end it', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
  });
  afterAll(async () => t?.close());

  /**
   * What a job leaves when it cannot record its end (the database's disk was full too): the game Generating, no
   * job queued or running, its claim older than any press in flight.
   */
  const strand = (gameId: number) =>
    t.database.db
      .updateTable('games')
      .set({
        gameStatusTypeId: GameStatus.Generating,
        updatedAt: new Date(Date.now() - 60 * 60 * 1000).toISOString(),
      })
      .where('id', '=', gameId)
      .execute();
  const statusOf = async (id: number) =>
    (await call(t, 'GET', `/api/games/${id}`, { token: admin.token })).json<Game>();

  it('the next Gen. generates it (200, Ready), and the services update marks another Failed so Gen. can be pressed', async () => {
    const game = await createGame(t, admin.token, {
      name: 'Stranded',
      description: 'x',
      width: 480,
      height: 640,
    });
    const uploaded = await call(t, 'POST', `/api/game/upload/${game.id}`, {
      token: admin.token,
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html>' },
        { path: 'a.png', content: await noisePng(32, 32) },
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);

    await strand(game.id);
    const pressed = await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    expect(pressed.statusCode, pressed.body).toBe(200);
    await t.generation.idle();
    expect((await statusOf(game.id)).gameStatusTypeId).toBe(GameStatus.Ready);

    await strand(game.id);
    const update = await call(t, 'GET', '/api/admin/update', { token: admin.token });
    expect(update.statusCode, update.body).toBe(200);
    expect(update.json<{ failedGenerationIds: number[] }>().failedGenerationIds).toEqual([game.id]);
    expect(await statusOf(game.id)).toMatchObject({
      gameStatusTypeId: GameStatus.Failed,
      statusReason: expect.stringContaining('press Gen. again'),
    });
    // Nothing stranded any more: a second update ends nothing.
    expect(
      (await call(t, 'GET', '/api/admin/update', { token: admin.token })).json<{
        failedGenerationIds: number[];
      }>().failedGenerationIds,
    ).toEqual([]);
  });
});
