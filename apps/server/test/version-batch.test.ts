import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { ZipFile } from 'yazl';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  RoleType,
  batchMessages,
  errorCodes,
  limits,
  validationMessages,
  type BatchAnswer,
  type BatchRow,
  type Game,
  type GameFile,
  type GameVersion,
  type UserGame,
} from '@reskin/contract';
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
import { probeAudio } from '../src/modules/versions/audio-conversion';
import { batchTurns } from '../src/modules/versions/version-batch.service';
import { solidPng } from './support/image-samples';
import { silentWav } from './support/sound-samples';

const sfx = (name: string) =>
  readFileSync(new URL(`../sample-game/star-catcher/assets/sfx/${name}`, import.meta.url));

type Rgba = [number, number, number, number];
const red: Rgba = [255, 0, 0, 255];
const blue: Rgba = [0, 0, 255, 255];
const green: Rgba = [0, 255, 0, 255];

/**
 * The fit test image: 80 x 80, rows 0-19 and 60-79 green, rows 20-59 red on the left half and blue on the right.
 * Fitted to a 40 x 20 original: cover keeps rows 20-59 (red | blue, no green), contain is a 20 x 20 copy centred
 * between transparent columns, stretch squeezes the bands (green, red | blue, green).
 */
async function bandsPng(): Promise<Buffer> {
  const width = 80;
  const data = Buffer.alloc(width * width * 4);
  for (let y = 0; y < width; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const colour = y < 20 || y >= 60 ? green : x < 40 ? red : blue;
      data.set(colour, (y * width + x) * 4);
    }
  }
  return sharp(data, { raw: { width, height: width, channels: 4 } })
    .png()
    .toBuffer();
}

/** The RGBA pixel at (x, y) of an image. */
async function pixel(image: Buffer, x: number, y: number): Promise<Rgba> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 4;
  return [data[at]!, data[at + 1]!, data[at + 2]!, data[at + 3]!];
}

const near = (actual: Rgba, expected: Rgba) =>
  actual.every((value, index) => Math.abs(value - expected[index]!) <= 40);

/** A two-frame animated GIF of `size` px (red for 100 ms, blue for 200 ms). */
async function animatedGif(size: number): Promise<Buffer> {
  const frame = (background: string) =>
    sharp({ create: { width: size, height: size, channels: 4, background } })
      .png()
      .toBuffer();
  return sharp([await frame('red'), await frame('blue')], { join: { animated: true } })
    .gif({ delay: [100, 200], loop: 0 })
    .toBuffer();
}

/** A zip of these entries. */
async function zipOf(entries: { path: string; content: Buffer | string }[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of entries) zip.addBuffer(Buffer.from(entry.content), entry.path);
  zip.end();
  return buffer(zip.outputStream);
}

/** The batch's multipart body: a `path` field before each file. */
function batchForm(
  files: { path: string; content: Buffer | string }[],
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

describe(`replace from a folder or a zip (POST /game-versions/{versionId}/batch) on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let game: Game;
  let userGame: UserGame;
  let bands: Buffer;
  const fileIds: Record<string, number> = {};
  let versionCount = 0;

  const versionIds: number[] = [];
  /** A new version of the artist's; the oldest goes first when the assignment has its 6. */
  const newVersion = async (): Promise<GameVersion> => {
    versionCount += 1;
    if (versionIds.length >= 6)
      expect(
        (await call(t, 'DELETE', `/api/game-versions/${versionIds.shift()}`, { token: artist.token }))
          .statusCode,
      ).toBe(200);
    const created = await call(t, 'POST', '/api/game-versions', {
      token: artist.token,
      payload: {
        name: `Batch look ${versionCount}`,
        description: 'Batch',
        gameId: game.id,
        userGamesId: userGame.id,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    versionIds.push(created.json<GameVersion>().id);
    return created.json<GameVersion>();
  };
  const send = (versionId: number, payload: FormData, query = '', token = artist.token) =>
    t.app.inject({
      method: 'POST',
      url: `/api/game-versions/${versionId}/batch${query}`,
      headers: { authorization: `Bearer ${token}` },
      payload,
    });
  const batch = async (versionId: number, payload: FormData, query = '') => {
    const response = await send(versionId, payload, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<BatchAnswer>();
  };
  const rowOf = (answer: BatchAnswer, incoming: string): BatchRow => {
    const row = answer.rows.find((found) => found.incoming === incoming);
    if (!row) throw new Error(`no row ${incoming}`);
    return row;
  };
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
    game = await createGame(t, admin.token, { name: 'Batch', description: 'x', width: 480, height: 640 });
    userGame = (
      await call(t, 'POST', '/api/user-games', {
        token: admin.token,
        payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 1 },
      })
    ).json<UserGame>();
    bands = await bandsPng();
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html><p>batch</p>' },
        { path: 'readme.txt', content: 'notes' },
        { path: 'img/hero.png', content: await solidPng(40, 20) },
        {
          path: 'img/bg.jpg',
          content: await sharp({ create: { width: 40, height: 30, channels: 3, background: 'white' } })
            .jpeg()
            .toBuffer(),
        },
        {
          path: 'img/coin.webp',
          content: await sharp({ create: { width: 40, height: 20, channels: 4, background: 'white' } })
            .webp()
            .toBuffer(),
        },
        { path: 'img/a/dup.png', content: await solidPng(10, 10) },
        { path: 'img/b/dup.png', content: await solidPng(10, 10) },
        { path: 'img/anim.gif', content: await animatedGif(20) },
        { path: 'img/sheet.png', content: await solidPng(32, 16) },
        {
          path: 'img/sheet.json',
          content: JSON.stringify({
            frames: {
              'star.png': { frame: { x: 0, y: 0, w: 16, h: 16 } },
              'moon.png': { frame: { x: 16, y: 0, w: 16, h: 16 } },
            },
            meta: { image: 'sheet.png' },
          }),
        },
        { path: 'sfx/jump.wav', content: sfx('catch.wav') },
        { path: 'sfx/boom.wav', content: sfx('boom.wav') },
        { path: 'sfx/music.ogg', content: sfx('music.ogg') },
      ]),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    for (const file of (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >())
      fileIds[file.path] = file.fileId;
  });
  afterAll(async () => t?.close());

  /** The artist's export: a top folder of its own, every kind of row. */
  const exportFolder = async () => [
    { path: 'export/img/hero.png', content: await solidPng(40, 20, 'blue') },
    { path: 'export/img/bg.png', content: await solidPng(40, 30, 'blue') },
    { path: 'export/img/coin.png', content: bands },
    { path: 'export/dup.png', content: await solidPng(10, 10, 'blue') },
    { path: 'export/unknown.png', content: await solidPng(10, 10) },
    { path: 'export/readme.txt', content: 'new notes' },
    { path: 'export/star.png', content: await solidPng(16, 16, 'blue') },
    { path: 'export/sfx/jump.wav', content: sfx('boom.wav') },
    { path: 'export/sfx/boom.wav', content: 'this is no sound at all' },
    { path: 'export/sfx/music.wav', content: sfx('catch.wav') },
  ];

  it('dryRun answers the plan (path, name, frame, ambiguous, unmatched, not replaceable, fit, conversion) and stores nothing', async () => {
    const version = await newVersion();
    const keysBefore = storedKeys(t);
    const versionsBefore = await t.database.db
      .selectFrom('gameVersions')
      .selectAll()
      .where('id', '=', version.id)
      .executeTakeFirstOrThrow();
    const plan = await batch(version.id, batchForm(await exportFolder(), { dryRun: 'true' }));
    expect(plan.dryRun).toBe(true);
    expect(rowOf(plan, 'export/img/hero.png')).toMatchObject({
      relative: 'img/hero.png',
      status: 'matched',
      matchedBy: 'path',
      fileId: fileIds['img/hero.png'],
      kind: 'image',
      outcome: null,
    });
    expect(rowOf(plan, 'export/img/bg.png')).toMatchObject({
      status: 'needs_conversion',
      matchedBy: 'path',
      path: 'img/bg.jpg',
      incomingMedia: { format: 'png' },
      originalMedia: { format: 'jpeg', width: 40, height: 30 },
    });
    expect(rowOf(plan, 'export/img/coin.png')).toMatchObject({
      status: 'needs_fit',
      path: 'img/coin.webp',
      fit: null,
      errorCode: 'no_fit',
      error: batchMessages.noFit,
      incomingMedia: { width: 80, height: 80 },
    });
    expect(rowOf(plan, 'export/dup.png')).toMatchObject({ status: 'ambiguous', fileId: null });
    expect(
      rowOf(plan, 'export/dup.png')
        .candidates.map((candidate) => candidate.path)
        .sort(),
    ).toEqual(['img/a/dup.png', 'img/b/dup.png']);
    expect(rowOf(plan, 'export/unknown.png')).toMatchObject({
      status: 'unmatched',
      error: batchMessages.unmatched,
    });
    expect(rowOf(plan, 'export/readme.txt')).toMatchObject({ status: 'not_replaceable', kind: 'other' });
    expect(rowOf(plan, 'export/star.png')).toMatchObject({
      status: 'matched',
      matchedBy: 'frame',
      fileId: fileIds['img/sheet.png'],
      frame: 'star.png',
    });
    expect(rowOf(plan, 'export/sfx/jump.wav')).toMatchObject({
      status: 'matched',
      matchedBy: 'path',
      kind: 'audio',
    });
    expect(rowOf(plan, 'export/sfx/boom.wav')).toMatchObject({
      status: 'invalid',
      errorCode: 'not_audio',
      error: validationMessages.notAudio,
    });
    expect(rowOf(plan, 'export/sfx/music.wav')).toMatchObject({
      status: 'needs_conversion',
      path: 'sfx/music.ogg',
      incomingMedia: { format: 'wav' },
      originalMedia: { format: 'ogg' },
    });
    expect(rowOf(plan, 'export/sfx/music.wav').incomingMedia?.lufs).toEqual(expect.any(Number));
    expect(rowOf(plan, 'export/sfx/music.wav').originalMedia?.durationSeconds).toBeGreaterThan(0);
    // catch.wav is far shorter than the music: the durations are shown side by side with a warning.
    expect(rowOf(plan, 'export/sfx/music.wav').warnings).toEqual([
      expect.stringMatching(/^The durations differ by more than 10 %/),
    ]);
    expect(plan.summary).toMatchObject({
      total: 10,
      matched: 3,
      needsFit: 1,
      needsConversion: 2,
      ambiguous: 1,
      unmatched: 1,
      notReplaceable: 1,
      invalid: 1,
      replaced: 0,
    });
    // Nothing stored, no row written, the version untouched.
    expect(storedKeys(t)).toEqual(keysBefore);
    expect(await versionRows(version.id)).toEqual([]);
    expect(
      await t.database.db
        .selectFrom('versionFrames')
        .selectAll()
        .where('gameVersionId', '=', version.id)
        .execute(),
    ).toEqual([]);
    expect(
      await t.database.db
        .selectFrom('gameVersions')
        .selectAll()
        .where('id', '=', version.id)
        .executeTakeFirstOrThrow(),
    ).toEqual(versionsBefore);
  });

  it('applies exactly the matched rows: fitted, converted, chosen; refused rows fail alone and the others are stored', async () => {
    const version = await newVersion();
    const folder = await exportFolder();
    const answer = await batch(
      version.id,
      batchForm(folder, {
        fit: 'cover',
        choices: JSON.stringify({ 'export/dup.png': fileIds['img/b/dup.png'] }),
      }),
    );
    expect(answer.dryRun).toBe(false);
    const outcomes = Object.fromEntries(answer.rows.map((row) => [row.incoming, row.outcome]));
    expect(outcomes).toEqual({
      'export/img/hero.png': 'replaced',
      'export/img/bg.png': 'replaced',
      'export/img/coin.png': 'replaced',
      'export/dup.png': 'replaced',
      'export/unknown.png': 'skipped',
      'export/readme.txt': 'skipped',
      'export/star.png': 'replaced',
      'export/sfx/jump.wav': 'replaced',
      'export/sfx/boom.wav': 'failed',
      'export/sfx/music.wav': 'replaced',
    });
    expect(rowOf(answer, 'export/dup.png')).toMatchObject({ matchedBy: 'choice', path: 'img/b/dup.png' });
    expect((await versionRows(version.id)).map((row) => row.path)).toEqual([
      'img/b/dup.png',
      'img/bg.jpg',
      'img/coin.webp',
      'img/hero.png',
      'img/sheet.png',
      'sfx/jump.wav',
      'sfx/music.ogg',
    ]);
    expect((await stored(version.id, 'img/hero.png')).equals(folder[0]!.content as Buffer)).toBe(true);
    expect(await sharp(await stored(version.id, 'img/bg.jpg')).metadata()).toMatchObject({
      format: 'jpeg',
      width: 40,
      height: 30,
    });
    expect(await sharp(await stored(version.id, 'img/coin.webp')).metadata()).toMatchObject({
      format: 'webp',
      width: 40,
      height: 20,
    });
    expect((await stored(version.id, 'sfx/jump.wav')).equals(sfx('boom.wav'))).toBe(true);
    const frames = await t.database.db
      .selectFrom('versionFrames')
      .select('frame')
      .where('gameVersionId', '=', version.id)
      .execute();
    expect(frames.map((row) => row.frame)).toEqual(['star.png']);
    // The WAV for an OGG original is stored as OGG Vorbis at the original's rate and channels.
    const music = await probeAudio(await stored(version.id, 'sfx/music.ogg'));
    const originalMusic = await probeAudio(sfx('music.ogg'));
    expect(music).toMatchObject({
      container: 'ogg',
      codec: originalMusic.codec,
      sampleRate: originalMusic.sampleRate,
      channels: originalMusic.channels,
    });
    expect(answer.summary).toMatchObject({ replaced: 7, failed: 1, skipped: 2 });
  });

  it('[Fit] cover, contain and stretch give the original size and the expected pixels; the preview is the stored result', async () => {
    const version = await newVersion();
    const preview = async (fit: string) => {
      const body = new FormData();
      body.append('file', new Blob([bands]), 'coin.png');
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/game-versions/${version.id}/files/${fileIds['img/hero.png']}/fit-preview?fit=${fit}`,
        headers: { authorization: `Bearer ${artist.token}` },
        payload: body,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      return response.rawPayload;
    };
    const cover = await preview('cover');
    expect(await sharp(cover).metadata()).toMatchObject({ width: 40, height: 20, format: 'png' });
    for (const [x, y, colour] of [
      [5, 1, red],
      [5, 18, red],
      [35, 1, blue],
      [35, 18, blue],
    ] as const)
      expect(near(await pixel(cover, x, y), colour), `cover ${x},${y}`).toBe(true);
    const contain = await preview('contain');
    expect(await sharp(contain).metadata()).toMatchObject({ width: 40, height: 20 });
    expect((await pixel(contain, 3, 10))[3]).toBe(0);
    expect((await pixel(contain, 37, 10))[3]).toBe(0);
    for (const [x, y, colour] of [
      [14, 10, red],
      [26, 10, blue],
      [20, 1, green],
      [20, 18, green],
    ] as const)
      expect(near(await pixel(contain, x, y), colour), `contain ${x},${y}`).toBe(true);
    const stretch = await preview('stretch');
    expect(await sharp(stretch).metadata()).toMatchObject({ width: 40, height: 20 });
    for (const [x, y, colour] of [
      [20, 1, green],
      [20, 18, green],
      [5, 10, red],
      [35, 10, blue],
    ] as const)
      expect(near(await pixel(stretch, x, y), colour), `stretch ${x},${y}`).toBe(true);

    // Per-row fits override the batch's: the stored bytes are the preview's.
    const answer = await batch(
      version.id,
      batchForm([{ path: 'hero.png', content: bands }]),
      `?fit=cover&fits=${encodeURIComponent(JSON.stringify({ 'hero.png': 'contain' }))}`,
    );
    expect(rowOf(answer, 'hero.png')).toMatchObject({
      status: 'needs_fit',
      fit: 'contain',
      outcome: 'replaced',
    });
    expect((await stored(version.id, 'img/hero.png')).equals(contain)).toBe(true);
  });

  it('[Fit] an animated GIF original is never fitted or converted (refused with a clear message); one of its size is stored as it is, frames and timing kept', async () => {
    const version = await newVersion();
    const bigger = await animatedGif(40);
    const answer = await batch(
      version.id,
      batchForm([
        { path: 'img/anim.gif', content: bigger },
        { path: 'anim.png', content: await solidPng(40, 40) },
      ]),
      '?fit=stretch',
    );
    expect(rowOf(answer, 'img/anim.gif')).toMatchObject({
      status: 'invalid',
      errorCode: 'animated',
      error: batchMessages.animatedGif,
      outcome: 'failed',
    });
    expect(rowOf(answer, 'anim.png')).toMatchObject({
      status: 'invalid',
      errorCode: 'animated',
      outcome: 'failed',
    });
    const same = await animatedGif(20);
    const kept = await batch(version.id, batchForm([{ path: 'img/anim.gif', content: same }]));
    expect(rowOf(kept, 'img/anim.gif')).toMatchObject({ status: 'matched', outcome: 'replaced' });
    const meta = await sharp(await stored(version.id, 'img/anim.gif')).metadata();
    expect(meta).toMatchObject({ pages: 2, delay: [100, 200] });
  });

  it('a .zip is unpacked (its top folder stripped) and planned like a folder', async () => {
    const version = await newVersion();
    const zip = await zipOf([
      { path: 'mine/img/hero.png', content: await solidPng(40, 20, 'green') },
      { path: 'mine/sfx/jump.wav', content: sfx('boom.wav') },
    ]);
    const answer = await batch(version.id, batchForm([{ path: 'mine.zip', content: zip }]));
    expect(answer.rows.map((row) => [row.relative, row.outcome])).toEqual([
      ['img/hero.png', 'replaced'],
      ['sfx/jump.wav', 'replaced'],
    ]);
  });

  it("a .zip's damaged images and broken entry are refused as their own rows; the others are stored", async () => {
    const version = await newVersion();
    const keysBefore = storedKeys(t);
    // A PNG whose image data has one byte changed (its chunk's CRC no longer matches), a JPEG cut short, and an
    // entry whose deflate stream is broken: each row's own refusal, read from its entry when its row is planned.
    const damaged = Buffer.from(await solidPng(10, 10, 'blue'));
    const idat = damaged.indexOf('IDAT');
    damaged[idat + 6] = damaged[idat + 6]! ^ 0xff;
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: 'blue' } })
      .jpeg()
      .toBuffer();
    const zipFile = new ZipFile();
    zipFile.addBuffer(await solidPng(40, 20, 'green'), 'mine/img/hero.png', { compress: false });
    zipFile.addBuffer(damaged, 'mine/img/a/dup.png', { compress: false });
    zipFile.addBuffer(jpeg.subarray(0, jpeg.length >> 1), 'mine/img/bg.jpg', { compress: false });
    zipFile.addBuffer(Buffer.alloc(4096), 'mine/img/coin.webp', { compress: true });
    zipFile.end();
    const zip = await buffer(zipFile.outputStream);
    const local = zip.indexOf(Buffer.from('mine/img/coin.webp')) - 30;
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    // Block type 3 does not exist: inflating stops at the first byte.
    zip[dataStart] = 0xff;
    const answer = await batch(version.id, batchForm([{ path: 'mine.zip', content: zip }]));
    expect(answer.rows.map((row) => [row.relative, row.outcome, row.errorCode])).toEqual([
      ['img/hero.png', 'replaced', null],
      ['img/a/dup.png', 'failed', 'invalid_image'],
      ['img/bg.jpg', 'failed', 'invalid_image'],
      ['img/coin.webp', 'failed', 'invalid_zip'],
    ]);
    expect(rowOf(answer, 'mine/img/a/dup.png').error).toContain(
      'img/a/dup.png is not a complete PNG file: it is cut short or damaged',
    );
    expect(rowOf(answer, 'mine/img/bg.jpg').error).toContain('img/bg.jpg is not a');
    expect(rowOf(answer, 'mine/img/coin.webp').error).toContain('img/coin.webp');
    expect((await versionRows(version.id)).map((row) => row.path)).toEqual(['img/hero.png']);
    // The version object and its history copy; nothing staged for the refused rows is left.
    expect(storedKeys(t).length).toBe(keysBefore.length + 2);
  });

  it('a zip of 2,000 tiny files, or more files than the game has, is refused as a batch (413); nothing is stored, never a 5xx', async () => {
    const version = await newVersion();
    const keysBefore = storedKeys(t);
    const zip = await zipOf(
      Array.from({ length: 2000 }, (_, index) => ({ path: `tiny/${index}.png`, content: 'x' })),
    );
    const zipped = await send(version.id, batchForm([{ path: 'tiny.zip', content: zip }]));
    expect(zipped.statusCode, zipped.body).toBe(413);
    const gameFileCount = Object.keys(fileIds).length;
    expect(errorOf(zipped)).toMatchObject({
      code: 'TOO_MANY_FILES',
      message: batchMessages.tooManyFiles(gameFileCount),
    });
    const many = await send(
      version.id,
      batchForm(
        Array.from({ length: gameFileCount + 1 }, (_, index) => ({ path: `${index}.png`, content: 'x' })),
      ),
    );
    expect(many.statusCode, many.body).toBe(413);
    expect(storedKeys(t)).toEqual(keysBefore);
    expect(await versionRows(version.id)).toEqual([]);
  });

  it(`a zip that unpacks to more than ${limits.versionBatch.maxBytes / 1024 ** 2} MB is refused (413) before anything is inflated`, async () => {
    const version = await newVersion();
    const keysBefore = storedKeys(t);
    // Entries within every per-entry rule (under the per-file limit, a ratio of 40) that together pass the batch's
    // limit: their central directory records are rewritten to declare it, so the zip itself stays a few KB.
    const each = { compressed: 1024 * 1024, unpacked: 40 * 1024 * 1024 };
    const count = Math.floor(limits.versionBatch.maxBytes / each.unpacked) + 1;
    expect(count).toBeLessThanOrEqual(Object.keys(fileIds).length);
    const zip = await zipOf(
      Array.from({ length: count }, (_, index) => ({
        path: `big/part-${index}.png`,
        content: `part ${index}`,
      })),
    );
    const record = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
    for (let at = zip.indexOf(record); at >= 0; at = zip.indexOf(record, at + 4)) {
      zip.writeUInt32LE(each.compressed, at + 20);
      zip.writeUInt32LE(each.unpacked, at + 24);
    }
    const response = await send(version.id, batchForm([{ path: 'big.zip', content: zip }]));
    expect(response.statusCode, response.body).toBe(413);
    expect(errorOf(response)).toMatchObject({ code: errorCodes.zipBomb, message: batchMessages.tooLarge });
    expect(batchMessages.tooLarge).toContain('512 MB');
    expect(storedKeys(t)).toEqual(keysBefore);
  });

  it(`several batches at once: at most ${limits.versionBatch.concurrent} are worked on, the others wait their turn, and every file is stored`, async () => {
    const versions: GameVersion[] = [];
    for (let i = 0; i < 4; i++) versions.push(await newVersion());
    // The server's places are taken (as by batches already running): the four wait.
    const release: (() => void)[] = [];
    const held = Array.from({ length: limits.versionBatch.concurrent }, () =>
      batchTurns.run(-1, () => new Promise<void>((resolve) => release.push(resolve))),
    );
    batchTurns.peak = 0;
    const heroes = await Promise.all(
      ['red', 'green', 'blue', 'yellow'].map((colour) => solidPng(40, 20, colour)),
    );
    const sent = versions.map((version, index) =>
      send(version.id, batchForm([{ path: 'img/hero.png', content: heroes[index]! }])),
    );
    await vi.waitFor(
      () =>
        expect(batchTurns.load).toEqual({
          running: limits.versionBatch.concurrent,
          waiting: versions.length,
        }),
      { timeout: 20_000 },
    );
    for (const done of release) done();
    await Promise.all(held);
    const answers = await Promise.all(sent);
    expect(answers.map((answer) => [answer.statusCode, answer.json<BatchAnswer>().summary.replaced])).toEqual(
      versions.map(() => [200, 1]),
    );
    expect(batchTurns.peak).toBe(limits.versionBatch.concurrent);
    // Each version holds its own batch's file, byte for byte.
    for (const [index, version] of versions.entries())
      expect((await stored(version.id, 'img/hero.png')).equals(heroes[index]!)).toBe(true);
    expect(batchTurns.load).toEqual({ running: 0, waiting: 0 });
  });

  it(`a batch beyond the ${limits.versionBatch.maxWaiting} waiting is refused at once: 503 SERVER_BUSY with Retry-After, nothing read or stored`, async () => {
    const version = await newVersion();
    const release: (() => void)[] = [];
    const taken = Array.from(
      { length: limits.versionBatch.concurrent + limits.versionBatch.maxWaiting },
      (_, index) => batchTurns.run(-1 - index, () => new Promise<void>((resolve) => release.push(resolve))),
    );
    expect(batchTurns.load).toEqual({
      running: limits.versionBatch.concurrent,
      waiting: limits.versionBatch.maxWaiting,
    });
    const keysBefore = storedKeys(t);
    const response = await send(
      version.id,
      batchForm([{ path: 'img/hero.png', content: await solidPng(40, 20, 'blue') }]),
    );
    expect(response.statusCode, response.body).toBe(503);
    expect(response.headers['retry-after']).toBe(String(limits.versionBatch.retryAfterSeconds));
    expect(errorOf(response)).toMatchObject({
      code: errorCodes.serverBusy,
      message: batchMessages.busy,
      retryAfter: limits.versionBatch.retryAfterSeconds,
    });
    // Each held task, once it runs, is let go: the waiting ones run in turn.
    for (let released = 0; released < taken.length;) {
      const next = release.shift();
      if (next) {
        next();
        released++;
      } else await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(taken);
    expect(storedKeys(t)).toEqual(keysBefore);
    expect(
      (await send(version.id, batchForm([{ path: 'img/hero.png', content: await solidPng(40, 20, 'blue') }])))
        .statusCode,
    ).toBe(200);
  });

  it(`a sound over ${limits.audioConversion.maxDurationSeconds / 60} minutes is a refused row naming the limit, and a refused single upload (422 too_long); the other rows are stored`, async () => {
    const version = await newVersion();
    const long = silentWav(limits.audioConversion.maxDurationSeconds + 60);
    const message = validationMessages.soundTooLong(limits.audioConversion.maxDurationSeconds + 60);
    const answer = await batch(
      version.id,
      batchForm([
        { path: 'sfx/jump.wav', content: long },
        { path: 'img/hero.png', content: await solidPng(40, 20, 'blue') },
      ]),
    );
    expect(rowOf(answer, 'sfx/jump.wav')).toMatchObject({
      status: 'invalid',
      errorCode: 'too_long',
      error: message,
      outcome: 'failed',
    });
    expect(rowOf(answer, 'img/hero.png').outcome).toBe('replaced');
    const body = new FormData();
    body.append('file', new Blob([long]), 'jump.wav');
    const single = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${version.id}/${fileIds['sfx/jump.wav']}`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: body,
    });
    expect(single.statusCode, single.body).toBe(422);
    expect(errorOf(single)).toMatchObject({
      message,
      details: [{ path: '/file', code: 'too_long', message }],
    });
    expect((await versionRows(version.id)).map((row) => row.path)).toEqual(['img/hero.png']);
    // A sound within the limit is uploaded as ever.
    const short = new FormData();
    short.append('file', new Blob([sfx('boom.wav')]), 'jump.wav');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/game-version/upload/${version.id}/${fileIds['sfx/jump.wav']}`,
          headers: { authorization: `Bearer ${artist.token}` },
          payload: short,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('bad options and bodies are a clear 4xx: no file, choices that are not JSON, an unknown fit, not multipart', async () => {
    const version = await newVersion();
    const none = await send(version.id, batchForm([], { dryRun: 'true' }));
    expect(none.statusCode).toBe(422);
    const badChoices = await send(
      version.id,
      batchForm([{ path: 'hero.png', content: 'x' }], { choices: '{nope' }),
    );
    expect(badChoices.statusCode, badChoices.body).toBe(422);
    expect(errorOf(badChoices).message).toMatch(/choices must be JSON/);
    expect(
      (await send(version.id, batchForm([{ path: 'hero.png', content: 'x' }]), '?fit=squash')).statusCode,
    ).toBe(422);
    const json = await call(t, 'POST', `/api/game-versions/${version.id}/batch`, {
      token: artist.token,
      payload: { files: [] },
    });
    expect(json.statusCode).toBe(415);
    const chosenElsewhere = await batch(
      version.id,
      batchForm([{ path: 'x.png', content: await solidPng(10, 10) }], {
        dryRun: 'true',
        choices: JSON.stringify({ 'x.png': 999999 }),
      }),
    );
    expect(rowOf(chosenElsewhere, 'x.png')).toMatchObject({ status: 'invalid', errorCode: 'bad_choice' });
  });

  it("a locked or disabled version, a demo account and someone else's version are refused as for single uploads", async () => {
    const hero = async () => batchForm([{ path: 'img/hero.png', content: await solidPng(40, 20, 'blue') }]);
    const singleUpload = async (versionId: number, token: string) => {
      const body = new FormData();
      body.append('file', new Blob([await solidPng(40, 20, 'blue')]), 'hero.png');
      return t.app.inject({
        method: 'POST',
        url: `/api/game-version/upload/${versionId}/${fileIds['img/hero.png']}`,
        headers: { authorization: `Bearer ${token}` },
        payload: body,
      });
    };
    const locked = await newVersion();
    expect(
      (await call(t, 'DELETE', `/api/game-versions/${locked.id}/changeLock`, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    const disabled = await newVersion();
    expect(
      (await call(t, 'DELETE', `/api/game-versions/${disabled.id}/changeActivity`, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    const open = await newVersion();
    const demo = await createUser(t, RoleType.Demo);
    const stranger = await createUser(t);
    const keysBefore = storedKeys(t);
    for (const [versionId, token, status, code] of [
      [locked.id, artist.token, 423, 'VERSION_LOCKED'],
      [disabled.id, artist.token, 423, 'VERSION_DISABLED'],
      [open.id, demo.token, 403, undefined],
      [open.id, stranger.token, 404, undefined],
    ] as const) {
      const refused = await send(versionId, await hero(), '', token);
      const alone = await singleUpload(versionId, token);
      expect(refused.statusCode, refused.body).toBe(status);
      expect(alone.statusCode).toBe(status);
      expect(errorOf(refused).code).toBe(errorOf(alone).code);
      if (code) expect(errorOf(refused).code).toBe(code);
    }
    expect(storedKeys(t)).toEqual(keysBefore);
  });
});

describe(`the per-file limit in a batch on ${testDb}`, () => {
  let t: TestApp;
  let artist: TestUser;
  let version: GameVersion;
  const limit = 100 * 1024;

  beforeAll(async () => {
    t = await createTestApp({ maxFileSizeBytes: limit });
    const admin = await createUser(t, RoleType.Admin);
    artist = await createUser(t);
    const game = await createGame(t, admin.token, {
      name: 'Limits',
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
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([
        { path: 'hero.png', content: await solidPng(40, 20) },
        { path: 'jump.wav', content: sfx('catch.wav') },
      ]),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    version = (
      await call(t, 'POST', '/api/game-versions', {
        token: artist.token,
        payload: { name: 'Limits look', description: 'Limits', gameId: game.id, userGamesId: userGame.id },
      })
    ).json<GameVersion>();
  });
  afterAll(async () => t?.close());

  const send = (payload: FormData) =>
    t.app.inject({
      method: 'POST',
      url: `/api/game-versions/${version.id}/batch`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload,
    });

  it('a file over the per-file limit is one refused row (too_large), the others are stored', async () => {
    const response = await send(
      batchForm([
        { path: 'hero.png', content: await solidPng(40, 20, 'blue') },
        { path: 'jump.wav', content: Buffer.alloc(limit + 1) },
      ]),
    );
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<BatchAnswer>();
    expect(answer.rows.map((row) => [row.incoming, row.status, row.errorCode, row.outcome])).toEqual([
      ['hero.png', 'matched', null, 'replaced'],
      ['jump.wav', 'invalid', 'too_large', 'failed'],
    ]);
    expect(answer.rows[1]!.error).toBe('jump.wav is larger than the 100 KB limit per file.');
  });

  it('a zip with an entry over the per-file limit is refused whole (413), as the game zip upload refuses it', async () => {
    const zip = await zipOf([
      { path: 'hero.png', content: await solidPng(40, 20, 'green') },
      { path: 'jump.wav', content: Buffer.alloc(limit + 1) },
    ]);
    const response = await send(batchForm([{ path: 'mine.zip', content: zip }]));
    expect(response.statusCode, response.body).toBe(413);
    expect(errorOf(response).code).toBe('FILE_TOO_LARGE');
  });
});
