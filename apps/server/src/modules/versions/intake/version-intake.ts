import { randomUUID } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import mime from 'mime';
import {
  fileKindOf,
  framesOfSheet,
  imageFormatOfName,
  uploadMessages,
  validationMessages,
  type AtlasFrame,
  type FrameUpload,
  type GameVersion,
  type User,
  type VersionFile,
} from '@reskin/contract';
import { notFound, unprocessable } from '../../../lib/errors';
import { extensionOf } from '../../../lib/game-paths';
import { decodePixels, type RgbaImage } from '../../../lib/images/pixels';
import type { FreeSpaceGuard } from '../../../storage/free-space';
import type { PutOptions, Storage } from '../../../storage/storage';
import type { AtlasesService } from '../../atlases/atlases.service';
import type { PreviewsService } from '../../previews/previews.service';
import { assertUploadInTime, type StoredFilesService } from '../../stored-files/stored-files.service';
import type { FileHistory, HistoryCause, StagedEntry } from './history-entries';
import { composeSheet, dropsVisiblePixels, type FrameReplacement } from '../sheets/compose-sheet';
import type { SheetComposer } from '../sheets/sheet-composer';
import type { VersionSheetsRepository } from '../sheets/version-sheets.repository';
import { toVersionFile, type VersionFileRow, type VersionsRepository } from '../versions.repository';
import { previewOf, type VersionsService } from '../versions.service';
import { assertNotEmpty, decoded, inspectedImage, inspectedSound, refuse } from './intake-checks';
import { IntakeStateMoved, type IntakeRepository, type IntakeState } from './intake.repository';

/** Sheet formats a composed sheet can be written in (sharp writes them); a BMP or icon sheet is replaced whole. */
const composable = new Set(['png', 'jpeg', 'webp', 'gif', 'avif']);

/**
 * The one way an artist's bytes for a version's file come in (decision 0055). Each step happens once: the
 * version rules and the free-space check before the body is read, the bytes read into memory (the multipart
 * limit bounds them), their header checked and their pixels decoded, stored under a fresh key; then composition
 * and the history entry get the bytes and the decoded pixels as they are, nothing is read back.
 *
 * A frame upload (POST /game-version/upload-frame, a batch row of a frame) composes the sheet from the state read
 * before it, then lands frame, sheet, history entry and resolved notes in one transaction that holds only if
 * nothing changed meanwhile; otherwise it takes the two-phase way of decision 0028 (record the frame, compose the
 * newest revision, which lands whatever the order).
 */
export class VersionIntake {
  constructor(
    private readonly versions: VersionsService,
    private readonly rows: IntakeRepository,
    private readonly versionRows: VersionsRepository,
    private readonly sheets: VersionSheetsRepository,
    private readonly composer: SheetComposer,
    private readonly atlases: AtlasesService,
    private readonly storage: Storage,
    private readonly storedFiles: StoredFilesService,
    private readonly space: FreeSpaceGuard,
    private readonly history: FileHistory,
    /** Tells the play origin that a version's replacements changed. */
    private readonly filesChanged: (gameId: number) => void,
    /** The replaced images' preview URLs (decision 0038). */
    private readonly previews?: PreviewsService,
  ) {}

  /**
   * POST /game-version/upload/{versionId}/{fileId} (and a batch row, a restore from the history): replaces one
   * game file inside one version. Images must be an image of the original's width and height, sounds must be
   * audio, both checked by content; a locked version refuses. The new content is stored under a fresh key before
   * the record changes, so a failed upload leaves the previous file intact, and the play view's URL for it
   * changes. Refused (507) while DATA_DIR is under its free-space threshold.
   */
  async uploadFile(
    user: User,
    versionId: number,
    fileId: number,
    content: Readable,
    /** How the history lists it (decision 0034): an upload unless a batch row or a restore says otherwise. */
    cause: Omit<HistoryCause, 'authorId'> = { how: 'upload' },
  ): Promise<VersionFile> {
    const startedAt = Date.now();
    let version: GameVersion;
    let state: IntakeState;
    try {
      version = await this.versions.changeableVersion(user, versionId, 'upload', '/versionId');
      const found = await this.rows.stateOf(versionId, version.gameId, fileId);
      if (!found) throw notFound('Game file');
      state = found;
      if (fileKindOf(state.original) === 'other')
        throw unprocessable(uploadMessages.notReplaceable, [
          {
            path: '/fileId',
            code: 'not_replaceable',
            message: `${state.original.path} is neither an image nor a sound.`,
          },
        ]);
      await this.space.assertRoom('upload');
    } catch (error) {
      content.resume();
      throw error;
    }
    const { original } = state;
    const image = fileKindOf(original) === 'image';
    const storageKey = `versions/${versionId}/${randomUUID()}.${extensionOf(original.path)}`;
    const bytes = await this.store(storageKey, content);
    const size = bytes.length;
    let width: number | null = null;
    let height: number | null = null;
    try {
      assertNotEmpty(size);
      if (image) ({ width, height } = await inspectedImage(bytes, original));
      else await inspectedSound(bytes, cause.how === 'upload', user.id);
    } catch (error) {
      await this.storedFiles.removeStaged([storageKey]);
      throw error;
    }
    // A sheet with replaced frames: the upload is the base its frames are drawn onto. A restore is the entry's
    // bytes exactly: the sheet's frames go (decision 0034).
    const sheet = image && state.sheet !== null;
    const restoring = cause.how === 'restore';
    let staged: StagedEntry | undefined;
    let recorded: Awaited<ReturnType<VersionsRepository['saveFile']>>;
    /** Stored objects the recording made unused: the history's dropped entries, a restored sheet's frames. */
    const unused: string[] = [];
    try {
      assertUploadInTime(startedAt);
      if (sheet && !restoring) {
        const previousBase = await this.sheets.replaceBase(
          versionId,
          fileId,
          { key: storageKey, size },
          this.versions.stillChangeable(user, version, 'upload'),
        );
        if (previousBase !== undefined) {
          if (previousBase) await this.storedFiles.deleteObjects([previousBase]);
          await this.composer.compose(
            version,
            original,
            { ...cause, authorId: user.id },
            { bytes: new Map([[storageKey, bytes]]) },
          );
          await this.versions.replaced(user, version, fileId, null);
          return await this.versionFile(user, versionId, fileId);
        }
      }
      const contentType = original.contentType || (mime.getType(original.path) ?? 'application/octet-stream');
      staged = await this.history.stage(versionId, storageKey, { width, height, contentType });
      // Trimmed under the version's lock: uploads of one file at once may each have read the same count.
      const record = this.history.recordIn(staged, { ...cause, authorId: user.id }, unused);
      recorded = await this.versionRows.saveFile(
        {
          gameVersionId: versionId,
          fileId,
          path: original.path,
          width,
          height,
          size,
          contentType,
          storageKey,
        },
        this.versions.stillChangeable(user, version, 'upload'),
        async (trx) => {
          if (sheet && restoring) unused.push(...(await this.sheets.dropSheet(trx, versionId, fileId)));
          await record(trx, versionId, fileId);
        },
      );
      // The version was deleted (maybe with its user-game, user or game) while the file streamed in.
      if (recorded === undefined) throw notFound('Game version');
    } catch (error) {
      await this.storedFiles.removeStaged([storageKey, ...(staged ? [staged.storageKey] : [])]);
      throw error;
    }
    this.filesChanged(version.gameId);
    await this.storedFiles.deleteObjects([
      ...(recorded.previousKey ? [recorded.previousKey] : []),
      ...unused,
    ]);
    await this.versionRows.update(versionId, {});
    await this.versions.replaced(user, version, fileId, null);
    // The row as saved: a Restore original racing this upload may have removed it since (the upload still happened).
    return {
      ...toVersionFile(recorded.saved),
      preview: previewOf(recorded.saved, await this.previews?.urlsFor(user)),
    };
  }

  /** A version's file as the API answers it to `user`, with the frames replaced in it when it is a sheet and its preview. */
  private async versionFile(user: User, versionId: number, fileId: number): Promise<VersionFile> {
    const saved = await this.versionRows.findFile(versionId, fileId);
    if (!saved) throw notFound('Game version');
    const frames = (await this.sheets.framesOf(versionId)).get(fileId);
    return {
      ...toVersionFile(saved),
      ...(frames && { frames }),
      preview: previewOf(saved, await this.previews?.urlsFor(user)),
    };
  }

  /** Replaces one frame of a sprite sheet in a version; the sheet is composed before the answer (decision 0028). */
  async uploadFrame(
    user: User,
    versionId: number,
    fileId: number,
    upload: { frame: string; fileName: string | undefined; content: Readable },
  ): Promise<FrameUpload> {
    const { frame: frameName, content } = upload;
    const startedAt = Date.now();
    let version: GameVersion;
    let state: IntakeState;
    let target: { frame: AtlasFrame; frames: ReadonlyMap<string, AtlasFrame> };
    try {
      version = await this.versions.changeableVersion(user, versionId, 'upload', '/versionId');
      const found = await this.rows.stateOf(versionId, version.gameId, fileId);
      if (!found) throw notFound('Game file');
      state = found;
      target = await this.frameOf(state, frameName);
      await this.space.assertRoom('upload');
    } catch (error) {
      content.resume();
      throw error;
    }
    const { frame } = target;
    const sheet = state.original;
    const frameKey = `versions/${versionId}/frames/${randomUUID()}.${extensionOf(sheet.path) || 'png'}`;
    // Made durable with the sheet it is composed into (landFrame), or before it is recorded alone.
    const bytes = await this.store(frameKey, content, { durable: false });
    let pixels: RgbaImage;
    try {
      assertNotEmpty(bytes.length);
      // The upload's own name says its format (a PNG frame for a JPEG sheet is fine); else the sheet's.
      const named = upload.fileName && imageFormatOfName(upload.fileName) ? upload.fileName : sheet.path;
      pixels = await decoded(bytes, named, 'This file is not an image the server can read.');
      if (pixels.width !== frame.sourceSize.w || pixels.height !== frame.sourceSize.h)
        throw refuse('image_size', validationMessages.frameSize(frame.name, frame.sourceSize, pixels));
    } catch (error) {
      await this.storedFiles.removeStaged([frameKey]);
      throw error;
    }
    const recorded = { frame: frame.name, storageKey: frameKey, width: pixels.width, height: pixels.height };
    let answer: { saved: VersionFileRow; frames: string[] };
    try {
      assertUploadInTime(startedAt);
      answer = await this.landFrame(user, version, state, target, recorded, pixels);
    } catch (error) {
      if (!(error instanceof IntakeStateMoved)) {
        await this.storedFiles.removeStaged([frameKey]);
        throw error;
      }
      answer = await this.recordThenCompose(user, version, state, recorded, pixels);
    }
    const { offset, rect, rotation } = frame;
    const [w, h] = rotation % 180 ? [rect.h, rect.w] : [rect.w, rect.h];
    const notice = dropsVisiblePixels(frame, pixels)
      ? `Parts of your image outside the frame's trimmed area (${offset.x},${offset.y} to ${offset.x + w},${offset.y + h}) are not transparent: the sheet keeps only the trimmed area.`
      : null;
    return { ...toVersionFile(answer.saved), frames: answer.frames, notice };
  }

  /**
   * The sheet composed from `state` with the new frame, its marked rendition and history copy stored, then all
   * landed in one transaction (IntakeRepository.landFrame); IntakeStateMoved when the state changed meanwhile.
   */
  private async landFrame(
    user: User,
    version: GameVersion,
    state: IntakeState,
    target: { frame: AtlasFrame; frames: ReadonlyMap<string, AtlasFrame> },
    recorded: { frame: string; storageKey: string; width: number; height: number },
    pixels: RgbaImage,
  ): Promise<{ saved: VersionFileRow; frames: string[] }> {
    const sheet = state.original;
    const names = [...new Set([...state.frames.keys(), recorded.frame])].sort();
    // In the order the two-phase composition draws them (by name); frames the descriptor lost are left out.
    const replacements: FrameReplacement[] = [];
    for (const name of names) {
      const frame = target.frames.get(name);
      if (!frame) continue;
      replacements.push({
        frame,
        pixels:
          name === recorded.frame ? pixels : await decodePixels(await this.read(state.frames.get(name)!)),
      });
    }
    // A sheet's first frame starts it on the version's whole-sheet upload, if any.
    const baseKey = state.sheet ? state.sheet.baseKey : (state.file?.storageKey ?? null);
    const key = `versions/${version.id}/${randomUUID()}.${extensionOf(sheet.path)}`;
    const staged: string[] = [];
    const dropped: string[] = [];
    let events: number[] = [];
    let saved: VersionFileRow | undefined;
    // Written without waiting for the disk, then made durable together before they are recorded (decision 0061).
    const later = { durable: false };
    try {
      // The delivered sheet and its marked rendition (decision 0049) at once, each from its previous composition:
      // only the bands of rows the frame crosses are drawn again (compose-sheet.ts, decision 0061).
      const previous =
        state.sheet && state.file && state.file.storageKey !== state.sheet.baseKey
          ? state.file.storageKey
          : null;
      const [delivered, drawn] = await Promise.allSettled([
        Promise.all([this.read(baseKey ?? sheet.storageKey), this.composer.previousComposition(previous)])
          .then(([base, earlier]) => composeSheet(base, sheet.path, replacements, earlier))
          .then(async (composed) => (await this.storage.put(key, composed, later), composed)),
        baseKey === null
          ? this.composer.drawMarked(version.id, sheet, replacements, later, state.sheet?.markedKey ?? null)
          : Promise.resolve({ key: null, from: null }),
      ]);
      if (delivered.status === 'fulfilled') staged.push(key);
      if (drawn.status === 'fulfilled' && drawn.value.key) staged.push(drawn.value.key);
      if (delivered.status === 'rejected') throw delivered.reason;
      if (drawn.status === 'rejected') throw drawn.reason;
      const composed = delivered.value;
      const marked = drawn.value;
      const file = { width: sheet.width, height: sheet.height, contentType: sheet.contentType };
      const entry = await this.history.stage(version.id, key, file);
      staged.push(entry.storageKey);
      await this.storage.makeDurable([recorded.storageKey, ...staged]);
      const record = this.history.recordIn(
        entry,
        { how: 'frame', authorId: user.id },
        dropped,
        state.historyEntries,
      );
      saved = await this.rows.landFrame(
        {
          versionId: version.id,
          state,
          frame: recorded,
          composed: { ...file, path: sheet.path, size: composed.length, storageKey: key },
          marked,
        },
        this.versions.stillChangeable(user, version, 'upload'),
        async (trx) => {
          await record(trx, version.id, sheet.fileId);
          events = await this.versions.replacedIn(trx, user, version, sheet.fileId, recorded.frame);
        },
      );
      if (!saved) throw notFound('Game version');
      const previousMarked = state.sheet?.markedKey ?? null;
      this.filesChanged(version.gameId);
      this.versions.eventsAdded(events);
      await this.storedFiles.deleteObjects([
        ...[state.frames.get(recorded.frame)].filter((previous) => previous !== undefined),
        // The previous composition, unless it is the base the frames are drawn onto.
        ...(state.sheet && state.file && state.file.storageKey !== state.sheet.baseKey
          ? [state.file.storageKey]
          : []),
        ...(previousMarked !== null && previousMarked !== marked.key ? [previousMarked] : []),
        ...dropped,
      ]);
    } catch (error) {
      if (!saved) await this.storedFiles.removeStaged(staged);
      throw error;
    }
    return { saved, frames: names };
  }

  /** The two-phase way (decision 0028) when another change came between the state and the landing. */
  private async recordThenCompose(
    user: User,
    version: GameVersion,
    state: IntakeState,
    recorded: { frame: string; storageKey: string; width: number; height: number },
    pixels: RgbaImage,
  ): Promise<{ saved: VersionFileRow; frames: string[] }> {
    const fileId = state.original.fileId;
    let previous: string | null | undefined;
    try {
      await this.storage.makeDurable([recorded.storageKey]);
      previous = await this.sheets.recordFrame(
        { gameVersionId: version.id, fileId, ...recorded },
        this.versions.stillChangeable(user, version, 'upload'),
      );
      if (previous === undefined) throw notFound('Game version');
    } catch (error) {
      await this.storedFiles.removeStaged([recorded.storageKey]);
      throw error;
    }
    if (previous) await this.storedFiles.deleteObjects([previous]);
    await this.composer.compose(
      version,
      state.original,
      { how: 'frame', authorId: user.id },
      { pixels: new Map([[recorded.storageKey, pixels]]) },
    );
    await this.versions.replaced(user, version, fileId, recorded.frame);
    const saved = await this.versionRows.findFile(version.id, fileId);
    if (!saved) throw notFound('Game version');
    return { saved, frames: (await this.sheets.framesOf(version.id)).get(fileId) ?? [] };
  }

  /** The frame of that name in the sheet (404 no such frame, 422 for a sheet that cannot be composed). */
  private async frameOf(
    state: IntakeState,
    frameName: string,
  ): Promise<{ frame: AtlasFrame; frames: ReadonlyMap<string, AtlasFrame> }> {
    const sheet = state.original;
    const { atlases } = await this.atlases.find(sheet.gameId, state);
    const { frames, found } = framesOfSheet(atlases, sheet.fileId);
    if (!found) {
      throw unprocessable(`${sheet.path} is not a sprite sheet of this game.`, [
        {
          path: '/fileId',
          code: 'not_sheet',
          message: `${sheet.path} is no page of a recognised sprite sheet.`,
        },
      ]);
    }
    if (!composable.has(imageFormatOfName(sheet.path) ?? '')) {
      throw unprocessable(`${sheet.path} cannot be composed frame by frame: replace the whole sheet.`, [
        {
          path: '/fileId',
          code: 'not_composable',
          message: `Frames of a ${extensionOf(sheet.path).toUpperCase()} sheet cannot be replaced one by one.`,
        },
      ]);
    }
    const frame = frames.get(frameName);
    if (!frame) throw notFound('Frame');
    return { frame, frames };
  }

  /**
   * Stores the artist's bytes once under their fresh key as they stream in (a lock or a delete meanwhile sees
   * them stored), keeping them in memory on the way (the multipart limit bounds them) for every later step: none
   * reads them back. A store that failed mid-write may hold parts to remove.
   */
  private async store(key: string, content: Readable, options?: PutOptions): Promise<Buffer> {
    const chunks: Buffer[] = [];
    const kept = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback(null, chunk);
      },
    });
    // pipeline also passes on an error the content had before it got here (a malformed body).
    pipeline(content, kept, () => {});
    await this.storage.put(key, kept, options).catch(async (error: unknown) => {
      await this.storedFiles.removeStaged([]);
      throw error;
    });
    return Buffer.concat(chunks);
  }

  private async read(key: string): Promise<Buffer> {
    const object = await this.storage.get(key);
    if (!object) throw new Error(`the stored object ${key} is missing`);
    return buffer(object.stream);
  }
}
