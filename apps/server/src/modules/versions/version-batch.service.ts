import { createReadStream } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import pMap from 'p-map';
import {
  batchMessages,
  errorCodes,
  fileKindOf,
  framesOfSheet,
  imageFormatOfName,
  imageFormats,
  limits,
  matchBatch,
  rankCandidates,
  type BatchAnswer,
  type BatchOptions,
  type BatchRow,
  type FitMode,
  type GameVersion,
  type User,
} from '@reskin/contract';
import { convertAudio } from './audio-conversion';
import { AppError, notFound } from '../../lib/errors';
import { FairQueue, QueueFullError } from './fair-queue';
import { fitImage, ImageFitError } from '../../lib/images/image-fit';
import type { FreeSpaceGuard } from '../../storage/free-space';
import type { Storage } from '../../storage/storage';
import type { AtlasesService } from '../atlases/atlases.service';
import { readableImage, refuse } from './intake/intake-checks';
import type { GroupIntake, StagedImage } from './intake/group-intake';
import type { VersionIntake } from './intake/version-intake';
import type { FileUsageRepository } from '../file-usage/file-usage.repository';
import type { GameFileRow, GameFilesRepository } from '../games/game-files.repository';
import type { VersionsService } from './versions.service';
import { BatchPlanner } from './batch/batch-plan';
import {
  framesOf,
  markDuplicates,
  noUsage,
  summarise,
  wantedRow,
  type BatchContext,
  type BatchIncomingFile,
  type IncomingContent,
  type OriginalSound,
  type PlannedRow,
  type PlannedTwin,
} from './batch/batch-rows';
import { planTwins } from './batch/sound-twins';

/**
 * The batches this server receives, unpacks and applies at once, the others waiting their user's turn
 * (limits.versionBatch, decision 0045): each holds up to limits.versionBatch.maxBytes twice in the temporary
 * folder, and its sounds take ffmpeg's workers. One per process, as the temporary folder is.
 */
export const batchTurns = new FairQueue<number>(
  limits.versionBatch.concurrent,
  limits.versionBatch.maxWaiting,
);

/**
 * Rows a batch plans and stages at once (decision 0060): a lane decodes and fits on sharp's threads, then waits
 * for the disk, so twice the cores keep every core busy; each lane holds one decoded image.
 */
export const rowsAtOnce = 2 * availableParallelism();

/** Whole image rows landed in one transaction (GroupIntake.land). */
export const rowsPerTransaction = 100;

/** Whether a planned row goes the group's way: a whole image file to store, checked and (when asked) fitted. */
const stagedWay = (planned: PlannedRow) =>
  wantedRow(planned.row) &&
  !planned.skip &&
  planned.row.errorCode === null &&
  planned.row.outcome === null &&
  planned.row.kind === 'image' &&
  planned.row.frame === null &&
  planned.original !== null &&
  planned.content !== null &&
  planned.fitError === null;

/** A row refused when applied: the refusal's message and its detail's code. */
function failed(row: BatchRow, error: AppError): void {
  row.outcome = 'failed';
  row.error = error.message;
  row.errorCode = error.details?.[0]?.code ?? error.code;
}

/** 503 SERVER_BUSY: as many batches as the server takes are running, and as many wait. */
const serverBusy = () =>
  new AppError(503, errorCodes.serverBusy, batchMessages.busy, [], limits.versionBatch.retryAfterSeconds);

/**
 * Replace from a folder or a zip (decision 0030): POST /game-versions/{versionId}/batch. Plans each
 * incoming file against the game's files and atlas frames (matchBatch in the contract), checks it by content
 * with the intake's checks (batch/batch-plan.ts), and on apply fits or converts it and stores it through the
 * intake (VersionIntake.uploadFile or .uploadFrame, decision 0055), so every version rule of those holds per
 * row. A row's refusal is that row's outcome; the others go on.
 */
export class VersionBatchService {
  constructor(
    private readonly versions: VersionsService,
    private readonly intake: VersionIntake,
    private readonly group: GroupIntake,
    private readonly gameFiles: GameFilesRepository,
    private readonly atlases: AtlasesService,
    private readonly storage: Storage,
    private readonly maxFileSizeBytes: number,
    private readonly space: FreeSpaceGuard,
    private readonly usage: FileUsageRepository,
  ) {
    this.planner = new BatchPlanner(storage, maxFileSizeBytes);
  }

  private readonly planner: BatchPlanner;

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
      applying: !dryRun,
    };
    const matches = matchBatch(
      incoming.map((file) => file.incoming),
      files,
      framesOf(atlases),
    );
    const staged = new Map<PlannedRow, StagedImage>();
    let planned: PlannedRow[];
    try {
      // Each row planned (decoded once, fitted) and its image staged in one lane, `rowsAtOnce` lanes at a time
      // (decision 0060): one row's disk writes overlap the others' decoding. The answer keeps the rows' order.
      planned = await pMap(
        matches,
        async (match, index) => {
          const candidates = rankCandidates(
            match.candidates.map((candidate) => ({
              ...candidate,
              usage: usage.get(candidate.fileId) ?? noUsage,
            })),
          );
          const row = await this.planner.plan({ ...match, candidates }, incoming[index]!, context);
          if (context.applying && stagedWay(row)) await this.stage(version, row, staged);
          // The lane lets go of the content it read; a row applied later reads it again.
          if (row.content) row.content.held = null;
          return row;
        },
        { concurrency: rowsAtOnce, stopOnError: false },
      );
    } catch (error) {
      await this.group.discard([...staged.values()]);
      throw error instanceof AggregateError ? error.errors[0] : error;
    }
    markDuplicates(planned);
    await this.group.discard([...staged].flatMap(([row, image]) => (stagedWay(row) ? [] : [image])));
    await planTwins(this.storage, planned, context);
    if (!dryRun) {
      const grouped = planned.filter((row) => staged.has(row) && stagedWay(row));
      try {
        for (let start = 0; start < grouped.length; start += rowsPerTransaction) {
          const group = grouped.slice(start, start + rowsPerTransaction);
          await this.land(user, version, group, staged);
          for (const row of group) staged.delete(row);
        }
      } catch (error) {
        await this.group.discard([...staged.values()]);
        throw error;
      }
      for (const row of planned) {
        if (!grouped.includes(row) && row.row.outcome === null) await this.apply(user, version, row, options);
      }
    }
    const rows = planned.map((planned) => planned.row);
    return { dryRun, rows, summary: summarise(rows) };
  }

  /** A whole image row's checked content stored ahead of its group (GroupIntake.stage); its refusal is the row's. */
  private async stage(
    version: GameVersion,
    planned: PlannedRow,
    staged: Map<PlannedRow, StagedImage>,
  ): Promise<void> {
    try {
      staged.set(planned, await this.group.stage(version.id, planned.original!, planned.content!));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      failed(planned.row, error);
    }
  }

  /** A group of staged rows landed together; a refusal of the version is every row's. */
  private async land(
    user: User,
    version: GameVersion,
    group: PlannedRow[],
    staged: Map<PlannedRow, StagedImage>,
  ): Promise<void> {
    try {
      const refusals = await this.group.land(
        user,
        version,
        group.map((row) => staged.get(row)!),
      );
      for (const [index, planned] of group.entries()) {
        const refusal = refusals[index];
        if (refusal) failed(planned.row, refusal);
        else planned.row.outcome = 'replaced';
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      for (const planned of group) failed(planned.row, error);
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
    const info = await readableImage(input, named, { explained: true });
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
    if (!wantedRow(row) || planned.skip) {
      row.outcome = row.status === 'invalid' ? 'failed' : 'skipped';
      return;
    }
    if (row.errorCode !== null || !original || !source.content) {
      row.outcome = 'failed';
      return;
    }
    if (planned.fitError) {
      row.outcome = 'failed';
      row.error = planned.fitError.message;
      row.errorCode = planned.fitError.code;
      return;
    }
    try {
      const content = await this.content(planned, original, source.content, options, user.id);
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
      if (!(error instanceof AppError)) throw error;
      failed(row, error);
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
      !row.source.content ||
      !audio ||
      twin.status === null ||
      twin.status === 'invalid'
    ) {
      twin.outcome = twin.status === 'invalid' ? 'failed' : 'skipped';
      return;
    }
    try {
      const source = await row.source.content.file();
      const content =
        twin.status === 'matched'
          ? createReadStream(source)
          : await this.convertedTo(source, file, audio, options, user.id);
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
    source: IncomingContent,
    options: BatchOptions,
    owner: number,
  ): Promise<Readable> {
    const { row } = planned;
    if (row.kind === 'image') {
      // As it is, or fitted by its plan (decision 0060).
      if (!planned.content) throw new Error('an image row to store was planned without its content');
      return Readable.from([await planned.content.read()]);
    }
    const file = await source.file();
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
