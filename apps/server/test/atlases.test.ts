import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameStatus, RoleType, limits, type Game, type GameAtlases, type GameFile } from '@reskin/contract';
import { nowIso } from '../src/db/database';
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
import { solidPng } from './support/image-samples';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/atlases/${name}`, import.meta.url));

describe(`GET /api/games/{id}/atlases on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let game: Game;

  const upload = async (files: { path: string; content: Buffer | string }[]) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm(files),
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const atlases = async (token = admin.token) => {
    const response = await call(t, 'GET', `/api/games/${game.id}/atlases`, { token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<GameAtlases>();
  };

  beforeAll(async () => {
    t = await createTestApp();
    [admin, artist] = [await createUser(t, RoleType.Admin), await createUser(t)];
    game = await createGame(t, admin.token, { name: 'Sheets', description: 'x', width: 480, height: 640 });
    const now = nowIso();
    await t.database.db
      .insertInto('userGames')
      .values({
        userId: artist.id,
        gameId: game.id,
        userGameTypeId: 1,
        jobPrice: 1,
        isActive: 1,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    await upload([
      { path: 'index.html', content: '<!doctype html><p>sheets</p>' },
      // Real descriptors beside sheets of their declared size, in folders as a game keeps them.
      { path: 'img/animals.json', content: fixture('hexi-animals.json') },
      { path: 'img/animals.png', content: await solidPng(200, 68) },
      { path: 'ui/atlas.xml', content: fixture('starling-demo-atlas.xml') },
      { path: 'ui/atlas.png', content: await solidPng(788, 788) },
      // A libGDX atlas saved as .txt, its page one folder up: recognised by content, resolved relative to it.
      {
        path: 'spine/boy/spineboy.txt',
        content: fixture('libgdx-spineboy-old.atlas')
          .toString('utf8')
          .replace('spineboy-old-diffuse.png', '../spineboy.png'),
      },
      { path: 'spine/spineboy.png', content: await solidPng(512, 128) },
      // Descriptors that cannot be used.
      {
        path: 'bad/broken.json',
        content: '{"frames": {"a": {"frame": {"x":0,"y":0,"w":1,"h":1}}}, "meta": {"image": "a.png"',
      },
      {
        path: 'bad/missing.json',
        content: JSON.stringify({
          frames: { a: { frame: { x: 0, y: 0, w: 4, h: 4 } } },
          meta: { image: 'nowhere.png' },
        }),
      },
      {
        path: 'bad/escape.json',
        content: JSON.stringify({
          frames: { a: { frame: { x: 0, y: 0, w: 4, h: 4 } } },
          meta: { image: '../../secret.png' },
        }),
      },
      {
        path: 'bad/outside.json',
        content: JSON.stringify({
          frames: { a: { frame: { x: 60, y: 60, w: 8, h: 8 } } },
          meta: { image: 'small.png' },
        }),
      },
      { path: 'bad/small.png', content: await solidPng(64, 64) },
      // Files that are no descriptor at all.
      { path: 'data/level1.json', content: JSON.stringify({ tiles: [1, 2, 3] }) },
      { path: 'main.js', content: 'console.log("frames")' },
    ]);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers each recognised sheet with its format, pages (as game files) and frames', async () => {
    const { atlases: found } = await atlases();
    const byDescriptor = new Map(found.map((atlas) => [atlas.descriptor, atlas]));
    expect([...byDescriptor.keys()].sort()).toEqual([
      'img/animals.json',
      'spine/boy/spineboy.txt',
      'ui/atlas.xml',
    ]);
    expect(byDescriptor.get('img/animals.json')).toMatchObject({
      format: 'texturepacker-hash',
      pages: [{ image: 'img/animals.png', width: 200, height: 68 }],
    });
    expect(byDescriptor.get('img/animals.json')!.frames.map((frame) => frame.name)).toEqual([
      'cat.png',
      'hedgehog.png',
      'tiger.png',
    ]);
    expect(byDescriptor.get('ui/atlas.xml')).toMatchObject({
      format: 'starling',
      pages: [{ image: 'ui/atlas.png' }],
    });
    expect(byDescriptor.get('ui/atlas.xml')!.frames).toHaveLength(23);
    expect(byDescriptor.get('spine/boy/spineboy.txt')).toMatchObject({
      format: 'libgdx',
      pages: [{ image: 'spine/spineboy.png', width: 512, height: 128 }],
    });
  });

  it('lists the descriptors that failed, with why, and leaves other files alone', async () => {
    const { problems } = await atlases();
    const why = Object.fromEntries(problems.map((problem) => [problem.path, problem.problem]));
    expect(Object.keys(why).sort()).toEqual([
      'bad/broken.json',
      'bad/escape.json',
      'bad/missing.json',
      'bad/outside.json',
    ]);
    expect(why['bad/broken.json']).toMatch(/not valid JSON/);
    expect(why['bad/missing.json']).toBe('Its image bad/nowhere.png is not in the game.');
    expect(why['bad/escape.json']).toMatch(/outside the game/);
    expect(why['bad/outside.json']).toMatch(/lies outside bad\/small.png \(64×64\)/);
  });

  it("answers the game's assigned artist the same, and follows a change of the game's files", async () => {
    expect((await atlases(artist.token)).atlases).toHaveLength(3);
    await upload([{ path: 'bad/nowhere.png', content: await solidPng(16, 16) }]);
    const after = await atlases(artist.token);
    expect(after.atlases.map((atlas) => atlas.descriptor)).toContain('bad/missing.json');
    expect(after.problems.map((problem) => problem.path)).not.toContain('bad/missing.json');
  });

  it('answers hostile descriptors as problem lines, never a 500, and the game still generates (Gen. -> Ready)', async () => {
    const hostile = await createGame(t, admin.token, {
      name: 'Hostile sheets',
      description: 'x',
      width: 480,
      height: 640,
    });
    const deepPlist = `<plist><dict><key>frames</key>${'<array>'.repeat(30_000)}${'</array>'.repeat(30_000)}</dict></plist>`;
    const deepStarling = `<TextureAtlas imagePath="s.png">${'<g>'.repeat(30_000)}${'</g>'.repeat(30_000)}</TextureAtlas>`;
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${hostile.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html><p>hostile</p>' },
        { path: 's.png', content: await solidPng(16, 16) },
        {
          path: 'pivot.xml',
          content:
            '<TextureAtlas imagePath="s.png"><SubTexture name="a" x="0" y="0" width="8" height="8" pivotX="abc" pivotY="0.5"/></TextureAtlas>',
        },
        {
          path: 'pivot.json',
          content:
            '{"frames": {"b": {"frame": {"x": 8, "y": 0, "w": 8, "h": 8}, "pivot": {"x": 1e999, "y": 0.5}}}, "meta": {"image": "s.png"}}',
        },
        { path: 'deep.plist', content: deepPlist },
        { path: 'deep.xml', content: deepStarling },
      ]),
    });
    expect(sent.statusCode, sent.body).toBe(200);

    const response = await call(t, 'GET', `/api/games/${hostile.id}/atlases`, { token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    const found = response.json<GameAtlases>();
    // The sheets with an unreadable pivot are used, their frames without a pivot; the deep ones are not.
    expect(
      found.atlases.map((atlas) => [atlas.descriptor, atlas.frames.map((frame) => frame.pivot)]).sort(),
    ).toEqual([
      ['pivot.json', [null]],
      ['pivot.xml', [null]],
    ]);
    const nested = `It nests elements more than ${limits.atlas.maxDepth} deep.`;
    expect(
      found.problems
        .map(({ path, problem, used }) => ({ path, problem, used }))
        .sort((a, b) => a.path.localeCompare(b.path)),
    ).toEqual([
      { path: 'deep.plist', problem: nested, used: false },
      { path: 'deep.xml', problem: nested, used: false },
      {
        path: 'pivot.json',
        problem: 'Frame "b": the pivot is not a pair of finite numbers, so it is read without a pivot.',
        used: true,
      },
      {
        path: 'pivot.xml',
        problem: 'Frame "a": the pivot is not a pair of finite numbers, so it is read without a pivot.',
        used: true,
      },
    ]);

    // Generation reads the same descriptors (the watermark marks each frame of a sheet): it ends Ready.
    const files = (await call(t, 'GET', `/api/games/${hostile.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    const index = files.find((file) => file.path === 'index.html')!;
    expect(
      (await call(t, 'PATCH', `/api/games/${hostile.id}/files/${index.fileId}/index`, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call(t, 'GET', `/api/games/${hostile.id}/generate`, { token: admin.token })).statusCode,
    ).toBe(200);
    let status: Game | undefined;
    for (let i = 0; i < 200; i++) {
      status = (await call(t, 'GET', `/api/games/${hostile.id}`, { token: admin.token })).json<Game>();
      if (status.gameStatusTypeId !== GameStatus.Generating) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toMatchObject({ gameStatusTypeId: GameStatus.Ready, statusReason: null });
  });

  it('is 404 for an unknown game and for a game not assigned to the artist', async () => {
    const other = await createUser(t);
    expect((await call(t, 'GET', `/api/games/${game.id}/atlases`, { token: other.token })).statusCode).toBe(
      404,
    );
    expect((await call(t, 'GET', '/api/games/999999/atlases', { token: admin.token })).statusCode).toBe(404);
  });
});
