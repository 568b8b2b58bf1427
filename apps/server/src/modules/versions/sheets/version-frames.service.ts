import type { User } from '@reskin/contract';
import { notFound } from '../../../lib/errors';
import type { GameFilesRepository } from '../../games/game-files.repository';
import type { StoredFilesService } from '../../stored-files/stored-files.service';
import type { VersionsService } from '../versions.service';
import type { SheetComposer } from './sheet-composer';
import type { VersionSheetsRepository } from './version-sheets.repository';

/**
 * Restoring single frames of a sprite sheet in a version (decision 0028): DELETE
 * /game-versions/{versionId}/files/{fileId}/frames/{frame}; a frame comes in through the intake
 * (intake/version-intake.ts). The version rules are the file upload's (VersionsService.changeableVersion: demo 403,
 * someone else's 404, a locked or disabled version 423). The change records the frame's removal, then composes the
 * sheet before answering (VersionSheetsRepository: the newest composition lands, on any server).
 */
export class VersionFramesService {
  constructor(
    private readonly versions: VersionsService,
    private readonly sheets: VersionSheetsRepository,
    private readonly composer: SheetComposer,
    private readonly gameFiles: GameFilesRepository,
    private readonly storedFiles: StoredFilesService,
  ) {}

  /** Restores one frame: the sheet is composed again without it (or is the original, or the whole-sheet upload, again). */
  async restoreFrame(user: User, versionId: number, fileId: number, frameName: string): Promise<void> {
    const version = await this.versions.changeableVersion(user, versionId, 'restore', '/versionId');
    const sheet = await this.gameFiles.findFile(version.gameId, fileId);
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
}
