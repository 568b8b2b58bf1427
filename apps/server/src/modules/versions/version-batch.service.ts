import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import {
  batchMessages,
  errorCodes,
  fileKindOf,
  framesOfSheet,
  imageFormatOfName,
  imageFormats,
  kindOfName,
  limits,
  matchBatch,
  rankCandidates,
  soundTwinsOf,
  validationMessages,
  type Atlas,
  type BatchAnswer,
  type BatchFrame,
  type BatchMatch,
  type BatchMedia,
  type BatchOptions,
  type BatchRow,
  type BatchTwin,
  type BatchUsage,
  type FileKind,
  type FitMode,
  type GameVersion,
  type ImageFormatName,
  type User,
  uploadMessages,
} from '@reskin/contract';
import {
  AudioError,
  SoundTooLongError,
  convertAudio,
  loudness,
  needsConversion,
  probeAudio,
  type AudioProbe,
} from './audio-conversion';
import { isAudioContent } from './audio-inspection';
import { AppError, notFound, unprocessable } from '../../lib/errors';
import { FairQueue, QueueFullError } from './fair-queue';
import { canWriteFormat, fitImage, ImageFitError } from '../../lib/images/image-fit';
import { InvalidImageError, inspectImage } from '../../lib/images/image-inspection';
import { fileTooLarge } from '../../lib/multipart';
import type { FreeSpaceGuard } from '../../storage/free-space';
import type { Storage } from '../../storage/storage';
import type { AtlasesService } from '../atlases/atlases.service';
import type { VersionIntake } from './intake/version-intake';
import type { FileUsageRepository } from '../file-usage/file-usage.repository';
import type { GameFileRow, GameFilesRepository } from '../games/game-files.repository';
import type { VersionsService } from './versions.service';

/** One received file of a batch, written to a temporary file of this server. */
export interface BatchIncomingFile {
  /** Its path as sent. */
  incoming: string;
  /** The temporary file, or null when it was over the per-file limit (and not kept). */
  file: string | null;
  size: number;
}

/** A resolved row while planning: the match plus what the apply step needs. */
interface PlannedRow {
  row: BatchRow;
  source: BatchIncomingFile;
  original: GameFileRow | null;
  /** For a frame row: the frame's full size. */
  frameSize: { w: number; h: number } | null;
  imageFormat: ImageFormatName | null;
  audio: OriginalSound | null;
  /** A sound's own probe, for its twins. */
  incomingProbe: AudioProbe | null;
  /** The twins the row replaces too, with what converting to each needs (decision 0050). */
  twins: PlannedTwin[];
  skip: boolean;
}

interface PlannedTwin {
  twin: BatchTwin;
  file: GameFileRow;
  audio: OriginalSound | null;
}

/** A game's sound as converting to it needs it: its probe and loudness. */
interface OriginalSound {
  original: AudioProbe;
  originalLufs: number | null;
}

/** What every row of one batch is planned against. */
interface BatchContext {
  files: Map<number, GameFileRow>;
  /** Every file of the game, for a sound's twins. */
  all: GameFileRow[];
  atlases: Atlas[];
  usage: Map<number, BatchUsage>;
  options: BatchOptions;
  /** The user whose turn the batch's ffmpeg work waits for (ffmpegSessions). */
  owner: number;
}

const noUsage: BatchUsage = { loads: 0, atStart: false };

/**
 * The batches this server receives, unpacks and applies at once, the others waiting their user's turn
 * (limits.versionBatch, decision 0045): each holds up to limits.versionBatch.maxBytes twice in the temporary
 * folder, and its sounds take ffmpeg's workers. One per process, as the temporary folder is.
 */
export const batchTurns = new FairQueue<number>(
  limits.versionBatch.concurrent,
  limits.versionBatch.maxWaiting,
);

/** 503 SERVER_BUSY: as many batches as the server takes are running, and as many wait. */
const serverBusy = () =>
  new AppError(503, errorCodes.serverBusy, batchMessages.busy, [], limits.versionBatch.retryAfterSeconds);

const emptyMedia: BatchMedia = {
  format: null,
  width: null,
  height: null,
  durationSeconds: null,
  sampleRate: null,
  channels: null,
  lufs: null,
  size: null,
};

/**
 * Replace from a folder or a zip (decision 0030): POST /game-versions/{versionId}/batch. Plans each
 * incoming file against the game's files and atlas frames (matchBatch in the contract), checks it by content
 * (the single upload's checks), and on apply fits or converts it and stores it through the single upload
 * (VersionsService.upload) or the frame upload (VersionIntake.uploadFrame), so every version rule of those
 * holds per row. A row's refusal is that row's outcome; the others go on.
 */
export class VersionBatchService {
  constructor(
    private readonly versions: VersionsService,
    private readonly intake: VersionIntake,
    private readonly gameFiles: GameFilesRepository,
    private readonly atlases: AtlasesService,
    private readonly storage: Storage,
    private readonly maxFileSizeBytes: number,
    private readonly space: FreeSpaceGuard,
    private readonly usage: FileUsageRepository,
  ) {}

  /**
   * The version a batch may change (the single upload's rules: demo 403, someone else's 404, locked or disabled
   * 423), refused before the body is read, and the most files the batch may hold: the game's file count.
   */
  async open(user: User, versionId: number): Promise<{ version: GameVersion; maxFiles: number }> {
    const version = await this.versions.changeableVersion(user, versionId, 'upload', '/versionId');
    const files = await this.gameFiles.listFiles(version.gameId);
    return { version, maxFiles: Math.max(files.length, 1) };
  }

  /**
   * Runs a batch's work (receiving, unpacking, applying) once it is its user's turn (batchTurns), and only while
   * the temporary folder and DATA_DIR have room (507 naming the volume). Too many waiting: 503 SERVER_BUSY with
   * Retry-After, before anything is read.
   */
  async inTurn<T>(user: User, work: () => Promise<T>): Promise<T> {
    try {
      return await batchTurns.run(user.id, async () => {
        await this.space.assertRoom('batch');
        return work();
      });
    } catch (error) {
      if (error instanceof QueueFullError) throw serverBusy();
      throw error;
    }
  }

  async run(
    user: User,
    version: GameVersion,
    incoming: BatchIncomingFile[],
    options: BatchOptions,
  ): Promise<BatchAnswer> {
    const dryRun = options.dryRun === 'true';
    const files = await this.gameFiles.listFiles(version.gameId);
    const { atlases } = await this.atlases.find(version.gameId);
    // The play record ranks candidates and names the twin the game loads (decision 0050).
    const usage = new Map(
      (await this.usage.forGame(version.gameId)).map((file) => [
        file.fileId,
        { loads: file.loads, atStart: file.startLoads > 0 },
      ]),
    );
    const context: BatchContext = {
      files: new Map(files.map((file) => [file.fileId, file])),
      all: files,
      atlases,
      usage,
      options,
      owner: user.id,
    };
    const matches = matchBatch(
      incoming.map((file) => file.incoming),
      files,
      framesOf(atlases),
    );
    const planned: PlannedRow[] = [];
    for (const [index, match] of matches.entries()) {
      const source = incoming[index];
      if (!source) continue;
      const candidates = rankCandidates(
        match.candidates.map((candidate) => ({
          ...candidate,
          usage: usage.get(candidate.fileId) ?? noUsage,
        })),
      );
      planned.push(await this.plan({ ...match, candidates }, source, context));
    }
    markDuplicates(planned);
    await this.planTwins(planned, context);
    if (!dryRun) {
      for (const row of planned) await this.apply(user, version, row, options);
    }
    const rows = planned.map((planned) => planned.row);
    return { dryRun, rows, summary: summarise(rows) };
  }

  private async plan(
    match: BatchMatch,
    source: BatchIncomingFile,
    context: BatchContext,
  ): Promise<PlannedRow> {
    const { files, atlases, options, owner } = context;
    const row: BatchRow = {
      incoming: match.incoming,
      relative: match.relative,
      status: match.status,
      matchedBy: match.matchedBy,
      fileId: match.fileId,
      path: match.path,
      frame: match.frame,
      candidates: match.candidates,
      kind: match.kind,
      incomingMedia: null,
      originalMedia: null,
      fit: null,
      warnings: [],
      outcome: null,
      error: null,
      errorCode: null,
      usage: null,
      twins: [],
    };
    const planned: PlannedRow = {
      row,
      source,
      original: null,
      frameSize: null,
      imageFormat: null,
      audio: null,
      incomingProbe: null,
      twins: [],
      skip: (options.skip ?? []).includes(match.incoming),
    };
    const invalid = (code: string, message: string) => {
      row.status = 'invalid';
      row.errorCode = code;
      row.error = message;
      return planned;
    };

    // A choice names the game file (or frame) of an ambiguous or unmatched row, or skips the row (null).
    const choice = options.choices?.[match.incoming];
    if (choice === null) planned.skip = true;
    else if (choice !== undefined) {
      const fileId = typeof choice === 'number' ? choice : choice.fileId;
      const frame = typeof choice === 'number' ? null : (choice.frame ?? null);
      const file = files.get(fileId);
      const inSheet = frame === null || framesOfSheet(atlases, fileId).frames.has(frame);
      if (!file || !inSheet)
        return invalid(
          'bad_choice',
          `The chosen ${frame === null ? 'file' : 'frame'} is not one of this game's.`,
        );
      Object.assign(row, {
        status: 'matched',
        matchedBy: 'choice',
        fileId,
        path: file.path,
        frame,
        candidates: [],
        kind: fileKindOf(file),
      });
    }
    if (row.status === 'ambiguous') {
      row.error = batchMessages.ambiguous;
      return planned;
    }
    if (row.status === 'unmatched') {
      row.error = batchMessages.unmatched;
      return planned;
    }
    const original = row.fileId === null ? undefined : files.get(row.fileId);
    if (!original) return planned;
    planned.original = original;
    row.usage = context.usage.get(original.fileId) ?? noUsage;
    const originalKind = fileKindOf(original);
    if (originalKind === 'other') {
      row.status = 'not_replaceable';
      row.error = batchMessages.notReplaceable;
      return planned;
    }
    row.kind = originalKind;
    const incomingKind: FileKind = kindOfName(match.relative);
    if (incomingKind !== originalKind) return invalid('wrong_kind', batchMessages.wrongKind(originalKind));
    if (!source.file)
      return invalid('too_large', fileTooLarge(match.relative, this.maxFileSizeBytes).message);
    if (source.size === 0) return invalid('empty', uploadMessages.emptyFile);

    if (originalKind === 'image') {
      const frameSize =
        row.frame === null
          ? null
          : (framesOfSheet(atlases, original.fileId).frames.get(row.frame)?.sourceSize ?? null);
      planned.frameSize = frameSize;
      const targetWidth = frameSize?.w ?? original.width ?? 0;
      const targetHeight = frameSize?.h ?? original.height ?? 0;
      const originalFormat = imageFormatOfName(original.path) ?? null;
      row.originalMedia = {
        ...emptyMedia,
        format: originalFormat,
        width: targetWidth,
        height: targetHeight,
        size: original.size,
      };
      let info;
      try {
        info = await inspectImage(createReadStream(source.file), match.relative);
      } catch (error) {
        if (error instanceof InvalidImageError)
          return invalid('invalid_image', `${validationMessages.imageReadError}: ${error.message}`);
        throw error;
      }
      planned.imageFormat = info.format;
      row.incomingMedia = {
        ...emptyMedia,
        format: info.format,
        width: info.width,
        height: info.height,
        size: source.size,
      };
      const sameSize = info.width === targetWidth && info.height === targetHeight;
      // A frame is drawn onto its sheet whatever its format; a whole file must be the original's format.
      const sameFormat = row.frame !== null || info.format === originalFormat;
      if (sameSize && sameFormat) {
        row.status = 'matched';
        return planned;
      }
      row.status = sameSize ? 'needs_conversion' : 'needs_fit';
      if (originalFormat && row.frame === null && !canWriteFormat(originalFormat)) {
        return invalid(
          'cannot_convert',
          `${original.path} is ${originalFormat.toUpperCase()}: replace it with a ${originalFormat.toUpperCase()} of ${targetWidth} x ${targetHeight} pixels.`,
        );
      }
      if (await this.animated(source.file, info.format, original, originalFormat))
        return invalid('animated', batchMessages.animatedGif);
      if (!sameSize) {
        row.fit = options.fits?.[match.incoming] ?? options.fit ?? null;
        if (row.fit === null) {
          row.errorCode = 'no_fit';
          row.error = batchMessages.noFit;
        }
      }
      return planned;
    }

    // A sound: audio by content, then probed and measured by the audio module (ffmpeg in workers, decision 0029);
    // its container, codec, rate and channels say whether it needs converting.
    if (!(await isAudioContent(createReadStream(source.file))))
      return invalid('not_audio', validationMessages.notAudio);
    let incomingProbe: AudioProbe;
    try {
      incomingProbe = await probeAudio(source.file, { owner });
    } catch (error) {
      if (error instanceof SoundTooLongError) return invalid('too_long', error.message);
      if (error instanceof AudioError) return invalid('not_audio', error.message);
      throw error;
    }
    const originalSound = await this.readOriginalSound(original, owner);
    if ('unreadable' in originalSound) return invalid('original_unreadable', originalSound.unreadable);
    planned.audio = originalSound;
    row.incomingMedia = soundMedia(incomingProbe, await measuredLoudness(source.file, owner), source.size);
    row.originalMedia = soundMedia(originalSound.original, originalSound.originalLufs, original.size);
    planned.incomingProbe = incomingProbe;
    row.status = soundStatus(incomingProbe, originalSound, options);
    row.warnings.push(...durationWarnings(incomingProbe, originalSound.original));
    if (row.frame === null) {
      const twins = soundTwinsOf(original.path, context.all);
      const wanted = options.twins?.[match.incoming];
      const stranger = wanted?.find((fileId) => !twins.some((twin) => twin.fileId === fileId));
      if (stranger !== undefined) {
        const path = files.get(stranger)?.path ?? `File ${stranger}`;
        return invalid('not_twin', batchMessages.notTwin(path));
      }
      planned.twins = twins.map((file) => ({
        file,
        audio: null,
        twin: {
          fileId: file.fileId,
          path: file.path,
          usage: context.usage.get(file.fileId) ?? noUsage,
          replace: wanted ? wanted.includes(file.fileId) : options.alsoTwins === 'true',
          status: null,
          originalMedia: null,
          warnings: [],
          outcome: null,
          error: null,
          errorCode: null,
        },
      }));
    }
    return planned;
  }

  /**
   * The twins of the batch's sound rows (decision 0050), once every row is planned: a twin another row replaces
   * (its own target, or an earlier row's twin) is that row's, not this one's; each twin to replace is probed and
   * measured like an original, and what converting to it needs is its status.
   */
  private async planTwins(planned: PlannedRow[], context: BatchContext): Promise<void> {
    const wanted = (row: BatchRow) =>
      row.status === 'matched' || row.status === 'needs_fit' || row.status === 'needs_conversion';
    const claimed = new Set(
      planned
        .filter(({ row, skip }) => !skip && wanted(row) && row.frame === null)
        .map(({ row }) => row.fileId),
    );
    for (const entry of planned) {
      const { row } = entry;
      entry.twins = entry.twins.filter(({ file }) => !claimed.has(file.fileId));
      if (!entry.skip && wanted(row))
        for (const { twin } of entry.twins) if (twin.replace) claimed.add(twin.fileId);
      row.twins = entry.twins.map(({ twin }) => twin);
      const heard =
        row.usage !== null && row.usage.loads === 0
          ? row.twins.find((twin) => twin.usage.loads > 0 && !twin.replace)
          : undefined;
      if (heard && wanted(row)) row.warnings.push(batchMessages.twinLoaded(heard.path));
      // A skipped row (a .zip's rows not chosen) replaces no twin: nothing to probe.
      if (!entry.incomingProbe || !wanted(row) || entry.skip) continue;
      for (const plannedTwin of entry.twins) {
        if (plannedTwin.twin.replace) await this.planTwin(plannedTwin, entry.incomingProbe, context);
      }
    }
  }

  private async planTwin(
    planned: PlannedTwin,
    incoming: AudioProbe,
    { options, owner }: BatchContext,
  ): Promise<void> {
    const { twin, file } = planned;
    const originalSound = await this.readOriginalSound(file, owner);
    if ('unreadable' in originalSound) {
      twin.status = 'invalid';
      twin.errorCode = 'original_unreadable';
      twin.error = originalSound.unreadable;
      return;
    }
    planned.audio = originalSound;
    twin.originalMedia = soundMedia(originalSound.original, originalSound.originalLufs, file.size);
    twin.status = soundStatus(incoming, originalSound, options);
    twin.warnings.push(...durationWarnings(incoming, originalSound.original));
  }

  /**
   * A game's sound read from storage, probed and measured for converting to it; a loudness measurement that fails
   * leaves the loudness unknown, never the row. `unreadable`: what the row says when the sound cannot be read.
   */
  private async readOriginalSound(
    file: GameFileRow,
    owner: number,
  ): Promise<OriginalSound | { unreadable: string }> {
    const stored = await this.storage.get(file.storageKey);
    if (!stored) throw new Error(`the stored object ${file.storageKey} is missing`);
    const bytes = await buffer(stored.stream);
    try {
      const original = await probeAudio(bytes, { owner });
      return { original, originalLufs: await measuredLoudness(bytes, owner) };
    } catch (error) {
      if (error instanceof AudioError)
        return { unreadable: `The original sound cannot be read for converting: ${error.message}` };
      throw error;
    }
  }

  /**
   * POST /game-versions/{versionId}/files/{fileId}/fit-preview: `content` fitted with `fit` to the original's (or
   * the frame's) size and format by the same fitImage the batch stores with, so the preview is the stored result.
   */
  async preview(
    user: User,
    versionId: number,
    fileId: number,
    upload: { fit: FitMode; frame: string | null; fileName: string | undefined; content: Readable },
  ): Promise<{ bytes: Buffer; contentType: string }> {
    let version: GameVersion;
    try {
      version = await this.versions.changeableVersion(user, versionId, 'upload', '/versionId');
    } catch (error) {
      upload.content.resume();
      throw error;
    }
    const original = await this.gameFiles.findFile(version.gameId, fileId);
    const refuse = (code: string, message: string) =>
      unprocessable(message, [{ path: '/file', code, message }]);
    if (!original || fileKindOf(original) !== 'image') {
      upload.content.resume();
      throw original ? refuse('not_image', `${original.path} is not an image.`) : notFound('Game file');
    }
    let size = { w: original.width ?? 0, h: original.height ?? 0 };
    if (upload.frame !== null) {
      const { atlases } = await this.atlases.find(version.gameId);
      const frame = framesOfSheet(atlases, fileId).frames.get(upload.frame);
      if (!frame) {
        upload.content.resume();
        throw notFound('Frame');
      }
      size = frame.sourceSize;
    }
    const input = await buffer(upload.content);
    const named = upload.fileName && imageFormatOfName(upload.fileName) ? upload.fileName : original.path;
    let info;
    try {
      info = await inspectImage(Readable.from([input]), named);
    } catch (error) {
      if (error instanceof InvalidImageError)
        throw refuse('invalid_image', `${validationMessages.imageReadError}: ${error.message}`);
      throw error;
    }
    const format = imageFormatOfName(original.path) ?? 'png';
    try {
      const bytes = await fitImage(input, {
        width: size.w,
        height: size.h,
        mode: upload.fit,
        format,
        inputFormat: info.format,
      });
      return { bytes, contentType: imageFormats[format].mimeTypes[0] };
    } catch (error) {
      if (error instanceof ImageFitError) throw refuse(error.code, error.message);
      throw error;
    }
  }

  /** Whether the incoming image or the original is animated (more than one frame): such a row is not fitted or converted. */
  private async animated(
    file: string,
    format: ImageFormatName,
    original: GameFileRow,
    originalFormat: ImageFormatName | null,
  ): Promise<boolean> {
    const pages = async (input: Buffer) =>
      (await sharp(input, { limitInputPixels: false }).metadata()).pages ?? 1;
    if ((format === 'gif' || format === 'webp') && (await pages(await readFile(file))) > 1) return true;
    if (originalFormat !== 'gif' && originalFormat !== 'webp') return false;
    const stored = await this.storage.get(original.storageKey);
    if (!stored) return false;
    return (await pages(await buffer(stored.stream))) > 1;
  }

  private async apply(
    user: User,
    version: GameVersion,
    planned: PlannedRow,
    options: BatchOptions,
  ): Promise<void> {
    await this.applyRow(user, version, planned, options);
    for (const twin of planned.twins) {
      if (twin.twin.replace) await this.applyTwin(user, version, planned, twin, options);
    }
  }

  private async applyRow(
    user: User,
    version: GameVersion,
    planned: PlannedRow,
    options: BatchOptions,
  ): Promise<void> {
    const { row, source, original } = planned;
    const wanted =
      row.status === 'matched' || row.status === 'needs_fit' || row.status === 'needs_conversion';
    if (!wanted || planned.skip) {
      row.outcome = row.status === 'invalid' ? 'failed' : 'skipped';
      return;
    }
    if (row.errorCode !== null || !original || !source.file) {
      row.outcome = 'failed';
      return;
    }
    try {
      const content = await this.content(planned, original, source.file, options, user.id);
      if (row.frame !== null) {
        const named = row.status === 'matched' ? row.relative : original.path;
        await this.intake.uploadFrame(user, version.id, original.fileId, {
          frame: row.frame,
          fileName: named,
          content,
        });
      } else {
        await this.intake.uploadFile(user, version.id, original.fileId, content, { how: 'batch' });
      }
      row.outcome = 'replaced';
    } catch (error) {
      if (error instanceof AppError) {
        row.outcome = 'failed';
        row.error = error.message;
        row.errorCode = error.details?.[0]?.code ?? error.code;
        return;
      }
      if (error instanceof ImageFitError) {
        row.outcome = 'failed';
        row.error = error.message;
        row.errorCode = error.code;
        return;
      }
      throw error;
    }
  }

  /**
   * A twin of a replaced sound row, from the same incoming file converted to the twin's own format (decision
   * 0050), through the single upload as the row; its refusal is the twin's outcome, the row stays replaced.
   */
  private async applyTwin(
    user: User,
    version: GameVersion,
    row: PlannedRow,
    planned: PlannedTwin,
    options: BatchOptions,
  ): Promise<void> {
    const { twin, file, audio } = planned;
    if (
      row.row.outcome !== 'replaced' ||
      !row.source.file ||
      !audio ||
      twin.status === null ||
      twin.status === 'invalid'
    ) {
      twin.outcome = twin.status === 'invalid' ? 'failed' : 'skipped';
      return;
    }
    try {
      const content =
        twin.status === 'matched'
          ? createReadStream(row.source.file)
          : await this.convertedTo(row.source.file, file, audio, options, user.id);
      await this.intake.uploadFile(user, version.id, file.fileId, content, { how: 'batch' });
      twin.outcome = 'replaced';
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      twin.outcome = 'failed';
      twin.error = error.message;
      twin.errorCode = error.details?.[0]?.code ?? error.code;
    }
  }

  /** The bytes a row stores: the incoming file as it is, fitted or converted to the original's. */
  private async content(
    planned: PlannedRow,
    original: GameFileRow,
    file: string,
    options: BatchOptions,
    owner: number,
  ): Promise<Readable> {
    const { row } = planned;
    if (row.kind === 'image') {
      if (row.status === 'matched') return createReadStream(file);
      // A frame is written in its sheet's format too (the composer draws it onto the sheet either way).
      const format = imageFormatOfName(original.path) ?? 'png';
      const fitted = await fitImage(await readFile(file), {
        width: planned.frameSize?.w ?? original.width ?? 0,
        height: planned.frameSize?.h ?? original.height ?? 0,
        mode: (row.fit ?? 'stretch') satisfies FitMode,
        format,
        inputFormat: planned.imageFormat ?? 'png',
      });
      return Readable.from([fitted]);
    }
    if (row.status === 'matched') return createReadStream(file);
    if (!planned.audio) throw new Error('a sound row to convert was planned without its original');
    return this.convertedTo(file, original, planned.audio, options, owner);
  }

  /** The incoming sound converted to a game sound's format (and loudness, when asked). */
  private async convertedTo(
    file: string,
    target: GameFileRow,
    audio: OriginalSound,
    options: BatchOptions,
    owner: number,
  ): Promise<Readable> {
    const converted = await convertAudio(file, {
      toPathLike: target.path,
      codec: audio.original.codec,
      sampleRate: audio.original.sampleRate,
      channels: audio.original.channels,
      ...(options.loudness === 'match' &&
        audio.originalLufs !== null && { matchLoudnessOf: audio.originalLufs }),
      maxOutputBytes: this.maxFileSizeBytes,
      owner,
    });
    return Readable.from([converted]);
  }
}

/** Every frame of the game's atlases, with its sheet image, for matching by name. */
function framesOf(atlases: Atlas[]): BatchFrame[] {
  return atlases.flatMap((atlas) =>
    atlas.frames.flatMap((frame) => {
      const page = atlas.pages[frame.page];
      return page ? [{ fileId: page.fileId, path: page.image, name: frame.name }] : [];
    }),
  );
}

/** Two incoming files for one game file (or frame): the later ones are refused, naming the first. */
function markDuplicates(planned: PlannedRow[]): void {
  const first = new Map<string, string>();
  for (const { row, skip } of planned) {
    if (skip || row.fileId === null || !['matched', 'needs_fit', 'needs_conversion'].includes(row.status))
      continue;
    const key = `${row.fileId}\n${row.frame ?? ''}`;
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, row.incoming);
      continue;
    }
    row.status = 'invalid';
    row.errorCode = 'duplicate';
    row.error = `${earlier} already replaces ${row.frame ?? row.path ?? 'this file'}.`;
  }
}

function summarise(rows: BatchRow[]): BatchAnswer['summary'] {
  const count = (test: (row: BatchRow) => boolean) => rows.filter(test).length;
  return {
    total: rows.length,
    matched: count((row) => row.status === 'matched'),
    needsFit: count((row) => row.status === 'needs_fit'),
    needsConversion: count((row) => row.status === 'needs_conversion'),
    ambiguous: count((row) => row.status === 'ambiguous'),
    unmatched: count((row) => row.status === 'unmatched'),
    notReplaceable: count((row) => row.status === 'not_replaceable'),
    invalid: count((row) => row.status === 'invalid'),
    replaced: count((row) => row.outcome === 'replaced'),
    failed: count((row) => row.outcome === 'failed'),
    skipped: count((row) => row.outcome === 'skipped'),
    twinsReplaced: rows.reduce(
      (sum, row) => sum + row.twins.filter((twin) => twin.outcome === 'replaced').length,
      0,
    ),
  };
}

/** The durations of a sound and the one it replaces, when they differ by more than 10 %. */
/** A sound's figures as a row shows them. */
function soundMedia(probe: AudioProbe, lufs: number | null, size: number): BatchMedia {
  return {
    ...emptyMedia,
    format: probe.container,
    durationSeconds: probe.durationSeconds || null,
    sampleRate: probe.sampleRate,
    channels: probe.channels,
    lufs,
    size,
  };
}

/** Whether the incoming sound is stored as it is or converted to the original's format (or loudness). */
function soundStatus(
  incoming: AudioProbe,
  { original, originalLufs }: OriginalSound,
  options: BatchOptions,
): 'matched' | 'needs_conversion' {
  const matchLoudness = options.loudness === 'match' && originalLufs !== null;
  return needsConversion(incoming, original) || matchLoudness ? 'needs_conversion' : 'matched';
}

/** A sound's loudness, or unknown (null) when measuring it fails. */
async function measuredLoudness(input: string | Uint8Array, owner: number): Promise<number | null> {
  return loudness(input, { owner }).catch((error: unknown) => {
    if (error instanceof AudioError) return null;
    throw error;
  });
}

function durationWarnings(incoming: AudioProbe, original: AudioProbe): string[] {
  const [a, b] = [incoming.durationSeconds, original.durationSeconds];
  return a > 0 && b > 0 && Math.abs(a - b) / b > limits.audioConversion.durationWarningRatio
    ? [batchMessages.durationDiffers(a, b)]
    : [];
}

/** The most bytes a batch's files may hold together, received or unpacked from its .zip. */
export const maxBatchBytes = limits.versionBatch.maxBytes;
