import { z } from 'zod';
import type { FileKind } from './file-kinds';
import { pathIdSchema } from './ids';
import { limits } from './limits';
import { formatByteLimit, uploadMessages } from './uploads';

/**
 * Replace from a folder or a zip (decision 0030): POST /game-versions/{versionId}/batch.
 *
 * The request is multipart/form-data: for each incoming file a `path` field (its path relative to the dropped
 * folder, as `webkitRelativePath` or a folder walk gives it) followed by its `file` part, or one `.zip` file part.
 * A file part without a `path` before it goes by its file name. The options may be form fields or query
 * parameters: `dryRun`, `fit`, `fits`, `choices`, `skip`, `loudness` (below).
 *
 * `dryRun=true` answers the plan and stores nothing; otherwise the server applies every row it can and answers
 * each row's outcome. One row's failure never loses the others. A client that wants progress per row may send the
 * chosen rows in several smaller requests: each answers its own rows.
 */

/** How a replacement of another pixel size is made to the original's size. */
export const fitModes = ['cover', 'contain', 'stretch'] as const;
export type FitMode = (typeof fitModes)[number];
export const fitModeLabels: Record<FitMode, string> = {
  cover: 'Cover (fill and crop, centred)',
  contain: 'Contain (transparent padding)',
  stretch: 'Stretch',
};

export const loudnessModes = ['keep', 'match'] as const;
export type LoudnessMode = (typeof loudnessModes)[number];

/** What the plan says of a row. */
export const batchRowStatuses = [
  /** Same kind, format and size as the original: stored as it is. */
  'matched',
  /** An image of another pixel size: stored fitted with `fit` (refused without it). */
  'needs_fit',
  /** Another format of the same kind (a PNG for a .jpg, a WAV for an .ogg): converted to the original's. */
  'needs_conversion',
  /** Several game files (or frames) fit the name: `choices` picks one. */
  'ambiguous',
  /** No game file or frame has its path or name. */
  'unmatched',
  /** The matched game file is neither an image nor a sound. */
  'not_replaceable',
  /** The incoming file cannot replace its match: unreadable, of the other kind, too large (see `error`). */
  'invalid',
] as const;
export type BatchRowStatus = (typeof batchRowStatuses)[number];

/** How a row found its game file: `choice` when `choices` named it. */
export const batchMatchedBy = ['path', 'name', 'frame', 'choice'] as const;
export type BatchMatchedBy = (typeof batchMatchedBy)[number];

/** What a row did when the batch was applied. */
export const batchOutcomes = ['replaced', 'skipped', 'failed'] as const;
export type BatchOutcome = (typeof batchOutcomes)[number];

/** What the server read of a file (the incoming one or the original); what it could not read is null. */
export const batchMediaSchema = z.object({
  /** sharp's format name for an image (png, jpeg, ...), the container for a sound (ogg, mp3, wav, m4a, ...). */
  format: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  durationSeconds: z.number().nullable(),
  sampleRate: z.number().int().nullable(),
  channels: z.number().int().nullable(),
  /** Integrated loudness (EBU R128), when measured. */
  lufs: z.number().nullable(),
  size: z.number().int().nullable(),
});
export type BatchMedia = z.infer<typeof batchMediaSchema>;

/**
 * What the play record (decision 0023) says of a game file: how often plays loaded it and whether ever at a play's
 * start. The batch ranks candidates and names the twin the game really loads by it (decision 0050).
 */
export const batchUsageSchema = z.object({
  loads: z.number().int(),
  atStart: z.boolean(),
});
export type BatchUsage = z.infer<typeof batchUsageSchema>;

export const batchCandidateSchema = z.object({
  fileId: z.number().int(),
  /** The game file's path (for a frame: its sheet image's path). */
  path: z.string(),
  /** The atlas frame's name when the candidate is a frame, else null. */
  frame: z.string().nullable(),
  /** The play record of the game file (the server's; null in the browser's own matching). */
  usage: batchUsageSchema.nullable(),
});
export type BatchCandidate = z.infer<typeof batchCandidateSchema>;

/** What a twin is when its row replaces it too: stored as it is, converted to its own format, or not possible. */
export const batchTwinStatuses = ['matched', 'needs_conversion', 'invalid'] as const;

/**
 * Another format of a row's sound (decision 0050): a game file of the same path and name with another sound
 * extension (`sfx/lose.ogg` beside `sfx/lose.mp3`). Games ship both and each browser loads the one it plays, so the
 * row may replace its twins from the same incoming file, each converted to its own format.
 */
export const batchTwinSchema = z.object({
  fileId: z.number().int(),
  path: z.string(),
  usage: batchUsageSchema,
  /** Whether the row replaces this twin too (`twins`, `alsoTwins`). */
  replace: z.boolean(),
  /** When replaced: as it is, converted, or why not (`error`); null when the row leaves it. */
  status: z.enum(batchTwinStatuses).nullable(),
  originalMedia: batchMediaSchema.nullable(),
  warnings: z.array(z.string()),
  outcome: z.enum(batchOutcomes).nullable(),
  error: z.string().nullable(),
  errorCode: z.string().nullable(),
});
export type BatchTwin = z.infer<typeof batchTwinSchema>;

export const batchRowSchema = z.object({
  /** The incoming file's path as sent (the key of `choices`, `fits` and `skip`). */
  incoming: z.string(),
  /** The path matched against the game: as sent, without a shared top folder the game does not have. */
  relative: z.string(),
  status: z.enum(batchRowStatuses),
  matchedBy: z.enum(batchMatchedBy).nullable(),
  /** The matched game file (a frame's sheet image), or null. */
  fileId: z.number().int().nullable(),
  path: z.string().nullable(),
  frame: z.string().nullable(),
  /** For an ambiguous row, the game files or frames to choose from. */
  candidates: z.array(batchCandidateSchema),
  kind: z.enum(['image', 'audio', 'other']),
  incomingMedia: batchMediaSchema.nullable(),
  originalMedia: batchMediaSchema.nullable(),
  /** The fit mode this row is (or would be) fitted with, or null. */
  fit: z.enum(fitModes).nullable(),
  /** Things to know that do not stop the row, such as durations that differ by more than 10 %. */
  warnings: z.array(z.string()),
  /** Only when applied. */
  outcome: z.enum(batchOutcomes).nullable(),
  /** Why the row is invalid or failed, or null. */
  error: z.string().nullable(),
  /** The error's code (image_size, not_audio, invalid_image, too_large, wrong_kind, no_fit, ...), or null. */
  errorCode: z.string().nullable(),
  /** The play record of the matched game file, or null without one (decision 0050). */
  usage: batchUsageSchema.nullable(),
  /** A sound's other formats in the game that no other row of the batch replaces (decision 0050). */
  twins: z.array(batchTwinSchema),
});
export type BatchRow = z.infer<typeof batchRowSchema>;

export const batchSummarySchema = z.object({
  total: z.number().int(),
  matched: z.number().int(),
  needsFit: z.number().int(),
  needsConversion: z.number().int(),
  ambiguous: z.number().int(),
  unmatched: z.number().int(),
  notReplaceable: z.number().int(),
  invalid: z.number().int(),
  replaced: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  /** Twins (other formats of a row's sound) replaced with their rows. */
  twinsReplaced: z.number().int(),
});
export type BatchSummary = z.infer<typeof batchSummarySchema>;

/** The answer of POST /game-versions/{versionId}/batch: the plan (dryRun) or the per-row results. */
export const batchAnswerSchema = z.object({
  dryRun: z.boolean(),
  rows: z.array(batchRowSchema),
  summary: batchSummarySchema,
});
export type BatchAnswer = z.infer<typeof batchAnswerSchema>;
export const batchPlanSchema = batchAnswerSchema;
export const batchResultSchema = batchAnswerSchema;
export type BatchPlan = BatchAnswer;
export type BatchResult = BatchAnswer;

/** A chosen candidate of an ambiguous row: a game file's id, or a file and frame; null skips the row. */
export const batchChoiceSchema = z.union([
  z.number().int().positive(),
  z.object({ fileId: z.number().int().positive(), frame: z.string().max(500).nullable().optional() }),
  z.null(),
]);
export type BatchChoice = z.infer<typeof batchChoiceSchema>;

const jsonText = <T extends z.ZodType>(schema: T, what: string) =>
  z
    .string()
    .max(1_000_000)
    .transform((text, ctx) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        ctx.issues.push({ code: 'custom', message: `${what} must be JSON.`, input: text });
        return z.NEVER;
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        ctx.issues.push({
          code: 'custom',
          message: `${what}: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
          input: text,
        });
        return z.NEVER;
      }
      return parsed.data as z.infer<T>;
    });

const incomingPathKey = z.string().min(1).max(1000);

/** The batch's options, as form fields or query parameters (text; JSON where a value is structured). */
export const batchOptionsSchema = z.object({
  dryRun: z.enum(['true', 'false']).default('false').describe('true: answer the plan and store nothing.'),
  fit: z
    .enum(fitModes)
    .optional()
    .describe('How images of another pixel size are fitted; without it they are refused.'),
  fits: jsonText(z.record(incomingPathKey, z.enum(fitModes)), 'fits')
    .optional()
    .describe('JSON object: incoming path -> fit mode, for single rows (overrides `fit`).'),
  choices: jsonText(z.record(incomingPathKey, batchChoiceSchema), 'choices')
    .optional()
    .describe(
      'JSON object: incoming path -> chosen fileId (or {fileId, frame}) of an ambiguous row, or null to skip it.',
    ),
  skip: jsonText(z.array(incomingPathKey).max(100_000), 'skip')
    .optional()
    .describe('JSON array of incoming paths not to apply.'),
  loudness: z
    .enum(loudnessModes)
    .default('keep')
    .describe("match: converted sounds are matched to the original's loudness."),
  alsoTwins: z
    .enum(['true', 'false'])
    .default('false')
    .describe(
      'true: every sound row also replaces its twins (the same path and name in other formats), each converted to its own format.',
    ),
  twins: jsonText(z.record(incomingPathKey, z.array(z.number().int().positive()).max(20)), 'twins')
    .optional()
    .describe(
      "JSON object: incoming path -> the fileIds of the row's twins it also replaces (overrides `alsoTwins`; [] for none).",
    ),
});
export type BatchOptions = z.infer<typeof batchOptionsSchema>;

/** The options as query parameters (text, checked again with the form fields by batchOptionsSchema). */
export const batchQuerySchema = z.object({
  dryRun: z
    .enum(['true', 'false'])
    .optional()
    .describe('true: answer the plan and store nothing (default false).'),
  fit: z
    .enum(fitModes)
    .optional()
    .describe('How images of another pixel size are fitted; without it they are refused.'),
  fits: z
    .string()
    .max(1_000_000)
    .optional()
    .describe('JSON object: incoming path -> fit mode, for single rows (overrides `fit`).'),
  choices: z
    .string()
    .max(1_000_000)
    .optional()
    .describe(
      'JSON object: incoming path -> chosen fileId (or {fileId, frame}) of an ambiguous or unmatched row, or null to skip it.',
    ),
  skip: z.string().max(1_000_000).optional().describe('JSON array of incoming paths not to apply.'),
  loudness: z
    .enum(loudnessModes)
    .optional()
    .describe("match: converted sounds are matched to the original's loudness (default keep)."),
  alsoTwins: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      'true: every sound row also replaces its twins (the same path and name in other formats), each converted to its own format (default false).',
    ),
  twins: z
    .string()
    .max(1_000_000)
    .optional()
    .describe(
      "JSON object: incoming path -> the fileIds of the row's twins it also replaces (overrides `alsoTwins`; [] for none).",
    ),
});
export type BatchOptionsInput = z.input<typeof batchOptionsSchema>;

export const batchParamsSchema = z.object({ versionId: pathIdSchema });

/** The longest path of an incoming file of a batch: a game path's limit, plus a top folder. */
export const batchIncomingPathMax = limits.gameFilePathMax + 255;

/** An option sent as a form field: text, parsed with the query's (the field wins) by batchOptionsSchema. */
const optionField = (name: keyof BatchOptions) =>
  z.string().optional().describe(`As the query parameter ${name}; the field wins.`);

/**
 * The multipart body of POST /game-versions/{versionId}/batch: a `path` field before each `file`, and the options
 * as fields. The server reads the files as a stream and parses each field by this schema as it comes; the options
 * are parsed with the query's by batchOptionsSchema once the body is read.
 */
export const batchPartsSchema = z.object({
  path: z
    .array(z.string().max(batchIncomingPathMax, { error: () => batchMessages.pathTooLong }))
    .optional()
    .describe("The next file's path relative to the dropped folder; repeated before each file."),
  dryRun: optionField('dryRun'),
  fit: optionField('fit'),
  fits: optionField('fits'),
  choices: optionField('choices'),
  skip: optionField('skip'),
  loudness: optionField('loudness'),
  alsoTwins: optionField('alsoTwins'),
  twins: optionField('twins'),
  file: z.file().describe('A replacement file (repeated), or one .zip holding them at their paths.'),
});

/**
 * The preview of a fit (POST /game-versions/{versionId}/files/{fileId}/fit-preview?fit=&frame=): the
 * multipart `file` fitted exactly as the batch stores it, in the original's format (the answer's content type).
 */
export const fitPreviewParamsSchema = z.object({ versionId: pathIdSchema, fileId: pathIdSchema });
export const fitPreviewQuerySchema = z.object({
  fit: z.enum(fitModes),
  frame: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe("An atlas frame's name: fitted to the frame's source size."),
});

/** The batch's messages (one definition for the server's rows and the workbench). */
export const batchMessages = {
  noFit: 'This image has another pixel size: choose how to fit it (cover, contain or stretch).',
  wrongKind: (original: FileKind) =>
    original === 'image' ? 'Only an image can replace an image.' : 'Only a sound can replace a sound.',
  notReplaceable: uploadMessages.notReplaceable,
  unmatched: 'No game file or frame has this path or name.',
  ambiguous: 'Several game files have this name: choose one.',
  tooManyFiles: (max: number) => `A batch holds at most ${max} files (the game's file count).`,
  /** 400: a `path` field over batchIncomingPathMax. */
  pathTooLong: `A path is longer than ${batchIncomingPathMax} characters.`,
  durationDiffers: (incoming: number, original: number) =>
    `The durations differ by more than 10 % (${incoming.toFixed(2)} s against ${original.toFixed(2)} s).`,
  animatedGif:
    'An animated GIF cannot be fitted: export it at the original size (its frames and timing stay as you made them).',
  /** 413: the files of a batch, or what its .zip unpacks to, pass limits.versionBatch.maxBytes. */
  tooLarge: `A batch may hold at most ${formatByteLimit(limits.versionBatch.maxBytes)} of files (its .zip unpacked): send it in parts.`,
  /** A sound row whose game file plays have never loaded while a twin of it is loaded (decision 0050). */
  twinLoaded: (twin: string) =>
    `In play the game loads ${twin}, not this file: replace ${twin} too, or players keep hearing the old sound.`,
  /** `twins` named a file that is not another format of the row's sound. */
  notTwin: (path: string) => `${path} is not another format of this sound.`,
  /** On a candidate or twin: the one of several that plays load. */
  gameLoads: 'the game loads this one',
  /** On a candidate or twin that plays have not loaded while another one is loaded. */
  notLoaded: 'never loaded in play',
  /** The tick box of a row's twin. */
  alsoReplace: (path: string) => `Also replace ${path}`,
  /** 503: as many batches as the server takes at once are running, and as many wait. */
  busy: `The server is replacing files for other batches right now; try again in ${limits.versionBatch.retryAfterSeconds} seconds.`,
} as const;
