import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { RoleType, errorCodes, limits, type Game, type GameFile } from '@reskin/contract';
import { sampleGame } from '../src/seed/seed';
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

/** Every file of a folder as [path relative to the folder, bytes], sorted by path. */
function folderFiles(folder: string): [string, Buffer][] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry): [string, Buffer] => {
      const full = join(entry.parentPath, entry.name);
      return [relative(folder, full).split(sep).join('/'), readFileSync(full)];
    })
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

/** A zip made by yazl: files (deflated), and folders given as names ending in '/'. */
async function zipOf(entries: [string, Buffer | string][]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, content] of entries) {
    if (name.endsWith('/')) zip.addEmptyDirectory(name);
    else zip.addBuffer(Buffer.from(content), name);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The zip with every occurrence of one entry name (local header and central directory) swapped for another of the same length. */
function renamed(zip: Buffer, from: string, to: string): Buffer {
  expect(to.length).toBe(from.length);
  const out = Buffer.from(zip);
  let at = out.indexOf(from);
  expect(at).toBeGreaterThan(-1);
  while (at !== -1) {
    out.write(to, at, 'latin1');
    at = out.indexOf(from, at + 1);
  }
  return out;
}

describe(`zip upload of a game folder on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
  });
  afterAll(async () => t.close());

  const newGame = (name = 'Zipped'): Promise<Game> =>
    createGame(t, admin.token, { name, description: 'From a zip', width: 640, height: 480 });

  function uploadZip(gameId: number, zip: Buffer, token = admin.token) {
    const body = new FormData();
    body.append('file', new Blob([zip]), 'game.zip');
    return t.app.inject({
      method: 'POST',
      url: `/api/game/upload-zip/${gameId}`,
      headers: { authorization: `Bearer ${token}` },
      payload: body,
    });
  }

  function uploadFolder(gameId: number, files: [string, Buffer][]) {
    return t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${gameId}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm(files.map(([path, content]) => ({ path, content }))),
    });
  }

  async function filesOf(gameId: number): Promise<GameFile[]> {
    const response = await call(t, 'GET', `/api/games/${gameId}/files`, { token: admin.token });
    expect(response.statusCode).toBe(200);
    return response.json<GameFile[]>();
  }

  /** Each file of the game as path -> sha256 of its stored object. */
  async function storedContent(gameId: number): Promise<Record<string, string>> {
    const rows = await t.database.db
      .selectFrom('gameFiles')
      .select(['path', 'storageKey'])
      .where('gameId', '=', gameId)
      .execute();
    return Object.fromEntries(
      rows.map((row) => [
        row.path,
        createHash('sha256')
          .update(readFileSync(join(t.config.dataDir, 'files', row.storageKey)))
          .digest('hex'),
      ]),
    );
  }

  /** Every object in the files dir (the local storage), temporary writes included. */
  const storedObjects = () => storedKeys(t);

  it('[GF-1] decision 0052: dotfiles, dot-folders and system junk are skipped by the zip and the folder route; the top folder is kept where the game has it', async () => {
    const game = await newGame('Path Rule');
    const zip = await zipOf([
      ['mygame/index.html', '<!doctype html>'],
      ['mygame/js/app.js', 'var a;'],
      ['mygame/.gitignore', 'node_modules'],
      ['mygame/.git/HEAD', 'ref: refs/heads/main'],
      ['mygame/.git/objects/ab/cdef', 'blob'],
      ['mygame/img/Thumbs.db', 'junk'],
      ['mygame/.idea/workspace.xml', '<x/>'],
    ]);
    const first = await uploadZip(game.id, zip);
    expect(first.statusCode, first.body).toBe(200);
    expect((await filesOf(game.id)).map((f) => f.path).sort()).toEqual(['index.html', 'js/app.js']);

    // The folder route skips them too (an API client sending a whole checkout).
    const folder = await uploadFolder(game.id, [
      ['css/site.css', Buffer.from('body{}')],
      ['.DS_Store', Buffer.from('junk')],
      ['css/.hidden/x.css', Buffer.from('x')],
      ['__MACOSX/._site.css', Buffer.from('fork')],
      ['desktop.ini', Buffer.from('[x]')],
    ]);
    expect(folder.statusCode, folder.body).toBe(200);
    expect(folder.json<{ file: GameFile }[]>().map((r) => r.file.path)).toEqual(['css/site.css']);

    // A zip of the game's own top folder (css/) keeps it: it is a part of the game's tree, not a wrapper.
    const part = await uploadZip(
      game.id,
      await zipOf([
        ['css/site.css', 'body{color:red}'],
        ['css/print.css', '@media print{}'],
      ]),
    );
    expect(part.statusCode, part.body).toBe(200);
    expect(
      part
        .json<{ file: GameFile; replaced: boolean }[]>()
        .map((r) => [r.file.path, r.replaced])
        .sort(),
    ).toEqual([
      ['css/print.css', false],
      ['css/site.css', true],
    ]);
    // Exactly that folder: another case is another folder, stripped as the wrapper it is.
    const other = await uploadZip(game.id, await zipOf([['CSS/extra.css', 'a{}']]));
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json<{ file: GameFile }[]>().map((r) => r.file.path)).toEqual(['extra.css']);
  });

  it('[GF-1] a zip of the sample game in its top folder unpacks to the same files as a folder upload, index marked', async () => {
    const files = folderFiles(sampleGame.folder);
    const zip = await zipOf([
      ['star-catcher/', ''],
      ...files.map(([path, content]): [string, Buffer] => [`star-catcher/${path}`, content]),
      ['__MACOSX/star-catcher/._index.html', 'resource fork'],
      ['star-catcher/assets/.DS_Store', 'finder junk'],
    ]);
    const zipped = await newGame('Zipped Star Catcher');
    const response = await uploadZip(zipped.id, zip);
    expect(response.statusCode, response.body).toBe(200);
    const results = response.json<{ file: GameFile; replaced: boolean }[]>();
    expect(results.map((r) => r.file.path).sort()).toEqual(files.map(([path]) => path));
    expect(results.find((r) => r.file.path === 'game/index.html')?.file.isStartFile).toBe(true);

    const folder = await newGame('Folder Star Catcher');
    expect((await uploadFolder(folder.id, files)).statusCode).toBe(200);

    const comparable = (list: GameFile[]) =>
      list.map(({ path, size, width, height, contentType, isStartFile, isSplash }) => ({
        path,
        size,
        width,
        height,
        contentType,
        isStartFile,
        isSplash,
      }));
    const zippedFiles = await filesOf(zipped.id);
    expect(comparable(zippedFiles)).toEqual(comparable(await filesOf(folder.id)));
    expect(await storedContent(zipped.id)).toEqual(await storedContent(folder.id));
    // The index is marked by the upload itself; no splash is guessed.
    expect(zippedFiles.filter((f) => f.isStartFile).map((f) => f.path)).toEqual(['game/index.html']);
    expect(zippedFiles.some((f) => f.isSplash)).toBe(false);
    expect(
      (await call(t, 'GET', `/api/games/${zipped.id}`, { token: admin.token })).json<Game>().imagePath,
    ).toBe('');

    // A second zip replaces the files it holds, keeping their fileIds, and leaves the index alone.
    const again = await uploadZip(
      zipped.id,
      await zipOf([
        ['main.js', 'console.log(2)'],
        ['index.html', '<p>other</p>'],
      ]),
    );
    expect(again.statusCode, again.body).toBe(200);
    expect((await filesOf(zipped.id)).filter((f) => f.isStartFile).map((f) => f.path)).toEqual([
      'game/index.html',
    ]);
  });

  it('gives the admin the original view of a Draft game for thumbnails (GET /games/{id}/files-root)', async () => {
    const game = await newGame('Thumbnails');
    const splash = readFileSync(join(sampleGame.folder, 'assets/img/splash.png'));
    expect(
      (
        await uploadZip(
          game.id,
          await zipOf([
            ['index.html', '<p>hi</p>'],
            ['img/my splash.png', splash],
          ]),
        )
      ).statusCode,
    ).toBe(200);
    const root = await call(t, 'GET', `/api/games/${game.id}/files-root`, { token: admin.token });
    expect(root.statusCode, root.body).toBe(200);
    const { rootPath } = root.json<{ rootPath: string }>();
    expect(rootPath.startsWith(`${t.config.playOrigin}/p/`)).toBe(true);
    const image = await t.playApp.inject({
      method: 'GET',
      url: new URL(`${rootPath}img/my%20splash.png`).pathname,
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(splash)).toBe(true);

    const user = await createUser(t, RoleType.User);
    expect((await call(t, 'GET', `/api/games/${game.id}/files-root`, { token: user.token })).statusCode).toBe(
      403,
    );
    expect((await call(t, 'GET', '/api/games/999999/files-root', { token: admin.token })).statusCode).toBe(
      404,
    );
  });

  it('keeps a top folder that not every entry shares', async () => {
    const game = await newGame();
    const response = await uploadZip(
      game.id,
      await zipOf([
        ['game/index.html', '<p>hi</p>'],
        ['readme.txt', 'read me'],
      ]),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect((await filesOf(game.id)).map((f) => [f.path, f.isStartFile])).toEqual([
      ['game/index.html', true],
      ['readme.txt', false],
    ]);
  });

  it('refuses ../ and absolute entries, over 1000 files, a zip bomb and a corrupt zip with a 4xx, storing nothing', async () => {
    const game = await newGame('Refusals');
    expect((await uploadZip(game.id, await zipOf([['keep.js', 'kept']]))).statusCode).toBe(200);
    const before = storedObjects();
    expect(before.filter((path) => path.includes(`games/${game.id}/`))).toHaveLength(1);

    const good: [string, string][] = [
      ['index.html', '<p>ok</p>'],
      ['js/app.js', 'ok()'],
    ];
    const zeros = Buffer.alloc(20 * 1024 * 1024);
    const bomb = await zipOf([...good, ['bomb.bin', zeros]]);
    // The same bomb, but its central directory claims 100 kB: only counting the inflated bytes catches it.
    const liar = Buffer.from(bomb);
    const central = liar.lastIndexOf(Buffer.from('bomb.bin')) - 46;
    expect(liar.readUInt32LE(central)).toBe(0x02014b50);
    liar.writeUInt32LE(100_000, central + 24);
    const sample = await zipOf(good);

    const cases: { name: string; zip: Buffer; status: number; code?: string }[] = [
      {
        name: '../ entry',
        zip: renamed(await zipOf([...good, ['zz/evil.js', 'x']]), 'zz/evil.js', '../evil.js'),
        status: 422,
      },
      {
        name: 'absolute entry',
        zip: renamed(await zipOf([...good, ['_etc/passwd', 'x']]), '_etc/passwd', '/etc/passwd'),
        status: 422,
      },
      {
        name: 'over 1000 files',
        zip: await zipOf(
          Array.from({ length: limits.adminUploadFiles + 1 }, (_, i): [string, string] => [
            `f/${i}.txt`,
            `${i}`,
          ]),
        ),
        status: 413,
        code: errorCodes.tooManyFiles,
      },
      { name: 'zip bomb (ratio)', zip: bomb, status: 413, code: errorCodes.zipBomb },
      { name: 'zip bomb (lying sizes)', zip: liar, status: 422, code: errorCodes.invalidZip },
      {
        name: 'not a zip',
        zip: Buffer.from('this is not a zip file at all'),
        status: 422,
        code: errorCodes.invalidZip,
      },
      {
        name: 'cut short',
        zip: sample.subarray(0, sample.length - 30),
        status: 422,
        code: errorCodes.invalidZip,
      },
      {
        name: 'a file the folder upload refuses',
        zip: await zipOf([...good, ['fake.png', 'just text']]),
        status: 422,
      },
    ];
    for (const c of cases) {
      const response = await uploadZip(game.id, c.zip);
      expect(response.statusCode, `${c.name}: ${response.body}`).toBe(c.status);
      const error = errorOf(response);
      expect(error.details?.[0]?.message, c.name).toBeTruthy();
      if (c.code) expect(error.code, c.name).toBe(c.code);
      expect(storedObjects(), c.name).toEqual(before);
      expect(
        (await filesOf(game.id)).map((f) => f.path),
        c.name,
      ).toEqual(['keep.js']);
    }
  });

  it('is for administrators, needs a file part, and answers 404 for an unknown game', async () => {
    const game = await newGame();
    const zip = await zipOf([['index.html', 'x']]);
    const user = await createUser(t, RoleType.User);
    expect((await uploadZip(game.id, zip, user.token)).statusCode).toBe(403);
    expect((await uploadZip(999_999, zip)).statusCode).toBe(404);
    const empty = new FormData();
    empty.append('note', 'no file');
    const none = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload-zip/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: empty,
    });
    expect(none.statusCode).toBe(422);
    expect(await filesOf(game.id)).toEqual([]);
  });

  it('marks an index after any upload when the game has none: the shallowest index.html, else the only .html', async () => {
    const game = await newGame();
    expect(
      (
        await uploadFolder(game.id, [
          ['a/b/index.html', Buffer.from('deep')],
          ['a/index.html', Buffer.from('shallow')],
        ])
      ).statusCode,
    ).toBe(200);
    expect((await filesOf(game.id)).filter((f) => f.isStartFile).map((f) => f.path)).toEqual([
      'a/index.html',
    ]);
    // A shallower index.html uploaded later does not move a marked index.
    expect((await uploadFolder(game.id, [['index.html', Buffer.from('top')]])).statusCode).toBe(200);
    expect((await filesOf(game.id)).filter((f) => f.isStartFile).map((f) => f.path)).toEqual([
      'a/index.html',
    ]);

    const single = await newGame();
    expect(
      (
        await uploadFolder(single.id, [
          ['play.html', Buffer.from('p')],
          ['main.js', Buffer.from('m')],
        ])
      ).statusCode,
    ).toBe(200);
    expect((await filesOf(single.id)).filter((f) => f.isStartFile).map((f) => f.path)).toEqual(['play.html']);

    const unclear = await newGame();
    expect(
      (
        await uploadFolder(unclear.id, [
          ['a.html', Buffer.from('a')],
          ['b.html', Buffer.from('b')],
        ])
      ).statusCode,
    ).toBe(200);
    expect((await filesOf(unclear.id)).some((f) => f.isStartFile)).toBe(false);
  });
});
