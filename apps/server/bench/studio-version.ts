// A studio's big game and the review work on a version of it, for the browser benches of the workbench and the
// review screen: 1,500 images (three of them sprite sheets with a TexturePacker descriptor), a version's 2,000
// notes with answers, resolved ones and notes on frames, and a version whose every file is replaced.
import sharp from 'sharp';
import type { GameFile, GameVersion, VersionFile } from '@reskin/contract';
import { eachLimited, random, type Preparation } from './browser-support';

/** The big game's images that are sprite sheets (their index among the 1,500), each with 64 frames of 120 px. */
const sheetIndexes = new Set([250, 750, 1250]);
const sheetSide = 1024;
const frameSide = 120;
const framesPerSide = 8;

export const frameNames = (sheet: number) =>
  Array.from(
    { length: framesPerSide ** 2 },
    (_, i) => `sheet-${sheet}/frame_${String(i).padStart(2, '0')}.png`,
  );

export interface ArtSpec {
  path: string;
  seed: number;
  width: number;
  height: number;
  format: 'png' | 'jpeg';
}

/**
 * 1,500 images from 34 to 2,048 px a side (most small: sprites and icons; a few full-screen backgrounds), two in
 * three PNG, drawn deterministically: about 320 MB, as the audit's studio game (316 MB). Three are 1,024 px sprite
 * sheets.
 */
export function bigGameSpecs(count: number): ArtSpec[] {
  const next = random(29);
  return Array.from({ length: count }, (_, i) => {
    const side = 34 * (2048 / 34) ** (next() ** 2.1);
    const aspect = 0.5 + next() * 1.5;
    const folder = `big-game/assets/img/${String(Math.floor(i / 100)).padStart(2, '0')}`;
    if (sheetIndexes.has(i))
      return {
        path: `${folder}/sheet-${i}.png`,
        seed: i + 1,
        width: sheetSide,
        height: sheetSide,
        format: 'png',
      };
    const width = Math.min(2048, Math.max(34, Math.round(side)));
    const height = Math.min(2048, Math.max(34, Math.round(side / aspect)));
    const format = i % 3 === 0 ? ('jpeg' as const) : ('png' as const);
    return {
      path: `${folder}/art-${i}.${format === 'jpeg' ? 'jpg' : 'png'}`,
      seed: i + 1,
      width,
      height,
      format,
    };
  });
}

/** A TexturePacker JSON hash beside each sheet: 8 x 8 frames of 120 px with 4 px between them. */
export function sheetDescriptors(specs: ArtSpec[]): { path: string; content: Buffer }[] {
  return [...sheetIndexes].map((index) => {
    const sheet = specs[index]!;
    const name = sheet.path.split('/').at(-1)!;
    const frames = Object.fromEntries(
      frameNames(index).map((frame, i) => {
        const rect = {
          x: 4 + (i % framesPerSide) * (frameSide + 4),
          y: 4 + Math.floor(i / framesPerSide) * (frameSide + 4),
          w: frameSide,
          h: frameSide,
        };
        const whole = { w: frameSide, h: frameSide };
        return [
          frame,
          {
            frame: rect,
            rotated: false,
            trimmed: false,
            spriteSourceSize: { x: 0, y: 0, ...whole },
            sourceSize: whole,
          },
        ];
      }),
    );
    const descriptor = {
      frames,
      meta: { image: name, format: 'RGBA8888', size: { w: sheetSide, h: sheetSide }, scale: '1' },
    };
    return { path: sheet.path.replace(/\.png$/, '.json'), content: Buffer.from(JSON.stringify(descriptor)) };
  });
}

/** The game's sheets as the notes and frame uploads name them: the sheet's file id and its frames. */
export function sheetsOfGame(specs: ArtSpec[], files: GameFile[]): { fileId: number; frames: string[] }[] {
  return [...sheetIndexes].map((index) => {
    const file = files.find((f) => f.path === specs[index]!.path);
    if (!file) throw new Error(`the game has no ${specs[index]!.path}`);
    return { fileId: file.fileId, frames: frameNames(index) };
  });
}

const phrases = [
  'The outline is thicker than the original; keep it at 2 px.',
  'Colours are off against the background: warmer, please.',
  'Looks good.',
  'Can you check the transparency around the edges? There is a halo on dark backgrounds.',
  'This one is still the placeholder.',
  'The shadow falls the other way in the rest of the set.',
  'Fixed in the latest upload.',
  'Is the glow part of the sprite or added by the game?',
  'Matches the style guide now, thanks.',
  'Please keep the silhouette readable at 50 %: the details merge into one shape.',
];

/** A note's text of one to three phrases, now and then over two lines (as people write them). */
function noteText(next: () => number): string {
  const parts = Array.from(
    { length: 1 + Math.floor(next() * 3) },
    () => phrases[Math.floor(next() * phrases.length)]!,
  );
  return parts.join(next() < 0.2 ? '\n' : ' ');
}

export interface StudioNotes {
  versionId: number;
  /** The game's image file ids (notes fall on some more than others). */
  fileIds: number[];
  sheets: { fileId: number; frames: string[] }[];
  reviewerId: number;
  artistId: number;
  /** Notes in all, answers included. */
  count: number;
}

/**
 * A version's notes as a studio's review leaves them, straight into the table (as the API bench seeds users: the
 * routes' rate limit allows a few notes a minute): 60 % first notes, 40 % answers to them; 2 % on the version as a
 * whole, 10 % on sheets' frames, the rest on files, a few files with many; over half the first notes resolved
 * (marked, answered or by a replacement); written over the last 45 days by the reviewer and the artist.
 */
export async function seedStudioNotes(preparation: Preparation, seed: StudioNotes): Promise<void> {
  const next = random(57);
  const firstCount = Math.round(seed.count * 0.6);
  const started = Date.now() - 45 * 24 * 3600_000;
  const at = (i: number) => new Date(started + (i / seed.count) * 44 * 24 * 3600_000).toISOString();
  // A fixed shuffle of the files; then the notes fall on the front of it more often (a few files with many notes).
  const shuffled = [...seed.fileIds];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const firstNotes = Array.from({ length: firstCount }, (_, i) => {
    const place = next();
    let fileId: number | null = shuffled[Math.floor(shuffled.length * next() ** 1.6)]!;
    let frame: string | null = null;
    if (place < 0.02) fileId = null;
    else if (place < 0.12) {
      const sheet = seed.sheets[Math.floor(next() * seed.sheets.length)]!;
      fileId = sheet.fileId;
      frame = sheet.frames[Math.floor(next() * sheet.frames.length)]!;
    }
    const byReviewer = next() < 0.8;
    const resolved = next() < 0.55;
    const how = next();
    return {
      versionId: seed.versionId,
      fileId,
      frame,
      replyTo: null,
      authorId: byReviewer ? seed.reviewerId : seed.artistId,
      text: noteText(next),
      resolvedAt: resolved ? at(i + 1) : null,
      resolvedBy: resolved ? (byReviewer ? seed.artistId : seed.reviewerId) : null,
      resolvedHow: resolved ? (how < 0.4 ? 'answered' : how < 0.8 ? 'marked' : 'replaced') : null,
      createdAt: at(i),
      updatedAt: at(i),
    };
  });
  const db = preparation.db;
  for (let start = 0; start < firstNotes.length; start += 100)
    await db
      .insertInto('notes')
      .values(firstNotes.slice(start, start + 100))
      .execute();
  const threads = await db
    .selectFrom('notes')
    .select(['id', 'fileId', 'frame', 'authorId'])
    .where('versionId', '=', seed.versionId)
    .where('replyTo', 'is', null)
    .orderBy('id')
    .execute();
  const answers = Array.from({ length: seed.count - firstCount }, (_, i) => {
    const thread = threads[Math.floor(threads.length * next())]!;
    const stamp = at(firstCount + i);
    return {
      versionId: seed.versionId,
      fileId: thread.fileId,
      frame: thread.frame,
      replyTo: thread.id,
      authorId:
        next() < 0.7
          ? thread.authorId === seed.reviewerId
            ? seed.artistId
            : seed.reviewerId
          : thread.authorId,
      text: noteText(next),
      resolvedAt: null,
      resolvedBy: null,
      resolvedHow: null,
      createdAt: stamp,
      updatedAt: stamp,
    };
  });
  for (let start = 0; start < answers.length; start += 100)
    await db
      .insertInto('notes')
      .values(answers.slice(start, start + 100))
      .execute();
}

/** A plain image of a frame's size, for a frame's replacement. */
const frameImage = (seed: number) =>
  sharp({
    create: {
      width: frameSide,
      height: frameSide,
      channels: 4,
      background: { r: (seed * 53) % 256, g: (seed * 97) % 256, b: 128, alpha: 1 },
    },
  })
    .png()
    .toBuffer();

/**
 * Every image of the game replaced in the version (with the original's own bytes: what the review screen costs does
 * not depend on what the pictures show), six frames of each sheet replaced instead of the whole sheet, and each
 * replacement's preview made (as the first look at it would), so no preview is made while the bench scrolls.
 */
export async function replaceEveryImage(
  preparation: Preparation,
  artistToken: string,
  version: GameVersion,
  files: GameFile[],
  art: { path: string; content: Buffer }[],
  sheets: { fileId: number; frames: string[] }[],
): Promise<void> {
  const contentOf = new Map(art.map((image) => [image.path, image.content]));
  const sheetIds = new Set(sheets.map((sheet) => sheet.fileId));
  const images = files.filter((file) => contentOf.has(file.path) && !sheetIds.has(file.fileId));
  await eachLimited(images, 2, async (file) => {
    const body = new FormData();
    body.append('fullPath', file.path);
    body.append('file', new Blob([new Uint8Array(contentOf.get(file.path)!)]), file.path.split('/').at(-1));
    await preparation.request<VersionFile>('POST', `/game-version/upload/${version.id}/${file.fileId}`, {
      token: artistToken,
      payload: body,
    });
  });
  for (const sheet of sheets) {
    for (const [i, frame] of sheet.frames.slice(0, 6).entries()) {
      const body = new FormData();
      body.append('frame', frame);
      body.append('file', new Blob([new Uint8Array(await frameImage(i + sheet.fileId))]), 'frame.png');
      await preparation.request('POST', `/game-version/upload-frame/${version.id}/${sheet.fileId}`, {
        token: artistToken,
        payload: body,
      });
    }
  }
  const replaced = await preparation.request<VersionFile[]>(
    'GET',
    `/game-versions/files/${version.id}/${version.gameId}`,
    { token: artistToken },
  );
  await eachLimited(replaced, 2, async (file) => {
    if (file.preview) await preparation.fetchPreview(file.preview);
  });
}
