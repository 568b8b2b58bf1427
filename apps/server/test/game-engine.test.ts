import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { RoleType, kindOfName, type Game, type GameFile, type MyGame } from '@reskin/contract';
import {
  call,
  createGame,
  createTestApp,
  createUser,
  filesForm,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';

const fixtures = fileURLToPath(new URL('./fixtures/engines', import.meta.url));

/**
 * The files of a fixture set (test/fixtures/engines), without its images: they are empty stand-ins, which the
 * upload would refuse as images. Detection never reads images.
 */
function fixtureFiles(set: string): { path: string; content: Buffer }[] {
  const folder = join(fixtures, set);
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const full = join(entry.parentPath, entry.name);
      return { path: relative(folder, full).split(sep).join('/'), content: readFileSync(full) };
    })
    .filter((file) => kindOfName(file.path) !== 'image');
}

async function zipOf(files: { path: string; content: Buffer | string }[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const file of files) zip.addBuffer(Buffer.from(file.content), file.path);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe(`a game's engine, recognised at upload on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ maxFileSizeBytes: 8 * 1024 * 1024 });
    [admin, artist] = [await createUser(t, RoleType.Admin), await createUser(t)];
  });
  afterAll(async () => t.close());

  const newGame = (name: string) =>
    createGame(t, admin.token, { name, description: 'Engine checks', width: 480, height: 640 });
  const upload = (gameId: number, files: { path: string; content: Buffer | string }[]) =>
    t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${gameId}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm(files),
    });
  const gameOf = async (gameId: number) =>
    (await call(t, 'GET', `/api/games/${gameId}`, { token: admin.token })).json<Game>();

  it('a new game has no engine; an upload of a Unity build makes it Unity, in the game and in the games list', async () => {
    const game = await newGame('Unity build');
    expect(game.engine).toBeNull();
    const uploaded = await upload(game.id, fixtureFiles('unity/unity-2020-loader'));
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect((await gameOf(game.id)).engine).toBe('Unity');

    const listed = await call(t, 'POST', '/api/games/filter', {
      token: admin.token,
      payload: { where: { engine: 'Unity' }, fields: ['id', 'name', 'engine'] },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<Partial<Game>[]>()).toEqual([{ id: game.id, name: 'Unity build', engine: 'Unity' }]);
  });

  it('recomputes when the files change: deleting the loader and the packed files leaves no engine', async () => {
    const game = await newGame('Godot build');
    expect((await upload(game.id, fixtureFiles('godot/godot3-space-invaders'))).statusCode).toBe(200);
    expect((await gameOf(game.id)).engine).toBe('Godot');
    const files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    for (const path of ['index.pck', 'index.js']) {
      const file = files.find((each) => each.path === path)!;
      expect(
        (await call(t, 'DELETE', `/api/games/${game.id}/files/${file.fileId}/`, { token: admin.token }))
          .statusCode,
      ).toBe(200);
    }
    expect((await gameOf(game.id)).engine).toBeNull();
    // Adding a library later changes it again.
    expect(
      (await upload(game.id, [{ path: 'lib/phaser.min.js', content: '/* Phaser v3.80.1 */' }])).statusCode,
    ).toBe(200);
    expect((await gameOf(game.id)).engine).toBe('Phaser');
  });

  it('recognises a zip upload (Defold) and an upload in several requests (emscripten: loader first, module later)', async () => {
    const defold = await newGame('Defold build');
    // Inside a top folder, as a zip of the export folder usually is (the server leaves that folder out).
    const zip = await zipOf(
      fixtureFiles('defold/defold-sharp-sprite').map((file) => ({
        ...file,
        path: `sharp-sprite/${file.path}`,
      })),
    );
    const form = new FormData();
    form.append('file', new Blob([zip]), 'game.zip');
    const zipped = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload-zip/${defold.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: form,
    });
    expect(zipped.statusCode, zipped.body).toBe(200);
    expect((await gameOf(defold.id)).engine).toBe('Defold');

    const emscripten = await newGame('emscripten build');
    const files = fixtureFiles('emscripten/raylib-cat-vs-roomba');
    expect(
      (
        await upload(
          emscripten.id,
          files.filter((file) => !file.path.endsWith('.wasm') && !file.path.endsWith('.data')),
        )
      ).statusCode,
    ).toBe(200);
    expect((await gameOf(emscripten.id)).engine).toBeNull();
    expect(
      (
        await upload(
          emscripten.id,
          files.filter((file) => file.path.endsWith('.wasm') || file.path.endsWith('.data')),
        )
      ).statusCode,
    ).toBe(200);
    expect((await gameOf(emscripten.id)).engine).toBe('emscripten');
  });

  it("the artist's game carries the engine (My Games), for the workbench", async () => {
    const game = await newGame('Construct build');
    expect((await upload(game.id, fixtureFiles('construct/c3-survivorslike'))).statusCode).toBe(200);
    const assigned = await call(t, 'POST', '/api/user-games', {
      token: admin.token,
      payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 1 },
    });
    expect(assigned.statusCode, assigned.body).toBe(201);
    const mine = (await call(t, 'GET', '/api/user-games/my-games', { token: artist.token })).json<MyGame[]>();
    expect(mine.find((each) => each.gameId === game.id)?.game.engine).toBe('Construct');
  });

  it('bad input: a huge binary script and names with odd characters upload fine and leave no engine, never a 5xx', async () => {
    const game = await newGame('Odd files');
    const binary = Buffer.alloc(6 * 1024 * 1024);
    for (let i = 0; i < binary.length; i++) binary[i] = (i * 131 + (i >> 7)) & 0xff;
    const uploaded = await upload(game.id, [
      { path: 'index.html', content: '<canvas></canvas>' },
      { path: 'js/huge.js', content: binary },
      { path: 'js/ünïcødé 🎮 [v2]{x}$&;.js', content: Buffer.from([0xff, 0xfe, 0, 1, 2]) },
      { path: 'data/%2e%2e;name with spaces.pck', content: 'NOT A PACK' },
      { path: 'empty.js', content: '' },
      { path: 'game.wasm', content: 'not wasm at all' },
    ]);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect((await gameOf(game.id)).engine).toBeNull();
  });
});
