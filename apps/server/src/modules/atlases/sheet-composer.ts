import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import type { FastifyBaseLogger } from 'fastify';
import { framesOfSheet, type GameVersion } from '@reskin/contract';
import { extensionOf } from '../../lib/game-paths';
import type { Storage } from '../../storage/storage';
import type { GameFileRow, GamesRepository } from '../games/games.repository';
import type { StoredFilesService } from '../stored-files/stored-files.service';
import type { HistoryCause } from '../version-history/version-history.repository';
import type { VersionHistoryRecorder } from '../version-history/version-history.recorder';
import type { AtlasesService } from './atlases.service';
import { composeSheet } from './compose-sheet';
import type { VersionSheetsRepository } from './version-sheets.repository';

/**
 * Makes a version's composed sheet (issue 26, decision 0028) after any change of its frames or its whole-sheet
 * upload, before the request that changed it answers.
 */
export class SheetComposer {
  constructor(
    private readonly sheets: VersionSheetsRepository,
    private readonly atlases: AtlasesService,
    private readonly storage: Storage,
    private readonly storedFiles: StoredFilesService,
    /** Tells the play origin that a version's replacements changed (as an upload does). */
    readonly filesChanged: (gameId: number) => void,
    /** The sheet's history (decision 0034): each composition that lands is an entry. */
    private readonly history: VersionHistoryRecorder,
    private readonly games: GamesRepository,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Composes every sheet whose last change has no composition (decision 0046): a server stopped between recording
   * a frame and landing its composition, and the version kept serving an older sheet. Runs at start-up and in the
   * services update; on several servers at once the newest composition lands (landComposed). A sheet that cannot
   * be composed now (storage unreachable, an object missing) is logged and left for the next run. Answers how many
   * landed or were found landed by another server meanwhile.
   */
  async recomposeBehind(): Promise<number> {
    let recomposed = 0;
    for (const { versionId, gameId, fileId } of await this.sheets.sheetsBehind()) {
      try {
        const sheet = await this.games.findFile(gameId, fileId);
        if (!sheet) continue;
        // No one asked for it: the entry in the sheet's history has no author.
        await this.compose({ id: versionId, gameId }, sheet, { how: 'frame', authorId: null });
        recomposed++;
      } catch (error) {
        this.log.warn({ err: error, versionId, fileId }, "a version's sheet could not be composed again; the next start or services update tries again");
      }
    }
    if (recomposed > 0) this.log.info({ sheets: recomposed }, 'sheets left behind their frames were composed again');
    return recomposed;
  }

  /**
   * Composes a version's sheet from its recorded frames, the base and the descriptor's frames, and records it
   * unless a newer composition landed first. A frame the descriptor no longer has (the game's files changed) is
   * left out.
   */
  async compose(version: Pick<GameVersion, 'id' | 'gameId'>, sheet: GameFileRow, cause: HistoryCause): Promise<void> {
    const inputs = await this.sheets.compositionInputs(version.id, sheet.fileId);
    if (!inputs) return;
    const { frames: atlasFrames } = framesOfSheet((await this.atlases.find(version.gameId)).atlases, sheet.fileId);
    const base = await this.read(inputs.sheet.baseKey ?? sheet.storageKey);
    const replacements = [];
    for (const row of inputs.frames) {
      const frame = atlasFrames.get(row.frame);
      if (frame) replacements.push({ frame, image: await this.read(row.storageKey) });
    }
    const composed = await composeSheet(base, sheet.path, replacements);
    const key = `versions/${version.id}/${randomUUID()}.${extensionOf(sheet.path)}`;
    await this.storage.put(key, composed);
    const file = { width: sheet.width, height: sheet.height, contentType: sheet.contentType };
    let staged;
    const dropped: string[] = [];
    let replaced;
    try {
      staged = await this.history.stage(version.id, key, file);
      replaced = await this.sheets.landComposed(
        version.id,
        sheet.fileId,
        inputs.sheet.revision,
        { ...file, path: sheet.path, size: composed.length, storageKey: key },
        async (trx) => this.history.recordIn(staged!, cause, dropped)(trx, version.id, sheet.fileId),
      );
    } catch (error) {
      await this.history.discard(staged);
      await this.storedFiles.removeStaged([key]);
      throw error;
    }
    if (replaced === 'stale') {
      await this.storedFiles.deleteObjects([key, staged.storageKey]);
      return;
    }
    this.filesChanged(version.gameId);
    await this.storedFiles.deleteObjects([...(replaced ? [replaced] : []), ...dropped]);
  }

  private async read(key: string): Promise<Buffer> {
    const object = await this.storage.get(key);
    if (!object) throw new Error(`the stored object ${key} is missing`);
    return buffer(object.stream);
  }
}
