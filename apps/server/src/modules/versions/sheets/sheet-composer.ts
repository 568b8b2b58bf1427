import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import type { FastifyBaseLogger } from 'fastify';
import { framesOfSheet, type GameVersion } from '@reskin/contract';
import { extensionOf } from '../../../lib/game-paths';
import { decodePixels, type RgbaImage } from '../../../lib/images/pixels';
import { variantKey } from '../../../lib/images/copy-keys';
import type { PutOptions, Storage } from '../../../storage/storage';
import type { GameFileRow, GameFilesRepository } from '../../games/game-files.repository';
import type { StoredFilesService } from '../../stored-files/stored-files.service';
import type { FileHistory, HistoryCause } from '../intake/history-entries';
import type { AtlasesService } from '../../atlases/atlases.service';
import { composeSheet, type FrameReplacement } from './compose-sheet';
import type { MarkedRendition, VersionFrameRow, VersionSheetsRepository } from './version-sheets.repository';

/**
 * What the request that asks for a composition holds already (decision 0055), by stored key: the frame it brings,
 * decoded, or the whole-sheet upload's bytes. Neither is read from storage again.
 */
export interface KnownContent {
  pixels?: ReadonlyMap<string, RgbaImage>;
  bytes?: ReadonlyMap<string, Buffer>;
}

/**
 * Makes a version's composed sheet (decision 0028) after any change of its frames or its whole-sheet
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
    private readonly history: FileHistory,
    private readonly gameFiles: GameFilesRepository,
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
        const sheet = await this.gameFiles.findFile(gameId, fileId);
        if (!sheet) continue;
        // No one asked for it: the entry in the sheet's history has no author.
        await this.compose({ id: versionId, gameId }, sheet, { how: 'frame', authorId: null });
        recomposed++;
      } catch (error) {
        this.log.warn(
          { err: error, versionId, fileId },
          "a version's sheet could not be composed again; the next start or services update tries again",
        );
      }
    }
    if (recomposed > 0)
      this.log.info({ sheets: recomposed }, 'sheets left behind their frames were composed again');
    const marked = await this.recomposeMarked();
    return recomposed + marked;
  }

  /**
   * Draws again the marked renditions (decision 0049) not drawn on their game file's current watermarked copy: of
   * one game file after Gen. or the copies job made its copies again, or of every game (start-up, the services
   * update). A sheet that fails is logged and left for the next run. Answers how many landed.
   */
  async recomposeMarked(of?: { gameId: number; fileId: number }): Promise<number> {
    let recomposed = 0;
    for (const { versionId, gameId, fileId } of await this.sheets.markedBehind(of)) {
      try {
        const sheet = await this.gameFiles.findFile(gameId, fileId);
        if (sheet && (await this.composeMarked({ id: versionId, gameId }, sheet))) recomposed++;
      } catch (error) {
        this.log.warn(
          { err: error, versionId, fileId },
          "a version's marked sheet could not be drawn again; the next start or services update tries again",
        );
      }
    }
    if (recomposed > 0)
      this.log.info(
        { sheets: recomposed },
        "marked sheets drawn again on their game's current watermarked copies",
      );
    return recomposed;
  }

  /**
   * Composes a version's sheet from its recorded frames, the base and the descriptor's frames, and records it
   * unless a newer composition landed first. A frame the descriptor no longer has (the game's files changed) is
   * left out. With the game's original sheet as base, the same frames are also drawn on its watermarked copy:
   * the rendition the version view serves to whoever may not see originals (decision 0049).
   */
  async compose(
    version: Pick<GameVersion, 'id' | 'gameId'>,
    sheet: GameFileRow,
    cause: HistoryCause,
    known: KnownContent = {},
  ): Promise<void> {
    const inputs = await this.sheets.compositionInputs(version.id, sheet.fileId);
    if (!inputs) return;
    let replacements: FrameReplacement[];
    let base: Buffer;
    try {
      replacements = await this.replacementsOf(version.gameId, sheet.fileId, inputs.frames, known);
      const baseKey = inputs.sheet.baseKey ?? sheet.storageKey;
      base = known.bytes?.get(baseKey) ?? (await this.read(baseKey));
    } catch (error) {
      // A frame replaced again (or restored) since the inputs were read has its object deleted: compose from the
      // newer inputs (whichever of the two compositions finishes last, the newest lands), so the caller answers
      // with a composed sheet.
      if (await this.superseded(version.id, sheet.fileId, inputs.sheet.revision))
        return this.compose(version, sheet, cause, known);
      throw error;
    }
    // From the version's composition now, if it was drawn on the same base (composeSheet checks), as a frame
    // upload composes (decision 0061).
    const now = await this.sheets.fileKey(version.id, sheet.fileId);
    const previous = await this.previousComposition(now === inputs.sheet.baseKey ? null : now);
    const composed = await composeSheet(base, sheet.path, replacements, previous);
    const key = `versions/${version.id}/${randomUUID()}.${extensionOf(sheet.path)}`;
    await this.storage.put(key, composed);
    let marked: MarkedRendition = { key: null, from: null };
    const file = { width: sheet.width, height: sheet.height, contentType: sheet.contentType };
    let staged;
    const dropped: string[] = [];
    let landed;
    try {
      if (inputs.sheet.baseKey === null)
        marked = await this.drawMarked(version.id, sheet, replacements, undefined, inputs.sheet.markedKey);
      staged = await this.history.stage(version.id, key, file);
      landed = await this.sheets.landComposed(
        version.id,
        sheet.fileId,
        inputs.sheet.revision,
        { ...file, path: sheet.path, size: composed.length, storageKey: key },
        marked,
        async (trx) => this.history.recordIn(staged!, cause, dropped)(trx, version.id, sheet.fileId),
      );
    } catch (error) {
      await this.history.discard(staged);
      await this.storedFiles.removeStaged([key, ...(marked.key ? [marked.key] : [])]);
      throw error;
    }
    if (landed === 'stale') {
      await this.storedFiles.deleteObjects([key, staged.storageKey, ...(marked.key ? [marked.key] : [])]);
      return;
    }
    this.filesChanged(version.gameId);
    await this.storedFiles.deleteObjects([...landed.replaced, ...dropped]);
    // Gen. may have made the copies again while this was drawn on the previous ones (its own pass over the
    // sheets then found the previous marked rendition): draw it again on the current ones.
    if (
      inputs.sheet.baseKey === null &&
      (await this.gameFiles.findFile(version.gameId, sheet.fileId))?.copiesKey !== marked.from
    ) {
      await this.recomposeMarked({ gameId: version.gameId, fileId: sheet.fileId });
    }
  }

  /**
   * Draws a sheet's marked rendition again on the game file's current watermarked copy and lands it if the sheet
   * still has the composition it was drawn for. Answers whether it landed.
   */
  private async composeMarked(
    version: Pick<GameVersion, 'id' | 'gameId'>,
    sheet: GameFileRow,
  ): Promise<boolean> {
    const inputs = await this.sheets.compositionInputs(version.id, sheet.fileId);
    if (!inputs || inputs.sheet.baseKey !== null || inputs.sheet.composedRevision !== inputs.sheet.revision)
      return false;
    let replacements: FrameReplacement[];
    try {
      replacements = await this.replacementsOf(version.gameId, sheet.fileId, inputs.frames);
    } catch (error) {
      if (await this.superseded(version.id, sheet.fileId, inputs.sheet.revision)) return false;
      throw error;
    }
    const marked = await this.drawMarked(version.id, sheet, replacements);
    let landed;
    try {
      landed = await this.sheets.landMarked(
        version.id,
        sheet.fileId,
        inputs.sheet.revision,
        inputs.sheet.markedKey,
        marked,
      );
    } catch (error) {
      if (marked.key) await this.storedFiles.removeStaged([marked.key]);
      throw error;
    }
    if (landed === 'stale') {
      if (marked.key) await this.storedFiles.deleteObjects([marked.key]);
      return false;
    }
    this.filesChanged(version.gameId);
    if (landed.replaced) await this.storedFiles.deleteObjects([landed.replaced]);
    return true;
  }

  /**
   * A version's marked rendition of a sheet: the frames on the game file's watermarked copy, stored beside the
   * version's composed sheets under a key of its own (a rendition drawn again on new copies gets a new key, so the
   * play origin's kept bodies and ETags follow, decision 0046). None while the file has no copies (or they were
   * deleted as Gen. replaced them): the version view then serves a blank, and the next pass draws it.
   */
  async drawMarked(
    versionId: number,
    sheet: GameFileRow,
    replacements: FrameReplacement[],
    options?: PutOptions,
    /** The version's marked rendition of the sheet now, if any: its unchanged bands are kept (decision 0061). */
    previousKey: string | null = null,
  ): Promise<MarkedRendition> {
    if (sheet.copiesKey === null) return { key: null, from: null };
    const [copy, previous] = await Promise.all([
      this.storage.get(variantKey(sheet.copiesKey, 'watermark')),
      this.previousComposition(previousKey),
    ]);
    if (!copy) return { key: null, from: null };
    const marked = await composeSheet(await buffer(copy.stream), sheet.path, replacements, previous);
    const key = `versions/${versionId}/${randomUUID()}.marked.${extensionOf(sheet.path)}`;
    await this.storage.put(key, marked, options);
    return { key, from: sheet.copiesKey };
  }

  /**
   * An earlier composition of a sheet, to compose the next one from (compose-sheet.ts): none when there is no key
   * or its object cannot be read (deleted as a newer composition landed), and the next is composed from the base:
   * it only saves work.
   */
  async previousComposition(key: string | null): Promise<Buffer | undefined> {
    if (key === null) return undefined;
    try {
      const object = await this.storage.get(key);
      return object ? await buffer(object.stream) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Whether the sheet changed after `revision` (or lost its frames): a composition of it is no longer wanted. */
  private async superseded(versionId: number, fileId: number, revision: number): Promise<boolean> {
    const now = await this.sheets.compositionInputs(versionId, fileId);
    return !now || now.sheet.revision > revision;
  }

  /** The replaced frames that the descriptor still has, with their images. */
  private async replacementsOf(
    gameId: number,
    fileId: number,
    rows: VersionFrameRow[],
    known: KnownContent = {},
  ): Promise<FrameReplacement[]> {
    const { frames: atlasFrames } = framesOfSheet((await this.atlases.find(gameId)).atlases, fileId);
    const replacements: FrameReplacement[] = [];
    for (const row of rows) {
      const frame = atlasFrames.get(row.frame);
      if (frame)
        replacements.push({
          frame,
          pixels: known.pixels?.get(row.storageKey) ?? (await decodePixels(await this.read(row.storageKey))),
        });
    }
    return replacements;
  }

  private async read(key: string): Promise<Buffer> {
    const object = await this.storage.get(key);
    if (!object) throw new Error(`the stored object ${key} is missing`);
    return buffer(object.stream);
  }
}
