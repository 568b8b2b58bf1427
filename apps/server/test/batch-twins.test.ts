import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GameStatus,
  RoleType,
  UserGameType,
  batchMessages,
  type BatchAnswer,
  type BatchRow,
  type Game,
  type GameFile,
  type GamePath,
  type GameVersion,
  type UserGame,
} from '@reskin/contract';
import { sampleGame } from '../src/seed/seed';
import { probeAudio } from '../src/modules/versions/audio-conversion';
import { call, createTestApp, createUser, testDb, type TestApp, type TestUser } from './helpers';

/** Every file of the sample game, by its path in the game. */
const sampleFiles = readdirSync(sampleGame.folder, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => {
    const full = join(entry.parentPath, entry.name);
    return { path: relative(sampleGame.folder, full).split(sep).join('/'), content: readFileSync(full) };
  });
const sampleFile = (path: string) => sampleFiles.find((file) => file.path === path)!.content;
/** Each test probes, measures and converts sounds in ffmpeg's workers: minutes on a loaded machine, not seconds. */
const soundWork = 180_000;
const ogg = 'assets/sfx/music.ogg';
const mp3 = 'assets/sfx/music.mp3';

/** The batch's multipart body: the fields, then a `path` field before each file. */
function batchForm(
  files: { path: string; content: Buffer }[],
  fields: Record<string, string> = {},
): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const file of files) {
    body.append('path', file.path);
    body.append('file', new Blob([file.content]), file.path.split('/').pop());
  }
  return body;
}

/**
 * Decision 0050 on the sample game, which ships its tune as music.ogg and music.mp3 and loads the first the
 * browser plays: the plan ranks a sound's candidates by the play record, says which one the game loads, replaces
 * a sound's twins from one file (each converted to its own format), and a one-row dry run is the row after a choice.
 */
describe(`batch replace and the play record: ranked candidates, twins of a sound, one row's dry run on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let game: Game;
  let userGame: UserGame;
  const fileIds: Record<string, number> = {};
  // The artist's tune: the sample game's boom, a WAV of 0.5 s (the music lasts 4 s: a duration warning).
  const tune = { path: 'export/music.wav', content: sampleFile('assets/sfx/boom.wav') };

  const newVersion = async (name: string): Promise<GameVersion> => {
    const created = await call(t, 'POST', '/api/game-versions', {
      token: artist.token,
      payload: { name, description: 'Twins', gameId: game.id, userGamesId: userGame.id },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json<GameVersion>();
  };
  const batch = async (versionId: number, payload: FormData) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/game-versions/${versionId}/batch`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<BatchAnswer>();
  };
  const rowOf = (answer: BatchAnswer, incoming: string): BatchRow =>
    answer.rows.find((row) => row.incoming === incoming)!;
  const versionRows = (versionId: number) =>
    t.database.db
      .selectFrom('versionFiles')
      .select(['fileId', 'storageKey', 'path'])
      .where('gameVersionId', '=', versionId)
      .orderBy('path')
      .execute();
  const stored = async (versionId: number, path: string) => {
    const row = (await versionRows(versionId)).find((found) => found.path === path);
    if (!row) throw new Error(`${path} is not replaced`);
    return readFileSync(join(t.config.dataDir, 'files', row.storageKey));
  };

  beforeAll(async () => {
    t = await createTestApp();
    [admin, artist] = [await createUser(t, RoleType.Admin), await createUser(t)];
    game = (
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name: 'Twins', description: 'x', width: 640, height: 480 },
      })
    ).json<Game>();
    const body = new FormData();
    for (const file of sampleFiles) {
      body.append('fullPath', file.path);
      body.append('file', new Blob([file.content]), file.path);
    }
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: body,
    });
    expect(upload.statusCode, upload.body).toBe(200);
    for (const file of (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >())
      fileIds[file.path] = file.fileId;
    await call(t, 'PATCH', `/api/games/${game.id}/files/${fileIds['game/index.html']}/index`, {
      token: admin.token,
    });
    await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    await t.generation.idle();
    expect(
      (await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token })).json<Game>().gameStatusTypeId,
    ).toBe(GameStatus.Ready);
    userGame = (
      await call(t, 'POST', '/api/user-games', {
        token: admin.token,
        payload: {
          userId: artist.id,
          gameId: game.id,
          userGameTypeId: UserGameType.SoundReplace,
          jobPrice: 1,
        },
      })
    ).json<UserGame>();
  });
  afterAll(async () => t.close());

  it(
    "ranks a sound's candidates by the play record: the twin the game loads first, marked; without a record in matching order",
    async () => {
      const version = await newVersion('Ranked');
      const before = rowOf(await batch(version.id, batchForm([tune], { dryRun: 'true' })), tune.path);
      expect(before).toMatchObject({ status: 'ambiguous', error: batchMessages.ambiguous });
      // Nothing played yet: the matching's order (by path), every candidate never loaded.
      expect(before.candidates.map((candidate) => [candidate.path, candidate.usage])).toEqual([
        [mp3, { loads: 0, atStart: false }],
        [ogg, { loads: 0, atStart: false }],
      ]);

      // A play in Chromium: the page, its scripts, and the one tune canPlayType chose (the OGG), through the play origin.
      const root = new URL(
        (await call(t, 'GET', `/api/games/${game.id}/path/`, { token: admin.token })).json<GamePath>()
          .rootPath,
      ).pathname;
      const play = (path: string, dest: string) =>
        t.playApp.inject({
          method: 'GET',
          url: `${root}${path}`,
          headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': dest },
        });
      expect((await play('game/index.html', 'iframe')).statusCode).toBe(200);
      expect((await play('lib/engine.js', 'script')).statusCode).toBe(200);
      // A sound the same in every view, small enough to be answered in place rather than sent to the player's shared
      // URL of it (decisions 0037, 0065): the request counts either way.
      expect((await play(`${ogg}?v=1`, 'audio')).statusCode).toBe(200);
      await t.playUsage!.flush();

      const after = rowOf(await batch(version.id, batchForm([tune], { dryRun: 'true' })), tune.path);
      expect(after.candidates.map((candidate) => [candidate.path, candidate.usage])).toEqual([
        [ogg, { loads: 1, atStart: true }],
        [mp3, { loads: 0, atStart: false }],
      ]);
      expect(await versionRows(version.id)).toEqual([]);
    },
    soundWork,
  );

  it(
    "one row's dry run after a choice: the row as it would be applied, with its twin converted to its own format, and nothing stored",
    async () => {
      const version = await newVersion('One row');
      const row = rowOf(
        await batch(
          version.id,
          batchForm([tune], {
            dryRun: 'true',
            alsoTwins: 'true',
            choices: JSON.stringify({ [tune.path]: fileIds[ogg] }),
          }),
        ),
        tune.path,
      );
      expect(row).toMatchObject({
        status: 'needs_conversion',
        matchedBy: 'choice',
        path: ogg,
        error: null,
        usage: { loads: 1, atStart: true },
        incomingMedia: { format: 'wav', sampleRate: 22050, channels: 1 },
        originalMedia: { format: 'ogg' },
      });
      expect(row.incomingMedia?.durationSeconds).toBeCloseTo(0.5, 2);
      expect(row.originalMedia?.durationSeconds).toBeGreaterThan(3.9);
      expect(row.incomingMedia?.lufs).toEqual(expect.any(Number));
      expect(row.warnings).toEqual([expect.stringMatching(/^The durations differ by more than 10 %/)]);
      expect(row.twins).toEqual([
        expect.objectContaining({
          fileId: fileIds[mp3],
          path: mp3,
          usage: { loads: 0, atStart: false },
          replace: true,
          status: 'needs_conversion',
          outcome: null,
        }),
      ]);
      expect(row.twins[0]?.originalMedia).toMatchObject({
        format: 'mp3',
        sampleRate: 22050,
        channels: 1,
        lufs: expect.any(Number),
      });
      expect(row.twins[0]?.warnings).toEqual([
        expect.stringMatching(/^The durations differ by more than 10 %/),
      ]);
      expect(await versionRows(version.id)).toEqual([]);

      // The twin the game never loads, alone: the row says which one the game plays.
      const unheard = rowOf(
        await batch(
          version.id,
          batchForm([tune], { dryRun: 'true', choices: JSON.stringify({ [tune.path]: fileIds[mp3] }) }),
        ),
        tune.path,
      );
      expect(unheard).toMatchObject({ status: 'needs_conversion', usage: { loads: 0, atStart: false } });
      expect(unheard.twins).toEqual([
        expect.objectContaining({ path: ogg, replace: false, status: null, originalMedia: null }),
      ]);
      expect(unheard.warnings).toContain(batchMessages.twinLoaded(ogg));

      // A file that is no twin of the row's sound: the row is refused.
      const stranger = rowOf(
        await batch(
          version.id,
          batchForm([tune], {
            dryRun: 'true',
            choices: JSON.stringify({ [tune.path]: fileIds[ogg] }),
            twins: JSON.stringify({ [tune.path]: [fileIds['assets/sfx/catch.wav']] }),
          }),
        ),
        tune.path,
      );
      expect(stranger).toMatchObject({
        status: 'invalid',
        errorCode: 'not_twin',
        error: batchMessages.notTwin('assets/sfx/catch.wav'),
      });
    },
    soundWork,
  );

  it(
    'replaces both twins of a sound from one file, each converted to its own format; without the option only the chosen one',
    async () => {
      const version = await newVersion('Both');
      const answer = await batch(
        version.id,
        batchForm([tune], {
          choices: JSON.stringify({ [tune.path]: fileIds[ogg] }),
          twins: JSON.stringify({ [tune.path]: [fileIds[mp3]] }),
        }),
      );
      const row = rowOf(answer, tune.path);
      expect(row).toMatchObject({
        outcome: 'replaced',
        twins: [expect.objectContaining({ path: mp3, outcome: 'replaced', error: null })],
      });
      expect(answer.summary).toMatchObject({ replaced: 1, twinsReplaced: 1, failed: 0 });
      expect((await versionRows(version.id)).map((file) => file.path)).toEqual([mp3, ogg]);
      const incoming = await probeAudio(tune.content);
      for (const [path, original] of [
        [ogg, sampleFile(ogg)],
        [mp3, sampleFile(mp3)],
      ] as const) {
        const [result, before] = [
          await probeAudio(await stored(version.id, path)),
          await probeAudio(original),
        ];
        expect(result, path).toMatchObject({
          container: before.container,
          codec: before.codec,
          sampleRate: before.sampleRate,
          channels: before.channels,
        });
        expect(Math.abs(result.durationSeconds - incoming.durationSeconds), path).toBeLessThan(0.1);
      }

      // Without `twins` or `alsoTwins` the batch replaces what it did before: the chosen file only.
      const only = await newVersion('Only one');
      const alone = rowOf(
        await batch(only.id, batchForm([tune], { choices: JSON.stringify({ [tune.path]: fileIds[ogg] }) })),
        tune.path,
      );
      expect(alone).toMatchObject({
        outcome: 'replaced',
        twins: [expect.objectContaining({ path: mp3, replace: false, outcome: null })],
      });
      expect((await versionRows(only.id)).map((file) => file.path)).toEqual([ogg]);
    },
    soundWork,
  );

  it(
    'a twin another row replaces with its own file is not replaced twice',
    async () => {
      const version = await newVersion('Own files');
      const own = [
        { path: 'export/assets/sfx/music.ogg', content: sampleFile(ogg) },
        { path: 'export/assets/sfx/music.mp3', content: sampleFile(mp3) },
      ];
      const answer = await batch(version.id, batchForm(own, { alsoTwins: 'true' }));
      for (const file of own)
        expect(rowOf(answer, file.path)).toMatchObject({ status: 'matched', outcome: 'replaced', twins: [] });
      expect(answer.summary).toMatchObject({ replaced: 2, twinsReplaced: 0 });
      expect((await stored(version.id, mp3)).equals(sampleFile(mp3))).toBe(true);
      expect((await stored(version.id, ogg)).equals(sampleFile(ogg))).toBe(true);
    },
    soundWork,
  );
});
