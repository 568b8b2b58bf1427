import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RoleType,
  type Game,
  type GameFile,
  type GameVersion,
  type UserGame,
  type VersionFile,
} from '@reskin/contract';
import {
  call,
  createGame,
  createTestApp,
  createUser,
  errorOf,
  filesForm as form,
  storedKeys,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';

/** The per-file limit of this suite: small, so an oversized file is quick to send. */
const maxFileSizeBytes = 100 * 1024;

const wav = readFileSync(new URL('../sample-game/star-catcher/assets/sfx/catch.wav', import.meta.url));

/** A PNG of noise (so it does not compress to a few bytes) of the given size. */
function noisePng(width: number, height: number, seed = 1): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed;
  for (let i = 0; i < pixels.length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = state >> 16;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

describe(`uploads that never collide or truncate on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ maxFileSizeBytes });
    [admin, artist] = [await createUser(t, RoleType.Admin), await createUser(t)];
  });
  afterAll(async () => t.close());

  /** Every file under the storage root, `.partial` files included: what an upload left behind. */
  const storedFiles = async (): Promise<string[]> => storedKeys(t);

  /** Nothing was added to storage since `before`, and nothing taken away. */
  async function expectStorageUnchanged(before: string[]): Promise<void> {
    const after = await storedFiles();
    expect({
      added: after.filter((key) => !before.includes(key)),
      removed: before.filter((key) => !after.includes(key)),
    }).toEqual({ added: [], removed: [] });
  }

  const newGame = (name = 'Uploads'): Promise<Game> =>
    createGame(t, admin.token, { name, description: 'Upload checks', width: 480, height: 640 });

  function gameUpload(
    gameId: number,
    payload: FormData | string | Buffer,
    headers: Record<string, string> = {},
  ) {
    return t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${gameId}`,
      headers: { authorization: `Bearer ${admin.token}`, ...headers },
      payload,
    });
  }

  function helperUpload(
    gameId: number,
    payload: FormData | string | Buffer,
    headers: Record<string, string> = {},
  ) {
    return t.app.inject({
      method: 'POST',
      url: `/api/games/${gameId}/psd-files/`,
      headers: { authorization: `Bearer ${admin.token}`, ...headers },
      payload,
    });
  }

  function versionUpload(
    versionId: number,
    fileId: number,
    payload: FormData | string | Buffer,
    headers: Record<string, string> = {},
  ) {
    return t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${versionId}/${fileId}`,
      headers: { authorization: `Bearer ${artist.token}`, ...headers },
      payload,
    });
  }

  async function filesOf(gameId: number): Promise<GameFile[]> {
    const response = await call(t, 'GET', `/api/games/${gameId}/files`, { token: admin.token });
    expect(response.statusCode).toBe(200);
    return response.json<GameFile[]>();
  }

  /** A game with an image and a sound, assigned to the artist, and a version of it. */
  async function versionOfGame(): Promise<{
    game: Game;
    version: GameVersion;
    hero: GameFile;
    sound: GameFile;
  }> {
    const game = await newGame('Versioned uploads');
    const uploaded = await gameUpload(
      game.id,
      form([
        { path: 'index.html', content: '<canvas></canvas>' },
        { path: 'img/hero.png', content: await noisePng(120, 90) },
        { path: 'sfx/catch.wav', content: wav },
      ]),
    );
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const files = await filesOf(game.id);
    const assigned = await call(t, 'POST', '/api/user-games', {
      token: admin.token,
      payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 10 },
    });
    expect(assigned.statusCode, assigned.body).toBe(201);
    const userGame = assigned.json<UserGame>();
    const created = await call(t, 'POST', '/api/game-versions', {
      token: artist.token,
      payload: {
        name: 'Checks',
        description: 'Upload checks',
        gameId: game.id,
        userGamesId: userGame.id,
        isLocked: false,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    return {
      game,
      version: created.json<GameVersion>(),
      hero: files.find((f) => f.path === 'img/hero.png')!,
      sound: files.find((f) => f.path === 'sfx/catch.wav')!,
    };
  }

  async function versionFiles(version: GameVersion): Promise<VersionFile[]> {
    const response = await call(t, 'GET', `/api/game-versions/files/${version.id}/${version.gameId}`, {
      token: artist.token,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<VersionFile[]>();
  }

  describe('parallel uploads to one game', () => {
    it('30 single-file uploads at once all succeed, each with its own fileId', async () => {
      const game = await newGame('Parallel');
      const count = 30;
      const responses = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          gameUpload(game.id, form([{ path: `assets/file-${i}.txt`, content: `file ${i}` }])),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array.from({ length: count }, () => 200));
      const fileIds = responses.map((r) => r.json<{ file: GameFile }[]>()[0]!.file.fileId);
      expect(new Set(fileIds).size).toBe(count);
      const listed = await filesOf(game.id);
      expect(listed).toHaveLength(count);
      expect(new Set(listed.map((f) => f.fileId))).toEqual(new Set(fileIds));
    });

    it('parallel uploads of one new path make one file; the others replace it', async () => {
      const game = await newGame('Same path');
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          gameUpload(game.id, form([{ path: 'same.txt', content: `take ${i}` }])),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
      const results = responses.map((r) => r.json<{ file: GameFile; replaced: boolean }[]>()[0]!);
      expect(results.filter((r) => !r.replaced)).toHaveLength(1);
      expect(new Set(results.map((r) => r.file.fileId)).size).toBe(1);
      const listed = await filesOf(game.id);
      expect(listed.map((f) => f.path)).toEqual(['same.txt']);
      // The replaced contents' objects are gone: one original is left for this game.
      expect((await storedFiles()).filter((key) => key.startsWith(`games/${game.id}/files/`))).toHaveLength(
        1,
      );
    });

    it('parallel version uploads of one file keep one replacement', async () => {
      const { version, sound } = await versionOfGame();
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          versionUpload(version.id, sound.fileId, form([{ path: 'catch.wav', content: wav }])),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
      expect((await versionFiles(version)).map((f) => f.fileId)).toEqual([sound.fileId]);
      expect((await storedFiles()).filter((key) => key.startsWith(`versions/${version.id}/`))).toHaveLength(
        1,
      );
    });
  });

  describe('files over the per-file limit are 413 and store nothing', () => {
    it('a version upload over the limit', async () => {
      const { version, sound } = await versionOfGame();
      const before = await storedFiles();
      // A real WAV header followed by more than the limit: the start alone would pass as audio.
      const big = Buffer.concat([wav, Buffer.alloc(maxFileSizeBytes, 7)]);
      const response = await versionUpload(
        version.id,
        sound.fileId,
        form([{ path: 'catch.wav', content: big }]),
      );
      expect(response.statusCode, response.body).toBe(413);
      const error = errorOf(response);
      expect(error).toMatchObject({ statusCode: 413, name: 'PayloadTooLargeError', code: 'FILE_TOO_LARGE' });
      expect(error.message).toContain('catch.wav');
      expect(error.message).toContain('100 KB');
      await expectStorageUnchanged(before);
      expect(await versionFiles(version)).toEqual([]);

      // A file of exactly the limit is taken whole.
      const exact = Buffer.concat([wav, Buffer.alloc(maxFileSizeBytes - wav.length, 7)]);
      const taken = await versionUpload(
        version.id,
        sound.fileId,
        form([{ path: 'catch.wav', content: exact }]),
      );
      expect(taken.statusCode, taken.body).toBe(200);
      expect(taken.json<VersionFile>().size).toBe(maxFileSizeBytes);
    });

    it('a game upload over the limit, alone or after a good file', async () => {
      const game = await newGame('Too big');
      expect((await gameUpload(game.id, form([{ path: 'keep.txt', content: 'keep' }]))).statusCode).toBe(200);
      const before = await storedFiles();
      const big = Buffer.alloc(maxFileSizeBytes + 1, 1);
      for (const files of [
        [{ path: 'data/big.bin', content: big }],
        [
          { path: 'good.js', content: 'ok()' },
          { path: 'data/big.bin', content: big },
          { path: 'after.js', content: 'after()' },
        ],
      ]) {
        const response = await gameUpload(game.id, form(files));
        expect(response.statusCode, response.body).toBe(413);
        expect(errorOf(response)).toMatchObject({ name: 'PayloadTooLargeError', code: 'FILE_TOO_LARGE' });
        expect(errorOf(response).message).toContain('data/big.bin');
        await expectStorageUnchanged(before);
      }
      expect((await filesOf(game.id)).map((f) => f.path)).toEqual(['keep.txt']);
    });

    it('a helper-file upload over the limit', async () => {
      const game = await newGame('Helpers too big');
      const before = await storedFiles();
      const response = await helperUpload(
        game.id,
        form([{ path: 'sources/hero.psd', content: Buffer.alloc(maxFileSizeBytes + 1, 2) }]),
      );
      expect(response.statusCode, response.body).toBe(413);
      expect(errorOf(response)).toMatchObject({ name: 'PayloadTooLargeError', code: 'FILE_TOO_LARGE' });
      expect(errorOf(response).message).toContain('sources/hero.psd');
      await expectStorageUnchanged(before);
      const list = await call(t, 'GET', `/api/games/${game.id}/psd-files/`, { token: admin.token });
      expect(list.json<{ files: unknown[] }>().files).toEqual([]);
    });
  });

  describe('images are decoded whole before they are accepted', () => {
    it('a truncated PNG is refused by the game upload with a clear 422', async () => {
      const game = await newGame('Truncated');
      const whole = await noisePng(120, 90);
      const before = await storedFiles();
      const response = await gameUpload(
        game.id,
        form([{ path: 'img/cut.png', content: whole.subarray(0, Math.floor(whole.length / 2)) }]),
      );
      expect(response.statusCode, response.body).toBe(422);
      expect(errorOf(response).details?.[0]).toMatchObject({
        path: '/files/img/cut.png',
        code: 'invalid_image',
      });
      expect(errorOf(response).message).toContain('img/cut.png');
      await expectStorageUnchanged(before);
      // The whole file goes in.
      expect((await gameUpload(game.id, form([{ path: 'img/cut.png', content: whole }]))).statusCode).toBe(
        200,
      );
    });

    it('a truncated PNG is refused by the version upload', async () => {
      const { version, hero } = await versionOfGame();
      const whole = await noisePng(120, 90, 2);
      const before = await storedFiles();
      const response = await versionUpload(
        version.id,
        hero.fileId,
        form([{ path: 'hero.png', content: whole.subarray(0, whole.length - 200) }]),
      );
      expect(response.statusCode, response.body).toBe(422);
      expect(errorOf(response).details?.[0]).toMatchObject({ path: '/file', code: 'invalid_image' });
      await expectStorageUnchanged(before);
      expect(await versionFiles(version)).toEqual([]);
      expect(
        (await versionUpload(version.id, hero.fileId, form([{ path: 'hero.png', content: whole }])))
          .statusCode,
      ).toBe(200);
    });
  });

  describe('over a real connection, the body arriving in pieces', () => {
    let port: number;
    beforeAll(async () => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      port = (t.app.server.address() as AddressInfo).port;
    });

    const boundary = 'ReskinStreamBoundary';
    const filePart = (name: string, path: string) =>
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="fullPath"\r\n\r\n${path}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
    const closing = Buffer.from(`\r\n--${boundary}--\r\n`);

    /**
     * Sends the body piece by piece, each written only once the previous one was taken, so the server reads
     * the file while it arrives. With `cut`, the connection is destroyed after the pieces instead of ending.
     */
    function send(
      path: string,
      token: string,
      pieces: Buffer[],
      cut = false,
    ): Promise<{ status: number; body: string } | 'cut'> {
      return new Promise((resolve, reject) => {
        const request = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path,
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': `multipart/form-data; boundary=${boundary}`,
            },
          },
          (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          },
        );
        request.on('error', (error) => (cut ? resolve('cut') : reject(error)));
        void (async () => {
          for (const piece of pieces) {
            if (!request.write(piece)) await once(request, 'drain');
          }
          if (cut) {
            request.destroy();
            resolve('cut');
          } else request.end();
        })();
      });
    }

    const chunked = (content: Buffer, size = 16 * 1024) =>
      Array.from({ length: Math.ceil(content.length / size) }, (_, i) =>
        content.subarray(i * size, (i + 1) * size),
      );

    it('a version upload over the limit is 413 and stores nothing', async () => {
      const { version, sound } = await versionOfGame();
      const before = await storedFiles();
      const big = Buffer.concat([wav, Buffer.alloc(3 * maxFileSizeBytes, 7)]);
      const answer = await send(`/api/game-version/upload/${version.id}/${sound.fileId}`, artist.token, [
        filePart('catch.wav', 'sfx/catch.wav'),
        ...chunked(big),
        closing,
      ]);
      expect(answer).toMatchObject({ status: 413 });
      expect(JSON.parse((answer as { body: string }).body).error).toMatchObject({ code: 'FILE_TOO_LARGE' });
      await expectStorageUnchanged(before);
      expect(await versionFiles(version)).toEqual([]);
    });

    it('a game upload with a file over the limit between good ones is 413 and stores nothing', async () => {
      const game = await newGame('Streamed');
      const before = await storedFiles();
      const answer = await send(`/api/game/upload/${game.id}`, admin.token, [
        filePart('a.js', 'a.js'),
        Buffer.from('a()'),
        Buffer.from('\r\n'),
        filePart('big.bin', 'data/big.bin'),
        ...chunked(Buffer.alloc(2 * maxFileSizeBytes, 3)),
        Buffer.from('\r\n'),
        filePart('b.js', 'b.js'),
        ...chunked(Buffer.alloc(maxFileSizeBytes, 4)),
        closing,
      ]);
      expect(answer).toMatchObject({ status: 413 });
      await expectStorageUnchanged(before);
      expect(await filesOf(game.id)).toEqual([]);
    });

    it('an upload whose connection breaks off inside a file stores nothing, and the server keeps serving', async () => {
      const game = await newGame('Cut off');
      const before = await storedFiles();
      const answer = await send(
        `/api/game/upload/${game.id}`,
        admin.token,
        [filePart('half.bin', 'half.bin'), ...chunked(Buffer.alloc(maxFileSizeBytes / 2, 5))],
        true,
      );
      expect(answer).toBe('cut');
      // The server notices the broken connection on its own time: wait (within the test's timeout) until the
      // request it was reading has left nothing behind, .partial files included.
      while ((await storedFiles()).join() !== before.join())
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await filesOf(game.id)).toEqual([]);
      expect(
        (await gameUpload(game.id, form([{ path: 'after.txt', content: 'still here' }]))).statusCode,
      ).toBe(200);
    });
  });

  describe('malformed multipart bodies are 400', () => {
    const boundary = 'ReskinBoundary42';
    const contentType = `multipart/form-data; boundary=${boundary}`;
    const malformed: { name: string; contentType: string; body: string }[] = [
      {
        name: 'no boundary',
        contentType: 'multipart/form-data',
        body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello\r\n--${boundary}--\r\n`,
      },
      {
        name: 'a body cut mid-part',
        contentType,
        body: `--${boundary}\r\nContent-Disposition: form-data; name="fullPath"\r\n\r\na.txt\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello, wor`,
      },
      {
        name: 'a file part without a name',
        contentType,
        body: `--${boundary}\r\nContent-Disposition: form-data; filename="a.txt"\r\n\r\nhello\r\n--${boundary}--\r\n`,
      },
      {
        name: 'a field without a name',
        contentType,
        body: `--${boundary}\r\nContent-Disposition: form-data\r\n\r\na.txt\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello\r\n--${boundary}--\r\n`,
      },
      {
        name: 'a header cut short',
        contentType,
        body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filena`,
      },
    ];

    it('on the game, helper-file and version uploads', async () => {
      const { game, version, sound } = await versionOfGame();
      const before = await storedFiles();
      const routes = [
        {
          route: 'game upload',
          send: (body: string, type: string) => gameUpload(game.id, body, { 'content-type': type }),
        },
        {
          route: 'helper upload',
          send: (body: string, type: string) => helperUpload(game.id, body, { 'content-type': type }),
        },
        {
          route: 'version upload',
          send: (body: string, type: string) =>
            versionUpload(version.id, sound.fileId, body, { 'content-type': type }),
        },
      ];
      for (const { route, send } of routes) {
        for (const c of malformed) {
          const response = await send(c.body, c.contentType);
          expect(response.statusCode, `${route}, ${c.name}: ${response.body}`).toBe(400);
          expect(errorOf(response), `${route}, ${c.name}`).toMatchObject({
            statusCode: 400,
            name: 'BadRequestError',
            code: 'MALFORMED_MULTIPART',
          });
        }
      }
      await expectStorageUnchanged(before);
      expect((await filesOf(game.id)).map((f) => f.path).sort()).toEqual([
        'img/hero.png',
        'index.html',
        'sfx/catch.wav',
      ]);
    });
  });
});
