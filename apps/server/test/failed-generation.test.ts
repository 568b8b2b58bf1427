import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GameStatus,
  RoleType,
  gameReadinessMessages,
  generationFailureMessage,
  type Game,
  type GameFile,
  type GameVersion,
  type Inbox,
  type MyGame,
  type UserGame,
} from '@reskin/contract';
import {
  call,
  createTestApp,
  createUser,
  errorOf,
  filesForm,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { solidPng } from './support/image-samples';

/**
 * Decision 0052: a failed generation says why in words (never the image library's message), tells every active
 * administrator in their inbox, and tells the artist that the game could not be prepared (not that it is being
 * prepared); Gen. after the fix makes it Ready.
 */
describe(`decision 0052: a failed generation on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let admin2: TestUser;
  let suspended: TestUser;
  let artist: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
    admin2 = await createUser(t, RoleType.Admin);
    suspended = await createUser(t, RoleType.Admin);
    await t.database.db.updateTable('users').set({ activated: 0 }).where('id', '=', suspended.id).execute();
    artist = await createUser(t);
  });
  afterAll(async () => t?.close());

  const inboxOf = async (user: TestUser) =>
    (await call(t, 'GET', '/api/inbox', { token: user.token })).json<Inbox>();
  const gameOf = async (id: number) =>
    (await call(t, 'GET', `/api/games/${id}`, { token: admin.token })).json<Game>();
  const generate = async (id: number) => {
    const pressed = await call(t, 'GET', `/api/games/${id}/generate`, { token: admin.token });
    expect(pressed.statusCode, pressed.body).toBe(200);
    await t.generation.idle();
    return gameOf(id);
  };

  it('[GAM-4] a damaged image fails Gen. with a reason in words, every active admin is told, the artist reads it could not be prepared; Gen. after the fix makes it Ready', async () => {
    const created = await call(t, 'POST', '/api/games', {
      token: admin.token,
      payload: { name: 'Broken Art', description: 'd', width: 480, height: 640 },
    });
    const game = created.json<Game>();
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html><p>hi' },
        { path: 'img/hero.png', content: await solidPng(8, 8, 'red') },
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const hero = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token }))
      .json<GameFile[]>()
      .find((file) => file.path === 'img/hero.png')!;
    // The stored bytes go bad after the upload's checks (a disk fault, a file changed behind the app's back).
    const row = await t.database.db
      .selectFrom('gameFiles')
      .select('storageKey')
      .where('id', '=', hero.id)
      .executeTakeFirstOrThrow();
    writeFileSync(join(t.config.dataDir, 'files', ...row.storageKey.split('/')), 'not a png at all');
    const assigned = await call(t, 'POST', '/api/user-games', {
      token: admin.token,
      payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 10 },
    });
    expect(assigned.statusCode, assigned.body).toBe(201);
    const userGame = assigned.json<UserGame>();

    const failed = await generate(game.id);
    const reason = generationFailureMessage('unreadable_image', 'img/hero.png');
    expect(failed).toMatchObject({ gameStatusTypeId: GameStatus.Failed, statusReason: reason });
    // Words, not sharp's or libspng's message.
    expect(reason).toBe(
      'The file img/hero.png could not be read as an image: it may be damaged or not the format its name says. Replace or delete it, then press Gen. again.',
    );
    expect(failed.statusReason).not.toMatch(/input buffer|unsupported image format|vips|spng/i);

    // Every active administrator has it in the inbox, linked to the game; a suspended one and the artist do not.
    for (const told of [admin, admin2]) {
      const event = (await inboxOf(told)).events.find(
        (e) => e.kind === 'generation_failed' && e.gameId === game.id,
      );
      expect(event, told.username).toMatchObject({
        actorId: null,
        gameName: 'Broken Art',
        text: reason,
        readAt: null,
        versionOwner: null,
      });
    }
    const suspendedRows = await t.database.db
      .selectFrom('inboxEvents')
      .select('id')
      .where('userId', '=', suspended.id)
      .where('kind', '=', 'generation_failed')
      .execute();
    expect(suspendedRows).toEqual([]);
    expect((await inboxOf(artist)).events.some((e) => e.kind === 'generation_failed')).toBe(false);

    // The artist: the play call says the game could not be prepared and that an administrator was told.
    const asArtist = await call(t, 'GET', `/api/games/${game.id}/path/`, { token: artist.token });
    expect(asArtist.statusCode).toBe(409);
    expect(errorOf(asArtist)).toMatchObject({
      code: 'GAME_NOT_READY',
      message: gameReadinessMessages.failedDetail,
    });
    expect(asArtist.body).not.toMatch(/being prepared|generat/i);
    const version = await call(t, 'POST', '/api/game-versions', {
      token: artist.token,
      payload: { name: 'Early', description: 'Before', gameId: game.id, userGamesId: userGame.id },
    });
    const versionPaths = await call(
      t,
      'GET',
      `/api/game-versions/path/${version.json<GameVersion>().id}/${game.id}`,
      { token: artist.token },
    );
    expect(errorOf(versionPaths).message).toBe(gameReadinessMessages.failedDetail);
    // My Games gives the card the status to say it with.
    const cards = (await call(t, 'GET', '/api/user-games/my-games', { token: artist.token })).json<
      MyGame[]
    >();
    expect(cards.find((card) => card.id === userGame.id)?.game.gameStatusTypeId).toBe(GameStatus.Failed);
    // The administrator is pointed at the reason.
    const asAdmin = await call(t, 'GET', `/api/games/${game.id}/path/`, { token: admin.token });
    expect(errorOf(asAdmin).message).toBe(gameReadinessMessages.failedAdmin);

    // The admin replaces the image and presses Gen. again: Ready, no reason.
    const replaced = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([{ path: 'img/hero.png', content: await solidPng(8, 8, 'blue') }]),
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(await generate(game.id)).toMatchObject({ gameStatusTypeId: GameStatus.Ready, statusReason: null });
    expect((await call(t, 'GET', `/api/games/${game.id}/path/`, { token: artist.token })).statusCode).toBe(
      200,
    );
  });

  it('a missing stored file is said as missing, not as a read error', async () => {
    const created = await call(t, 'POST', '/api/games', {
      token: admin.token,
      payload: { name: 'Lost Art', description: 'd', width: 480, height: 640 },
    });
    const game = created.json<Game>();
    await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html>' },
        { path: 'a.png', content: await solidPng(4, 4, 'red') },
      ]),
    });
    const key = (
      await t.database.db
        .selectFrom('gameFiles')
        .select('storageKey')
        .where('gameId', '=', game.id)
        .where('path', '=', 'a.png')
        .executeTakeFirstOrThrow()
    ).storageKey;
    rmSync(join(t.config.dataDir, 'files', ...key.split('/')));
    const failed = await generate(game.id);
    expect(failed).toMatchObject({
      gameStatusTypeId: GameStatus.Failed,
      statusReason: generationFailureMessage('missing_file', 'a.png'),
    });
    expect(failed.statusReason).toContain('missing');
  });
});
