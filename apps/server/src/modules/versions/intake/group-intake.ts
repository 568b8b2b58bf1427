import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import mime from 'mime';
import type { GameVersion, ImageFormatName, User } from '@reskin/contract';
import { AppError, notFound } from '../../../lib/errors';
import { extensionOf } from '../../../lib/game-paths';
import type { FreeSpaceGuard } from '../../../storage/free-space';
import type { Storage } from '../../../storage/storage';
import type { GameFileRow } from '../../games/game-files.repository';
import type { StoredFilesService } from '../../stored-files/stored-files.service';
import type { VersionsService } from '../versions.service';
import type { FileHistory, StagedEntry } from './history-entries';
import { assertOriginalSize, assertSafeSvg } from './intake-checks';
import type { IntakeRepository, IntakeState } from './intake.repository';
import type { VersionIntake } from './version-intake';

/** A batch row's image, checked by its plan and stored under fresh keys (its history copy too) before it lands. */
export interface StagedImage {
  fileId: number;
  /** Reads the checked content again: the single upload's input when it takes this row. */
  read(): Promise<Buffer>;
  storageKey: string;
  size: number;
  width: number;
  height: number;
  contentType: string;
  entry: StagedEntry;
}

/**
 * The intake of a batch's whole image files (decision 0060), its rows' version rules held as the single upload's
 * (decision 0055). Each row is staged as soon as its plan checked it (`stage`: stored under a fresh key with its
 * history copy, the waits for the disk overlapping the other rows' decoding), then rows land in groups
 * (`land`): the version's rules and the free-space check once, the states of all its files in one statement,
 * and one transaction for the group (the version files, their history entries, the notes they resolve). A row
 * the group cannot take (a file that is a sheet with replaced frames, or a group rolled back by a fault) goes
 * through the single upload (VersionIntake.uploadFile), so a bad row gets its own error and the others land.
 */
export class GroupIntake {
  constructor(
    private readonly single: VersionIntake,
    private readonly versions: VersionsService,
    private readonly rows: IntakeRepository,
    private readonly storage: Storage,
    private readonly storedFiles: StoredFilesService,
    private readonly space: FreeSpaceGuard,
    private readonly history: FileHistory,
    /** Tells the play origin that a version's replacements changed. */
    private readonly filesChanged: (gameId: number) => void,
  ) {}

  /**
   * Stores a row's checked image (checked by its plan: nothing here decodes it) under a fresh key of the version,
   * and its history copy inside the store. An unsafe SVG is refused (422) before anything is stored. The write does
   * not wait for the disk: its group is made durable together before it lands (`land`, decision 0061).
   */
  async stage(
    versionId: number,
    original: GameFileRow,
    content: {
      read(): Promise<Buffer>;
      held: Buffer | null;
      width: number;
      height: number;
      format: ImageFormatName;
    },
  ): Promise<StagedImage> {
    const bytes = content.held ?? (await content.read());
    assertSafeSvg(content.format, bytes);
    const storageKey = `versions/${versionId}/${randomUUID()}.${extensionOf(original.path)}`;
    const contentType = original.contentType || (mime.getType(original.path) ?? 'application/octet-stream');
    const file = { width: content.width, height: content.height, contentType };
    await this.storage.put(storageKey, bytes, { durable: false });
    let entry: StagedEntry;
    try {
      entry = await this.history.stage(versionId, storageKey, file);
    } catch (error) {
      await this.storedFiles.removeStaged([storageKey]);
      throw error;
    }
    return { fileId: original.fileId, read: content.read, storageKey, size: bytes.length, ...file, entry };
  }

  /** Removes what `stage` stored for rows that are not landed (a duplicate, a refusal). */
  async discard(staged: StagedImage[]): Promise<void> {
    if (staged.length === 0) return;
    await this.storedFiles.removeStaged(
      staged.flatMap((image) => [image.storageKey, image.entry.storageKey]),
    );
  }

  /**
   * Lands a group of staged rows of `version` and answers each one's refusal in their order (null: landed). The version's refusals (locked, disabled, deleted, DATA_DIR full) are thrown for the
   * whole group, as the single upload would refuse each of its rows; a server fault is thrown too.
   */
  async land(user: User, version: GameVersion, staged: StagedImage[]): Promise<(AppError | null)[]> {
    const outcomes = new Map<StagedImage, AppError | null>();
    let states: Map<number, IntakeState>;
    try {
      await this.versions.changeableVersion(user, version.id, 'upload', '/versionId');
      await this.space.assertRoom('upload');
      states = await this.rows.statesOf(
        version.id,
        version.gameId,
        staged.map((image) => image.fileId),
      );
    } catch (error) {
      await this.discard(staged);
      throw error;
    }
    const landing: StagedImage[] = [];
    const alone: StagedImage[] = [];
    for (const image of staged) {
      const state = states.get(image.fileId);
      try {
        if (!state) throw notFound('Game file');
        // The game file may have changed since the plan read it.
        assertOriginalSize(image, state.original);
        (state.sheet === null ? landing : alone).push(image);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        outcomes.set(image, error);
      }
    }
    await this.discard(staged.filter((image) => !landing.includes(image)));
    if (landing.length > 0) alone.push(...(await this.landGroup(user, version, landing, states)));
    for (const image of alone) outcomes.set(image, await this.uploadAlone(user, version, image));
    return staged.map((image) => outcomes.get(image) ?? null);
  }

  /**
   * One transaction for the group; answers the rows it left to the single upload (their staged objects removed):
   * files that became sheets meanwhile, or every row when a fault rolled the group back.
   */
  private async landGroup(
    user: User,
    version: GameVersion,
    landing: StagedImage[],
    states: Map<number, IntakeState>,
  ): Promise<StagedImage[]> {
    const unused: string[] = [];
    let events: number[] = [];
    let landed: Awaited<ReturnType<IntakeRepository['landFiles']>>;
    try {
      // The group's objects reach the disk together before anything records them (decision 0061). A history copy
      // is a link to its version object's file (Storage.copy), so the one sync covers both; a store without links
      // writes the copy durably itself.
      await this.storage.makeDurable(landing.map((image) => image.storageKey));
      landed = await this.rows.landFiles(
        version.id,
        landing.map((image) => ({
          fileId: image.fileId,
          path: states.get(image.fileId)!.original.path,
          width: image.width,
          height: image.height,
          size: image.size,
          contentType: image.contentType,
          storageKey: image.storageKey,
        })),
        this.versions.stillChangeable(user, version, 'upload'),
        async (trx, fileIds) => {
          const entries = landing
            .filter((image) => fileIds.includes(image.fileId))
            .map((image) => ({ fileId: image.fileId, staged: image.entry }));
          await this.history.recordAllIn(
            trx,
            version.id,
            entries,
            { how: 'batch', authorId: user.id },
            unused,
          );
          events = await this.versions.replacedFilesIn(trx, user, version, fileIds);
        },
      );
    } catch (error) {
      await this.discard(landing);
      // Locked or disabled meanwhile: the group's refusal. Any other failure: each row alone.
      if (error instanceof AppError) throw error;
      return landing;
    }
    if (landed === undefined) {
      await this.discard(landing);
      throw notFound('Game version');
    }
    const moved = landing.filter((image) => landed.moved.includes(image.fileId));
    await this.discard(moved);
    this.filesChanged(version.gameId);
    this.versions.eventsAdded(events);
    await this.storedFiles.deleteObjects([...landed.previousKeys, ...unused]);
    return moved;
  }

  /** One row through the single upload; answers its refusal (null: stored). */
  private async uploadAlone(user: User, version: GameVersion, image: StagedImage): Promise<AppError | null> {
    try {
      const content = Readable.from([await image.read()]);
      await this.single.uploadFile(user, version.id, image.fileId, content, { how: 'batch' });
      return null;
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
  }
}
