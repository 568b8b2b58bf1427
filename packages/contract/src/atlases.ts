import { z } from 'zod';
import { limits } from './limits';

/**
 * Sprite sheets and atlases: one model for every descriptor format a game may pack its sprites with.
 * A descriptor (a TexturePacker JSON, a Starling XML, a libGDX/Spine `.atlas`, a Cocos2d `.plist`, or a grid
 * declared on an image) names one or more pages (sheet images) and the frames cut from them.
 *
 * Coordinates are pixels with the origin at the top left of the page, whatever the format writes (libGDX counts
 * its offsets from the bottom; Cocos2d from the centre): the parsers turn them into this one form.
 */
export const atlasFormats = [
  'texturepacker-hash',
  'texturepacker-array',
  'phaser-multiatlas',
  'starling',
  'libgdx',
  'cocos-plist',
  'grid',
] as const;
export type AtlasFormat = (typeof atlasFormats)[number];

/** What each format is called on screen. */
export const atlasFormatLabels: Record<AtlasFormat, string> = {
  'texturepacker-hash': 'TexturePacker JSON (hash)',
  'texturepacker-array': 'TexturePacker JSON (array)',
  'phaser-multiatlas': 'Phaser 3 multi-atlas',
  starling: 'Starling / Sparrow XML',
  libgdx: 'libGDX / Spine atlas',
  'cocos-plist': 'Cocos2d plist',
  grid: 'Uniform grid',
};

const size = z.object({ w: z.number().int(), h: z.number().int() });
const point = z.object({ x: z.number(), y: z.number() });
const rect = z.object({ x: z.number().int(), y: z.number().int(), w: z.number().int(), h: z.number().int() });
export type AtlasRect = z.infer<typeof rect>;
export type AtlasSize = z.infer<typeof size>;

/** Clockwise turns the packer gave a sprite on its page: 90 is TexturePacker's `rotated`, 270 libGDX's `rotate`. */
export const atlasRotations = [0, 90, 180, 270] as const;
export type AtlasRotation = (typeof atlasRotations)[number];

export const atlasFrameSchema = z.object({
  /** Unique within its atlas: the descriptor's name, with `#index` for libGDX regions that share a name. */
  name: z.string(),
  /** Index into the atlas's pages. */
  page: z.number().int(),
  /** The pixels the frame occupies on its page, as stored (a rotated frame's w and h are as on the page). */
  rect,
  rotated: z.boolean(),
  /** How far (clockwise) the sprite is turned on the page; 0 when not rotated. */
  rotation: z.union(
    atlasRotations.map((degrees) => z.literal(degrees)) as [
      z.ZodLiteral<0>,
      z.ZodLiteral<90>,
      z.ZodLiteral<180>,
      z.ZodLiteral<270>,
    ],
  ),
  /** The packer cut away transparent borders: the page holds only `offset` + the trimmed size of the sprite. */
  trimmed: z.boolean(),
  /** The sprite's full size: a replacement of this frame must have it. */
  sourceSize: size,
  /** Where the stored (trimmed) pixels sit within the sprite's full size, from its top left. */
  offset: point,
  /** The pivot as the descriptor gives it (TexturePacker's normalised `pivot`), else null. */
  pivot: point.nullable(),
});
export type AtlasFrame = z.infer<typeof atlasFrameSchema>;

export const atlasPageSchema = z.object({
  /** The sheet image's path in the game (resolved relative to the descriptor). */
  image: z.string(),
  /** The game file id of the image. */
  fileId: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
});
export type AtlasPage = z.infer<typeof atlasPageSchema>;

export const atlasSchema = z.object({
  /** The descriptor's path in the game (for a grid: the image's own path). */
  descriptor: z.string(),
  /** The descriptor's game file id. */
  descriptorFileId: z.number().int(),
  format: z.enum(atlasFormats),
  pages: z.array(atlasPageSchema),
  frames: z.array(atlasFrameSchema),
});
export type Atlas = z.infer<typeof atlasSchema>;

/**
 * A file that reads as a descriptor but cannot be used, with why (shown on the game files screen); or, with
 * `used`, a sheet that is used with a part of it left out (a frame's unreadable pivot), with what and why.
 */
export const atlasProblemSchema = z.object({
  path: z.string(),
  fileId: z.number().int(),
  problem: z.string(),
  /** True: the sheet is used all the same, without what the problem names. */
  used: z.boolean(),
});
export type AtlasProblem = z.infer<typeof atlasProblemSchema>;

/** GET /games/{gameId}/atlases: the recognised sheets with their frames, and the descriptors that failed. */
export const gameAtlasesSchema = z.object({
  atlases: z.array(atlasSchema),
  problems: z.array(atlasProblemSchema),
});
export type GameAtlases = z.infer<typeof gameAtlasesSchema>;

/** A uniform grid declared on an image, for games that slice a sheet in code. */
export const atlasGridSchema = z.object({
  frameWidth: z.number().int().min(1).max(4096),
  frameHeight: z.number().int().min(1).max(4096),
  margin: z.number().int().min(0).max(4096).default(0),
  spacing: z.number().int().min(0).max(4096).default(0),
});
export type AtlasGrid = z.infer<typeof atlasGridSchema>;

/** The size of the sprite as stored on its page before its rotation (the rect's w and h swap when turned 90 or 270). */
export function storedSpriteSize(frame: Pick<AtlasFrame, 'rect' | 'rotation'>): AtlasSize {
  const turned = frame.rotation === 90 || frame.rotation === 270;
  return turned ? { w: frame.rect.h, h: frame.rect.w } : { w: frame.rect.w, h: frame.rect.h };
}

/**
 * The frames of a uniform grid on an image of `width` x `height`: row by row from the top left, named by their
 * number from 0, as Phaser's and melonJS's spritesheet loaders number them. Only whole frames count.
 */
export function gridFrames(width: number, height: number, grid: AtlasGrid): AtlasFrame[] {
  const frames: AtlasFrame[] = [];
  const { frameWidth: w, frameHeight: h, margin, spacing } = grid;
  for (let y = margin; y + h <= height - margin; y += h + spacing) {
    for (let x = margin; x + w <= width - margin; x += w + spacing) {
      frames.push({
        name: String(frames.length),
        page: 0,
        rect: { x, y, w, h },
        rotated: false,
        rotation: 0,
        trimmed: false,
        sourceSize: { w, h },
        offset: { x: 0, y: 0 },
        pivot: null,
      });
    }
  }
  return frames;
}

/** How many whole frames a grid cuts from an image of `width` x `height` (gridFrames without making them). */
export function gridFrameCount(width: number, height: number, grid: AtlasGrid): number {
  const along = (side: number, frame: number, margin: number, spacing: number) =>
    side - 2 * margin < frame ? 0 : Math.floor((side - 2 * margin - frame) / (frame + spacing)) + 1;
  return (
    along(width, grid.frameWidth, grid.margin, grid.spacing) *
    along(height, grid.frameHeight, grid.margin, grid.spacing)
  );
}

/**
 * Why a grid cannot be used on an image of `width` x `height`, or null when it can: it must cut at least one
 * whole frame and at most limits.atlas.maxFrames. The server's 422 and the grid form say the same words.
 */
export function gridProblem(width: number, height: number, grid: AtlasGrid): string | null {
  const count = gridFrameCount(width, height, grid);
  if (count === 0) {
    return `A ${grid.frameWidth}×${grid.frameHeight} frame with a margin of ${grid.margin} px does not fit in the ${width}×${height} image.`;
  }
  if (count > limits.atlas.maxFrames) {
    return `The grid cuts ${count} frames; a sheet may have at most ${limits.atlas.maxFrames}.`;
  }
  return null;
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The texts of sprite sheets on the web's screens. */
export const atlasTexts = {
  /** The badge of a sheet image on the game files screen. */
  sheetBadge: (frames: number, format: AtlasFormat) =>
    `Sprite sheet · ${counted(frames, 'frame', 'frames')} · ${atlasFormatLabels[format]}`,
  /** A descriptor (or a grid) that cannot be used, on its row. */
  notUsed: (problem: string) => `Not used as a sprite sheet: ${problem}`,
  /** A sheet used with a part of it left out, on its row. */
  partlyUsed: (problem: string) => `Used as a sprite sheet, but: ${problem}`,
  /** A problem line in the words its `used` calls for. */
  problemLine: (problem: { problem: string; used: boolean }) =>
    problem.used ? atlasTexts.partlyUsed(problem.problem) : atlasTexts.notUsed(problem.problem),
  /** "Find sprite sheets" done: `problems` counts the files not used (problems without `used`). */
  found: (sheets: number, problems: number) =>
    `Found ${counted(sheets, 'sprite sheet', 'sprite sheets')}${problems > 0 ? `; ${counted(problems, 'file', 'files')} not used as sprite sheets` : ''}.`,
  gridDeclared: (path: string, frames: number) =>
    `${path} is a sprite sheet of ${counted(frames, 'frame', 'frames')}.`,
  gridRemoved: (path: string) => `${path} is a plain image again.`,
  confirmRemoveGrid: (path: string) => `Remove the grid of ${path}? It becomes a plain image again.`,
  /** The grid form's live count. */
  gridCount: (frames: number) => `${counted(frames, 'whole frame', 'whole frames')}`,
} as const;

/** One sheet image as a page of one atlas: the atlas, the page's index and the frames cut from it. */
export interface SheetOf {
  atlas: Atlas;
  page: number;
  frames: AtlasFrame[];
}

/**
 * Every atlas a game image is a page of (a descriptor's sheet, a grid, or both), with its frames on that page: the
 * one walk from an image to its frames, for the server (composing, marking the watermarked copy) and the web.
 */
export function sheetsOf(atlases: readonly Atlas[], fileId: number): SheetOf[] {
  const sheets: SheetOf[] = [];
  for (const atlas of atlases) {
    atlas.pages.forEach((page, index) => {
      if (page.fileId === fileId)
        sheets.push({ atlas, page: index, frames: atlas.frames.filter((frame) => frame.page === index) });
    });
  }
  return sheets;
}

/**
 * The frames that lie on a sheet image (a page of one or more atlases), by name (the first atlas's frame wins a
 * name two share): what the server composes and the workbench shows.
 */
export function framesOfSheet(
  atlases: readonly Atlas[],
  fileId: number,
): { frames: Map<string, AtlasFrame>; found: boolean } {
  const frames = new Map<string, AtlasFrame>();
  const sheets = sheetsOf(atlases, fileId);
  for (const sheet of sheets)
    for (const frame of sheet.frames) if (!frames.has(frame.name)) frames.set(frame.name, frame);
  return { frames, found: sheets.length > 0 };
}
