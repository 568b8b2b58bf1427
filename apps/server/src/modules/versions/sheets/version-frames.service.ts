import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import {
  framesOfSheet,
  imageFormatOfName,
  validationMessages,
  type AtlasFrame,
  type FrameUpload,
  type GameVersion,
  type User,
} from '@reskin/contract';
import { notFound, unprocessable } from '../../../lib/errors';
import { extensionOf } from '../../../lib/game-paths';
import { InvalidImageError, inspectImage } from '../../../lib/images/image-inspection';
import type { FreeSpaceGuard } from '../../../storage/free-space';
import type { Storage } from '../../../storage/storage';
import type { GameFileRow, GamesRepository } from '../../games/games.repository';
import { assertUploadInTime, type StoredFilesService } from '../../stored-files/stored-files.service';
import { toVersionFile, type VersionsRepository } from '../versions.repository';
import type { VersionsService } from '../versions.service';
import type { AtlasesService } from '../../atlases/atlases.service';
import { dropsVisiblePixels } from './compose-sheet';
import type { SheetComposer } from './sheet-composer';
import type { VersionSheetsRepository } from './version-sheets.repository';

/** Sheet formats a composed sheet can be written in (sharp writes them); a BMP or icon sheet is replaced whole. */
const composable = new Set(['png', 'jpeg', 'webp', 'gif', 'avif']);

/**
 * Replacing single frames of a sprite sheet in a version (decision 0028): POST
 * /game-version/upload-frame/{versionId}/{fileId} and DELETE /game-versions/{versionId}/files/{fileId}/frames/{frame}.
 * The version rules are the file upload's (VersionsService.changeableVersion: demo 403, someone else's 404, a
 * locked or disabled version 423). Each change records the frame, then composes the sheet before answering
 * (VersionSheetsRepository: the newest composition lands, on any server).
 */
export class VersionFramesService {
  constructor(
    private readonly versions: VersionsService,
    private readonly versionRows: VersionsRepository,
    private readonly sheets: VersionSheetsRepository,
    private readonly composer: SheetComposer,
    private readonly atlases: AtlasesService,
    private readonly games: GamesRepository,
    private readonly storage: Storage,
    private readonly storedFiles: StoredFilesService,
    private readonly space: FreeSpaceGuard,
  ) {}

  async uploadFrame(
    user: User,
    versionId: number,
    fileId: number,
    upload: { frame: string | undefined; fileName: string | undefined; content: Readable },
  ): Promise<FrameUpload> {
    const { frame: frameName, content } = upload;
    const startedAt = Date.now();
    let version: GameVersion;
    let target: { sheet: GameFileRow; frame: AtlasFrame };
    try {
      version = await this.versions.changeableVersion(user, versionId, 'upload', '/versionId');
      if (!frameName)
        throw unprocessable('Name the frame to replace.', [
          { path: '/frame', code: 'required', message: 'The frame field (sent before the file) is missing.' },
        ]);
      target = await this.frameOf(version.gameId, fileId, frameName);
      await this.space.assertRoom('upload');
    } catch (error) {
      content.resume();
      throw error;
    }
    const { sheet, frame } = target;
    const storageKey = `versions/${versionId}/frames/${randomUUID()}.${extensionOf(sheet.path) || 'png'}`;
    await this.storage.put(storageKey, content).catch(async (error: unknown) => {
      await this.storedFiles.removeStaged([]);
      throw error;
    });
    let image: Buffer;
    try {
      const stored = await this.storage.get(storageKey);
      if (!stored) throw new Error('the stored upload vanished');
      image = await buffer(stored.stream);
      const refuse = (code: string, message: string) =>
        unprocessable(message, [{ path: '/file', code, message }]);
      if (image.length === 0) throw refuse('empty', 'The file is empty (0 bytes).');
      let info;
      try {
        // The upload's own name says its format (a PNG frame for a JPEG sheet is fine); else the sheet's.
        const named = upload.fileName && imageFormatOfName(upload.fileName) ? upload.fileName : sheet.path;
        info = await inspectImage(await this.readable(storageKey), named);
      } catch (error) {
        if (error instanceof InvalidImageError)
          throw refuse('invalid_image', 'This file is not an image the server can read.');
        throw error;
      }
      const { w, h } = frame.sourceSize;
      if (info.width !== w || info.height !== h) {
        throw refuse('image_size', validationMessages.frameSize(frame.name, frame.sourceSize, info));
      }
      assertUploadInTime(startedAt);
      const previous = await this.sheets.recordFrame(
        { gameVersionId: versionId, fileId, frame: frame.name, storageKey, width: w, height: h },
        this.versions.stillChangeable(user, version, 'upload'),
      );
      if (previous === undefined) throw notFound('Game version');
      if (previous) await this.storedFiles.deleteObjects([previous]);
    } catch (error) {
      await this.storedFiles.removeStaged([storageKey]);
      throw error;
    }
    await this.composer.compose(version, sheet, { how: 'frame', authorId: user.id });
    await this.versions.replaced(user, version, fileId, frame.name);
    const notice = (await dropsVisiblePixels(frame, image))
      ? `Parts of your image outside the frame's trimmed area (${frame.offset.x},${frame.offset.y} to ${frame.offset.x + (frame.rotation % 180 ? frame.rect.h : frame.rect.w)},${frame.offset.y + (frame.rotation % 180 ? frame.rect.w : frame.rect.h)}) are not transparent: the sheet keeps only the trimmed area.`
      : null;
    return { ...(await this.versionFile(versionId, fileId)), notice };
  }

  /** Restores one frame: the sheet is composed again without it (or is the original, or the whole-sheet upload, again). */
  async restoreFrame(user: User, versionId: number, fileId: number, frameName: string): Promise<void> {
    const version = await this.versions.changeableVersion(user, versionId, 'restore', '/versionId');
    const sheet = await this.games.findFile(version.gameId, fileId);
    if (!sheet) throw notFound('Game file');
    // A frame the version never replaced is a 404 before the version row is locked (and touched).
    if (!(await this.sheets.framesOf(versionId)).get(fileId)?.includes(frameName))
      throw notFound('Replaced frame');
    const removed = await this.sheets.removeFrame(
      versionId,
      fileId,
      frameName,
      this.versions.stillChangeable(user, version, 'restore'),
    );
    if (!removed) throw notFound('Replaced frame');
    await this.storedFiles.deleteObjects([
      removed.frameKey,
      ...[removed.removedKey, removed.markedKey].filter((key) => key !== null),
    ]);
    if (removed.last) this.composer.filesChanged(version.gameId);
    else await this.composer.compose(version, sheet, { how: 'frame', authorId: user.id });
  }

  /** The sheet image and the frame of that name in it (404 for no such sheet or frame, 422 for a sheet that cannot be composed). */
  private async frameOf(
    gameId: number,
    fileId: number,
    frameName: string,
  ): Promise<{ sheet: GameFileRow; frame: AtlasFrame }> {
    const sheet = await this.games.findFile(gameId, fileId);
    if (!sheet) throw notFound('Game file');
    const { frames, found } = framesOfSheet((await this.atlases.find(gameId)).atlases, fileId);
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
    return { sheet, frame };
  }

  private async versionFile(versionId: number, fileId: number) {
    const row = await this.versionRows.findFile(versionId, fileId);
    if (!row) throw notFound('Game version');
    return { ...toVersionFile(row), frames: (await this.sheets.framesOf(versionId)).get(fileId) ?? [] };
  }

  private async readable(key: string): Promise<Readable> {
    const object = await this.storage.get(key);
    if (!object) throw new Error(`the stored object ${key} is missing`);
    return object.stream;
  }
}
