import { z } from 'zod';
import { limits } from './limits';
import { validationMessages } from './messages';
import { isSafeName } from './text-safety';
import { GameStatus } from './roles';
import { idParamSchema, pathIdSchema } from './ids';
import { gameEngineNames } from './engines';
import { gamePlaySettingsSchema, isolatedSettings, precompressedSettings } from './play-settings';

/** Texts of the game forms' rules (SPEC §5 "Add game", "Edit game"; the spec gives no wording of its own). */
export const gameValidationMessages = {
  name: `Name is required (at most ${limits.game.nameMax} characters).`,
  description: `Description is required (at most ${limits.game.descriptionMax} characters).`,
  width: `Width must be a whole number from ${limits.game.minWidth} to ${limits.game.maxWidth}.`,
  height: `Height must be a whole number from ${limits.game.minHeight} to ${limits.game.maxHeight}.`,
  status: 'Status must be 1 or more.',
  isActive: 'Active must be true or false.',
} as const;

const m = gameValidationMessages;

const nameSchema = z
  .string({ error: m.name })
  .refine(isSafeName, { error: validationMessages.unsafeCharacters })
  .trim()
  .min(1, { error: m.name })
  .max(limits.game.nameMax, { error: m.name });
const descriptionSchema = z
  .string({ error: m.description })
  .trim()
  .min(1, { error: m.description })
  .max(limits.game.descriptionMax, { error: m.description });
const widthSchema = z
  .number({ error: m.width })
  .int({ error: m.width })
  .min(limits.game.minWidth, { error: m.width })
  .max(limits.game.maxWidth, { error: m.width });
const heightSchema = z
  .number({ error: m.height })
  .int({ error: m.height })
  .min(limits.game.minHeight, { error: m.height })
  .max(limits.game.maxHeight, { error: m.height });

/** POST /games */
export const createGameBodySchema = z.object({
  name: nameSchema,
  description: descriptionSchema,
  width: widthSchema,
  height: heightSchema,
});
export type CreateGameBody = z.infer<typeof createGameBodySchema>;

/**
 * PATCH /games/{id}: the inline edit. imagePath and rootPath are sent empty when missing; the server manages
 * them (the splash sets imagePath), so they are accepted and ignored. The status can only be set back to
 * Draft by hand: Ready, Generating and Failed come from generation.
 */
export const updateGameBodySchema = z.object({
  name: nameSchema,
  description: descriptionSchema,
  width: widthSchema,
  height: heightSchema,
  gameStatusTypeId: z.number({ error: m.status }).int({ error: m.status }).min(1, { error: m.status }),
  isActive: z.boolean({ error: m.isActive }),
  imagePath: z.string().max(1000).optional(),
  rootPath: z.string().max(1000).optional(),
  /** The play settings (decision 0022); left out, each keeps its value. */
  precompressed: z.enum(precompressedSettings).optional(),
  isolated: z.enum(isolatedSettings).optional(),
});
export type UpdateGameBody = z.infer<typeof updateGameBodySchema>;

export const gameStatusIds = [
  GameStatus.Draft,
  GameStatus.Ready,
  GameStatus.Generating,
  GameStatus.Failed,
] as const;

/** The word shown for a status (SPEC §2 admin games: "Status shows as a word, not a number"). */
export function gameStatusName(id: number): string {
  return { 1: 'Draft', 2: 'Ready', 3: 'Generating', 4: 'Failed' }[id] ?? 'Unknown';
}

/**
 * What the games list and the files screen say of a Ready game whose changed files are getting their copies
 * (decision 0024) instead of its status word; undefined when it has none to make.
 */
export function copiesUpdatingText(game: {
  gameStatusTypeId: number;
  copiesCurrent?: number | undefined;
  copiesTotal?: number | undefined;
}): string | undefined {
  if (
    game.gameStatusTypeId !== GameStatus.Ready ||
    game.copiesCurrent === undefined ||
    game.copiesTotal === undefined
  )
    return undefined;
  if (game.copiesCurrent >= game.copiesTotal) return undefined;
  return `Updating copies (${game.copiesCurrent} of ${game.copiesTotal})`;
}

/** A game as the API shows it (SPEC §3), with its play settings. */
export const gameSchema = gamePlaySettingsSchema.extend({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  gameStatusTypeId: z.number().int(),
  /** Why the last generation failed (status 4), else null. */
  statusReason: z.string().nullable(),
  isActive: z.boolean(),
  /** The splash image's path inside the game, '' when none is marked. */
  imagePath: z.string(),
  rootPath: z.string(),
  /** While Generating (3): the images whose copies are made so far, and the images in all (null until counted). */
  generationDone: z.number().int().nullable(),
  generationTotal: z.number().int().nullable(),
  /**
   * The game's images whose generated copies are current, and its images in all (decision 0024): a Ready
   * game whose changed files are getting their copies shows "Updating copies (current of total)". Left out where
   * the answer does not carry them (a search that did not ask for the status).
   */
  copiesCurrent: z.number().int().optional(),
  copiesTotal: z.number().int().optional(),
  /**
   * The engine the game's files were built with, recognised from their names and the heads of their loaders
   * (one of gameEngineNames: Unity, Godot, Defold, emscripten, Construct, ...), or null when none was
   * recognised. Recomputed whenever the game's files change.
   */
  engine: z
    .string()
    .nullable()
    .describe(
      `The engine the game's files were built with (${gameEngineNames.join(', ')}), or null when none was recognised.`,
    ),
  /**
   * The splash's thumbnail (decision 0038) on the app's own origin, for the games list: null when the
   * game has no splash. Left out where the answer does not carry it.
   */
  thumbnailUrl: z.string().nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Game = z.infer<typeof gameSchema>;
export const gameListResponseSchema = z.array(gameSchema.partial());

/** Columns of a game that a search query may name. */
export const gameSearchColumns = [
  'id',
  'name',
  'description',
  'width',
  'height',
  'gameStatusTypeId',
  'isActive',
  'generationDone',
  'generationTotal',
  'engine',
  'precompressed',
  'precompressedDecided',
  'isolated',
  'isolatedDecided',
  'createdAt',
  'updatedAt',
] as const;

/**
 * An image's small copies (decision 0038): WebP on the app's own origin, lazy-loaded, each URL the same
 * for the same content (so browsers keep them) and valid for the caller only for a while.
 */
export const imagePreviewsSchema = z.object({
  /** The image as the caller sees it (the watermarked copy for artists, the original for admins), limits.imagePreviews.previewPixels at most. */
  preview: z.string(),
  /** The image's skeleton copy, as small. */
  skeletonPreview: z.string(),
  /** The original for the admin's tables (the watermarked copy for others), limits.imagePreviews.thumbnailPixels at most. */
  thumbnail: z.string(),
});
export type ImagePreviews = z.infer<typeof imagePreviewsSchema>;

/** A file of a game (SPEC §3 GameFile). `fileId` is stable within the game across replacements. */
export const gameFileSchema = z.object({
  id: z.number().int(),
  gameId: z.number().int(),
  fileId: z.number().int(),
  path: z.string(),
  isStartFile: z.boolean(),
  isSplash: z.boolean(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  size: z.number().int(),
  contentType: z.string(),
  updatedAt: z.string(),
  /** The image's small copies; null for a file that is no raster image, left out where not carried. */
  previews: imagePreviewsSchema.nullable().optional(),
});
export type GameFile = z.infer<typeof gameFileSchema>;
export const gameFileListSchema = z.array(gameFileSchema);

/**
 * `?after=&limit=` of GET /games/{id}/files, /games/{id}/usage and /game-versions/files/{id}/{gameId} (decision 0063):
 * the files whose path comes after `after` in the list's path order, at most `limit`; without them, every file, as
 * before. A page shorter than its limit is the last; the next starts after its last path.
 */
export const filePageQuerySchema = z.object({
  after: z
    .string()
    .min(1, { error: 'expected a path' })
    .max(limits.gameFilePathMax, { error: `expected a path of at most ${limits.gameFilePathMax} characters` })
    .optional(),
  limit: z.coerce
    .number({ error: 'expected a whole number' })
    .int({ error: 'expected a whole number' })
    .min(1, { error: 'expected a number above 0' })
    .max(limits.filePages.limitMax, { error: `expected at most ${limits.filePages.limitMax}` })
    .optional(),
});
export type FilePageQuery = z.infer<typeof filePageQuerySchema>;

/** POST /games/{id}/files/filter answers a page of the game's files, possibly reduced to the requested `fields`. */
export const gameFileSearchResponseSchema = z.array(gameFileSchema.partial());

/** Columns of a game file that a search query may name (POST /games/{id}/files/filter). */
export const gameFileSearchColumns = [
  'id',
  'fileId',
  'path',
  'isStartFile',
  'isSplash',
  'width',
  'height',
  'size',
  'contentType',
  'updatedAt',
  // The play usage record: where and order only; GET /games/{id}/usage answers them.
  'loads',
  'atStart',
] as const;

/** POST /game/upload/{gameId}: what one uploaded file became. */
export const uploadResultSchema = z.object({ file: gameFileSchema, replaced: z.boolean() });

/**
 * The multipart/form-data body of POST /game/upload/{gameId} and POST /games/{id}/psd-files/: a `fullPath` field
 * before each `file` part. The server reads the parts as a stream, in order, and parses each field by this schema
 * as it comes (a list here: each value by its items). A path's own rules (at most limits.gameFilePathMax
 * characters once normalised, relative, no "..") are the upload's, answered per file (422 invalid_path).
 */
export const filesUploadPartsSchema = z.object({
  fullPath: z
    .array(z.string())
    .optional()
    .describe(
      `Each file's path inside the game (assets/img/bird.png, at most ${limits.gameFilePathMax} characters), sent just before that file; without one, the file's name.`,
    ),
  file: z.array(z.file()).min(1).max(limits.adminUploadFiles).describe('The files, each after its fullPath.'),
});

/**
 * The multipart/form-data body of POST /game/upload-zip/{gameId}: one `file` part, a .zip of the game folder, read
 * as a stream (the server parses the fields before it, of which there are none, with this schema).
 */
export const zipUploadPartsSchema = z.object({
  file: z
    .file()
    .describe(
      'A .zip of the game folder (up to 1000 files). Folders and macOS junk (__MACOSX/, .DS_Store) are skipped; ' +
        'when every entry is inside one top folder (mygame/index.html), that folder is left out.',
    ),
});

/** The play URLs of GET /games/{id}/path/ and GET /game-versions/path/{id}/{gameId} (SPEC §3 "Game path info"). */
export const gamePathSchema = z.object({
  rootPath: z.string(),
  /** The user version's view (for a game: the original for admins, else the watermarked view). */
  orjFile: z.string(),
  /** The skeleton view. */
  emtFile: z.string(),
  /** The original view for admins, the watermarked view for everyone else. */
  wtmFile: z.string(),
  /**
   * Whether the game is served cross-origin isolated (its `isolated` setting, or what detection decided): its
   * play screen must then be a cross-origin-isolated document and its frame allow `cross-origin-isolated`.
   */
  isolated: z.boolean(),
});
export type GamePath = z.infer<typeof gamePathSchema>;

/**
 * GET /games/{id}/files-root: the root of the game's original view on the play origin, whatever its status, for
 * the admin's thumbnails (`rootPath` + each image's percent-encoded path).
 */
export const gameFilesRootSchema = z.object({ rootPath: z.string() });
export type GameFilesRoot = z.infer<typeof gameFilesRootSchema>;

/** GET /games/{id}/psd-files/: the helper files of a game (SPEC §3 "Downloadable helper files"). */
export const helperFilesSchema = z.object({
  path: z.string(),
  files: z.array(
    z.object({ id: z.number().int(), name: z.string(), size: z.number().int(), url: z.string() }),
  ),
});

/** Answer of the calls the spec says return "text". */
export const messageResponseSchema = z.object({ message: z.string() });

export const gameIdParamSchema = idParamSchema;
export const gameFileParamsSchema = z.object({ id: pathIdSchema, fileId: pathIdSchema });
/** A helper file of a game: /games/{id}/psd-files/{helperId}. */
export const helperFileParamsSchema = z.object({ id: pathIdSchema, helperId: pathIdSchema });
