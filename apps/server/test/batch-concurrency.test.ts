import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleType, type BatchAnswer, type GameFile, type GameVersion, type UserGame } from '@reskin/contract';
import { rowsPerTransaction } from '../src/modules/versions/version-batch.service';
import {
  call,
  createGame,
  createTestApp,
  createUser,
  filesForm,
  storedKeys,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { solidPng } from './support/image-samples';

/** More files than one group lands in one transaction, so every batch below lands in two groups. */
const images = rowsPerTransaction + 20;
const side = 8;
const pathOf = (i: number) => `img/${i}.png`;

/** The batch's multipart body: every image of the game in one colour, each under its path. */
async function batchOf(colour: string): Promise<FormData> {
  const content = await solidPng(side, side, colour);
  const body = new FormData();
  for (let i = 0; i < images; i++) {
    body.append('path', pathOf(i));
    body.append('file', new Blob([content]), `${i}.png`);
  }
  return body;
}

/**
 * A batch lands its whole images in groups, one transaction each, after storing them ahead (decision 0060); the
 * single upload and other batches replace the same files meanwhile. Run at once, every request is answered, each
 * file is one version file whose stored object exists and is one of the replacements, its newest history entry is
 * that object's copy, and nothing stored is left without a row.
 */
describe(`batches and uploads of one version at once on ${testDb}`, () => {
  let t: TestApp;
  let artist: TestUser;
  let version: GameVersion;
  const fileIds: number[] = [];

  const batch = (body: FormData) =>
    t.app.inject({
      method: 'POST',
      url: `/api/game-versions/${version.id}/batch`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: body,
    });
  const upload = async (fileId: number, colour: string) => {
    const body = new FormData();
    body.append('file', new Blob([await solidPng(side, side, colour)]), 'one.png');
    return t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${version.id}/${fileId}`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: body,
    });
  };
  const versionFiles = () =>
    t.database.db
      .selectFrom('versionFiles')
      .select(['fileId', 'storageKey'])
      .where('gameVersionId', '=', version.id)
      .execute();
  const history = () =>
    t.database.db
      .selectFrom('versionFileHistory')
      .select(['id', 'fileId', 'storageKey', 'fileKey'])
      .where('versionId', '=', version.id)
      .orderBy('id')
      .execute();
  const colourOf = async (key: string) => {
    const { data } = await sharp(readFileSync(join(t.config.dataDir, 'files', key)))
      .raw()
      .toBuffer({ resolveWithObject: true });
    return [data[0], data[1], data[2]].join(',');
  };

  /** The state every test ends in; answers how many history entries each file has. */
  async function expectConsistent(colours: string[]): Promise<Map<number, number>> {
    const files = await versionFiles();
    expect(files.map((file) => file.fileId).sort((a, b) => a - b)).toEqual(fileIds);
    const entries = await history();
    const newest = new Map(entries.map((entry) => [entry.fileId, entry]));
    for (const file of files) {
      expect(colours).toContain(await colourOf(file.storageKey));
      expect(newest.get(file.fileId)?.fileKey).toBe(file.storageKey);
    }
    // Nothing stored without a row, no row without its object.
    const keys = storedKeys(t);
    expect(keys.filter((key) => key.startsWith(`versions/${version.id}/`))).toEqual(
      files.map((file) => file.storageKey).sort(),
    );
    expect(keys.filter((key) => key.startsWith(`history/${version.id}/`))).toEqual(
      entries.map((entry) => entry.storageKey).sort(),
    );
    const counts = new Map<number, number>();
    for (const entry of entries) counts.set(entry.fileId, (counts.get(entry.fileId) ?? 0) + 1);
    return counts;
  }

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await createUser(t, RoleType.Admin);
    artist = await createUser(t);
    const game = await createGame(t, admin.token, {
      name: 'Racing',
      description: 'x',
      width: 480,
      height: 640,
    });
    const original = await solidPng(side, side, 'white');
    const uploaded = await call(t, 'POST', `/api/game/upload/${game.id}`, {
      token: admin.token,
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html><p>racing</p>' },
        ...Array.from({ length: images }, (_, i) => ({ path: pathOf(i), content: original })),
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    fileIds.push(...files.filter((file) => file.path !== 'index.html').map((file) => file.fileId));
    fileIds.sort((a, b) => a - b);
    const userGame = (
      await call(t, 'POST', '/api/user-games', {
        token: admin.token,
        payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 1 },
      })
    ).json<UserGame>();
    const created = await call(t, 'POST', '/api/game-versions', {
      token: artist.token,
      payload: { name: 'Racing look', description: 'A new look', gameId: game.id, userGamesId: userGame.id },
    });
    expect(created.statusCode, created.body).toBe(201);
    version = created.json<GameVersion>();
  });
  afterAll(async () => t?.close());

  it('two batches of the same files at once: both land every row, each file is one of them, with two entries', async () => {
    const [red, blue] = await Promise.all([batch(await batchOf('red')), batch(await batchOf('blue'))]);
    for (const response of [red, blue]) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<BatchAnswer>().summary).toMatchObject({ replaced: images, failed: 0 });
    }
    const counts = await expectConsistent(['255,0,0', '0,0,255']);
    expect(fileIds.map((fileId) => counts.get(fileId))).toEqual(fileIds.map(() => 2));
  });

  it('a batch while single uploads of some of its files land: every request stores, nothing is lost', async () => {
    const before = new Map((await history()).map((entry) => [entry.fileId, 0]));
    for (const entry of await history()) before.set(entry.fileId, before.get(entry.fileId)! + 1);
    const singles = fileIds.filter((_, i) => i % 25 === 0);
    const [green, ...uploads] = await Promise.all([
      batch(await batchOf('green')),
      ...singles.map((fileId) => upload(fileId, 'yellow')),
    ]);
    expect(green!.statusCode, green!.body).toBe(200);
    expect(green!.json<BatchAnswer>().summary).toMatchObject({ replaced: images, failed: 0 });
    for (const response of uploads) expect(response.statusCode, response.body).toBe(200);
    const counts = await expectConsistent(['0,128,0', '255,255,0']);
    for (const fileId of fileIds) {
      const added = singles.includes(fileId) ? 2 : 1;
      expect(counts.get(fileId)).toBe(before.get(fileId)! + added);
    }
  });
});
