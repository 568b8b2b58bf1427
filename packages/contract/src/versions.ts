import { z } from 'zod';
import { limits } from './limits';
import { validationMessages as m } from './messages';
import { UserGameType } from './roles';
import { searchFilterSchema } from './search';
import { isSafeName } from './text-safety';
import { idSchema, pathIdSchema } from './ids';
import { verdicts, versionReviewSchema } from './review-state';

/** Letters, digits, underscore, hyphen and whitespace (SPEC §5 version form). */
export const versionTextPattern = /^[A-Za-z0-9_\-\s]+$/;

export const userGameValidationMessages = {
  userId: 'Choose a user.',
  gameId: 'Choose a game.',
  userGameTypeId: 'Choose ReSkin or Sound Replace.',
  jobPrice: 'Enter a budget of 0 or more.',
} as const;
const ug = userGameValidationMessages;

const jobTypeSchema = z.union([z.literal(UserGameType.ReSkin), z.literal(UserGameType.SoundReplace)], {
  error: ug.userGameTypeId,
});
const jobPriceSchema = z
  .number({ error: ug.jobPrice })
  .min(0, { error: ug.jobPrice })
  .max(1_000_000_000, { error: ug.jobPrice });

/** POST /user-games: assign a game to a user. */
export const createUserGameBodySchema = z.object({
  userId: z.number({ error: ug.userId }).int({ error: ug.userId }).positive({ error: ug.userId }),
  gameId: z.number({ error: ug.gameId }).int({ error: ug.gameId }).positive({ error: ug.gameId }),
  userGameTypeId: jobTypeSchema,
  jobPrice: jobPriceSchema,
});
export type CreateUserGameBody = z.infer<typeof createUserGameBodySchema>;

/** PUT /user-games/{id}: the job type, budget and active flag of an assignment (its user and game stay). */
export const updateUserGameBodySchema = z.object({
  userGameTypeId: jobTypeSchema,
  jobPrice: jobPriceSchema,
  isActive: z.boolean().optional(),
});
export type UpdateUserGameBody = z.infer<typeof updateUserGameBodySchema>;

/** A user-game (SPEC §3), with its related user and game when asked for (`include`). */
export const userGameSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  gameId: z.number().int(),
  userGameTypeId: z.number().int(),
  jobPrice: z.number(),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** How many versions the assignment has (the review loop). */
  versionCount: z.number().int(),
  /** How many of them are Finished (gameVersionStatusId 2). */
  finishedCount: z.number().int(),
  /** When the newest Finished version was finished (ISO 8601), or null when none is. */
  lastFinishedAt: z.string().nullable(),
  /** Finished versions without a verdict since their last finish ("To review"). */
  toReviewCount: z.number().int(),
  /** Open notes on all its versions (threads' first notes not resolved). */
  openNotes: z.number().int(),
  /** The newest verdict among its versions (given since that version's last finish), and when; null when none. */
  lastVerdict: z.enum(verdicts).nullable(),
  lastVerdictAt: z.string().nullable(),
  /** The user's username and the game's name, which a search may name too (`where`, `order`). */
  username: z.string(),
  gameName: z.string(),
  user: z.object({ id: z.number().int(), username: z.string() }).optional(),
  game: z
    .object({
      id: z.number().int(),
      name: z.string(),
      description: z.string(),
      width: z.number().int(),
      height: z.number().int(),
      imagePath: z.string(),
      gameStatusTypeId: z.number().int(),
      /** The game's engine (as on the game), so the workbench can say why a packed build offers nothing to replace. */
      engine: z.string().nullable(),
    })
    .optional(),
});
export type UserGame = z.infer<typeof userGameSchema>;
export const userGameListSchema = z.array(userGameSchema.partial());

/** GET /user-games/my-games: the caller's active assignments, each with its game and card image URL. */
export const myGameSchema = userGameSchema.required({ game: true }).extend({
  /**
   * The splash's preview (decision 0038: WebP, watermarked for artists) on the app's own origin, one host
   * for every card; null when the game has none or is not Ready.
   */
  imageUrl: z.string().nullable(),
  /**
   * Of `openNotes`, the threads the artist started themself (their questions, waiting for a reviewer): they do not
   * wait for the artist, so My Games leaves them out of its count (notesWaitingForArtist, decision 0052).
   */
  openQuestions: z.number().int(),
});
export const myGamesSchema = z.array(myGameSchema);
export type MyGame = z.infer<typeof myGameSchema>;

/**
 * Columns of a user-game a search query may name (where, fields, order); `user` and `game` can be included.
 * From versionCount on they are computed by the server: search "username or game name" with
 * `{ or: [{ username: { like } }, { gameName: { like } }] }`, "has finished versions" with `{ finishedCount: { gt: 0 } }`,
 * "waits for review" with `{ toReviewCount: { gt: 0 } }`.
 */
export const userGameSearchColumns = [
  'id',
  'userId',
  'gameId',
  'userGameTypeId',
  'jobPrice',
  'isActive',
  'createdAt',
  'updatedAt',
  'versionCount',
  'finishedCount',
  'lastFinishedAt',
  'toReviewCount',
  'openNotes',
  'lastVerdict',
  'lastVerdictAt',
  'username',
  'gameName',
] as const;

const versionName = z
  .string({ error: m.versionName })
  .refine(isSafeName, { error: m.unsafeCharacters })
  .trim()
  .min(limits.versionName.min, { error: m.versionName })
  .max(limits.versionName.max, { error: m.versionName })
  .regex(versionTextPattern, { error: m.versionName });
const versionDescription = z
  .string({ error: m.versionDescription })
  .trim()
  .min(limits.versionDescription.min, { error: m.versionDescription })
  .max(limits.versionDescription.max, { error: m.versionDescription })
  .regex(versionTextPattern, { error: m.versionDescription });

/** The add/edit version form (SPEC §5). */
export const versionFormSchema = z.object({ name: versionName, description: versionDescription });
export type VersionForm = z.infer<typeof versionFormSchema>;

/** POST /game-versions */
export const createVersionBodySchema = versionFormSchema.extend({
  gameId: idSchema,
  userGamesId: idSchema,
  isLocked: z.literal(false).optional(),
});
export type CreateVersionBody = z.infer<typeof createVersionBodySchema>;

/** PATCH /game-versions/{id}: name and description. */
export const updateVersionBodySchema = versionFormSchema;

/**
 * A game version (SPEC §3). gameVersionStatusId: 1 In progress, 2 Finished. Every version answer carries its review
 * fields too (verdict, verdictNote, verdictAt, verdictByName, reviewState, openNotes).
 */
export const gameVersionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  gameId: z.number().int(),
  userGamesId: z.number().int(),
  userId: z.number().int(),
  isLocked: z.boolean(),
  isActive: z.boolean(),
  gameVersionStatusId: z.number().int(),
  finishedAt: z.string().nullable(),
  rootPath: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  ...versionReviewSchema.shape,
});
export type GameVersion = z.infer<typeof gameVersionSchema>;
export const gameVersionListSchema = z.array(gameVersionSchema);

/**
 * POST /game-versions/filter: the versions of a user, a game or a user-game (all given keys must match), with the
 * search query's where (on `versionSearchColumns`), order, limit and skip for a page of them.
 */
export const versionFilterBodySchema = z
  .object({
    userId: idSchema.optional(),
    gameId: idSchema.optional(),
    userGamesId: idSchema.optional(),
    ...searchFilterSchema.pick({ where: true, order: true, limit: true, skip: true }).shape,
  })
  .strict();
export type VersionFilterBody = z.infer<typeof versionFilterBodySchema>;

/** Columns of a version that POST /game-versions/filter's where and order may name. */
export const versionSearchColumns = [
  'id',
  'name',
  'description',
  'gameId',
  'userGamesId',
  'userId',
  'isLocked',
  'isActive',
  'gameVersionStatusId',
  'finishedAt',
  'createdAt',
  'updatedAt',
] as const;

/** POST /game-versions/done: "I Finished My Game". */
export const versionDoneBodySchema = z.object({ id: idSchema });

/** A replaced file of a version (SPEC §3 "Version file"). */
export const versionFileSchema = z.object({
  id: z.number().int(),
  fileId: z.number().int(),
  path: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  size: z.number().int(),
  contentType: z.string(),
  updatedAt: z.string(),
  /**
   * False when the game's file has since been replaced with another pixel size (allowed for formats other than
   * png and jpg) and this replacement no longer matches it: its artist is told to replace it again.
   */
  fits: z.boolean(),
  /** For a sprite sheet: the names of the frames this version replaced in it, composed into this file. */
  frames: z.array(z.string()).optional(),
  /** The replacement's preview (decision 0038) for the workbench card; null for no raster image, left out where not carried. */
  preview: z.string().nullable().optional(),
});
export type VersionFile = z.infer<typeof versionFileSchema>;

/** The answer of POST /game-version/upload-frame: the version's composed sheet, and what the artist should know. */
export const frameUploadSchema = versionFileSchema.extend({
  /** Said when the replacement had visible pixels outside the frame's trimmed area, which the sheet drops. */
  notice: z.string().nullable(),
});
export type FrameUpload = z.infer<typeof frameUploadSchema>;

/** DELETE /game-versions/{versionId}/files/{fileId}/frames/{frameName}: one frame of a sheet in a version. */
export const versionFrameParamsSchema = z.object({
  versionId: pathIdSchema,
  fileId: pathIdSchema,
  frameName: z.string().min(1).max(500),
});

/**
 * The multipart body of POST /game-version/upload-frame/{versionId}/{fileId}: the frame's name first, then the image.
 * The server reads the file as a stream and parses the fields before it with this schema.
 */
export const frameUploadPartsSchema = z.object({
  frame: z
    .string({ error: 'The frame field (sent before the file) is missing.' })
    .min(1, 'The frame field (sent before the file) is missing.')
    .describe("The frame's name as GET /games/{gameId}/atlases gives it; sent before the file."),
  file: z.file().describe("The frame's new image, of the frame's source size (its full, untrimmed size)."),
});
export const versionFileListSchema = z.array(versionFileSchema);

export const versionParamsSchema = z.object({ id: pathIdSchema, gameId: pathIdSchema });
/**
 * A version and one file of its game (`fileId` is the game file's id): POST /game-version/upload/{versionId}/{fileId}
 * and DELETE /game-versions/{versionId}/files/{fileId}.
 */
export const versionFileParamsSchema = z.object({ versionId: pathIdSchema, fileId: pathIdSchema });

/**
 * The multipart/form-data body of POST /game-version/upload/{versionId}/{fileId}. The server reads the first file
 * part as a stream and parses the fields before it with this schema.
 */
export const versionUploadPartsSchema = z.object({
  fullPath: z
    .string()
    .optional()
    .describe("The game file's path, as the client knows it; the server goes by {fileId}."),
  file: z
    .file()
    .describe(
      "The replacement: an image of the original's width and height for an image, audio for an audio file.",
    ),
});
export const listVersionsParamsSchema = z.object({ gameId: pathIdSchema, userGameId: pathIdSchema });
