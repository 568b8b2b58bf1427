import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleType, batchMessages, limits, type Game } from '@reskin/contract';
import {
  call,
  createGame,
  createTestApp,
  createUser,
  storedKeys,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';

/** The per-file limit of this suite: small, so the routes' bounds are easy to pass. */
const maxFileSizeBytes = 100 * 1024;
const boundary = 'ReskinDeclaredBoundary';

interface Answer {
  status: number;
  connection: string | undefined;
  error: { code: string; message: string };
}

describe(`uploads refused by their declared length on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let game: Game;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ maxFileSizeBytes });
    admin = await createUser(t, RoleType.Admin);
    artist = await createUser(t, RoleType.User);
    game = await createGame(t, admin.token, {
      name: 'Declared',
      description: 'Big bodies',
      width: 640,
      height: 480,
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t.close());

  /**
   * Sends only the request's headers (and the opening of a multipart body) declaring `contentLength` bytes, and
   * waits for the answer: one that comes is an answer given before the body was sent.
   */
  function sendHeadersOnly(path: string, token: string, contentLength: number): Promise<Answer> {
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
            'content-length': String(contentLength),
          },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
          response.on('end', () => {
            request.destroy();
            resolve({
              status: response.statusCode ?? 0,
              connection: response.headers.connection,
              error: (JSON.parse(body) as { error: Answer['error'] }).error,
            });
          });
        },
      );
      request.on('error', reject);
      request.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.zip"\r\n\r\n`,
      );
    });
  }

  const perFile = maxFileSizeBytes + 1024 * 1024;
  const cases: {
    route: string;
    path: () => string;
    token: () => string;
    declared: number;
    code: string;
    message: string;
  }[] = [
    {
      route: 'the game zip upload',
      path: () => `/api/game/upload-zip/${game.id}`,
      token: () => admin.token,
      declared: limits.zipUpload.maxZipBytes + 10 * 1024 * 1024,
      code: 'FILE_TOO_LARGE',
      message: 'The .zip is larger than the 1 GB limit per file.',
    },
    {
      route: 'the game folder upload',
      path: () => `/api/game/upload/${game.id}`,
      token: () => admin.token,
      declared: limits.adminUploadFiles * perFile,
      code: 'FILE_TOO_LARGE',
      message: `The upload is larger than ${limits.adminUploadFiles} files of 100 KB each.`,
    },
    {
      route: 'the helper files upload',
      path: () => `/api/games/${game.id}/psd-files`,
      token: () => admin.token,
      declared: limits.adminUploadFiles * perFile,
      code: 'FILE_TOO_LARGE',
      message: `The upload is larger than ${limits.adminUploadFiles} files of 100 KB each.`,
    },
    {
      route: 'the version file upload',
      path: () => '/api/game-version/upload/1/1',
      token: () => artist.token,
      declared: perFile,
      code: 'FILE_TOO_LARGE',
      message: 'A file is larger than the 100 KB limit per file.',
    },
    {
      route: 'the frame upload',
      path: () => '/api/game-version/upload-frame/1/1',
      token: () => artist.token,
      declared: perFile,
      code: 'FILE_TOO_LARGE',
      message: 'A file is larger than the 100 KB limit per file.',
    },
    {
      route: 'the fit preview',
      path: () => '/api/game-versions/1/files/1/fit-preview?fit=cover',
      token: () => artist.token,
      declared: perFile,
      code: 'FILE_TOO_LARGE',
      message: 'A file is larger than the 100 KB limit per file.',
    },
    {
      route: 'the batch',
      path: () => '/api/game-versions/1/batch',
      token: () => artist.token,
      declared: limits.versionBatch.maxBytes + 100 * 1024 * 1024,
      code: 'ZIP_BOMB',
      message: batchMessages.tooLarge,
    },
  ];

  for (const c of cases) {
    it(`${c.route} declaring more than it can ever accept is answered 413 before the body is sent, nothing stored`, async () => {
      const before = storedKeys(t);
      const answer = await sendHeadersOnly(c.path(), c.token(), c.declared);
      expect(answer).toEqual({
        status: 413,
        connection: 'close',
        error: expect.objectContaining({ code: c.code, message: c.message }),
      });
      expect(storedKeys(t)).toEqual(before);
    });
  }

  it('the access check still comes first: an anonymous oversized upload is 401', async () => {
    const answer = await sendHeadersOnly(
      `/api/game/upload-zip/${game.id}`,
      'not-a-token',
      limits.zipUpload.maxZipBytes * 2,
    );
    expect(answer.status).toBe(401);
  });

  it('a body within the bounds is read as before', async () => {
    const body = new FormData();
    body.append('fullPath', 'index.html');
    body.append('file', new Blob(['<!doctype html><title>Game</title>']), 'index.html');
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: body,
    });
    expect(response.statusCode).toBe(200);
    const files = await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token });
    expect(files.json<{ path: string }[]>().map((file) => file.path)).toEqual(['index.html']);
  });
});
