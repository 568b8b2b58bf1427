import { buffer } from 'node:stream/consumers';
import type { FastifyBaseLogger } from 'fastify';
import { remadeCopiesKey, variantKey } from '../../lib/images/copy-keys';
import { previewKey, withPreviews } from '../../lib/images/image-previews';
import type { FrameRect } from '../../lib/images/marks';
import { makeCopiesWithPreviews, type Copies } from '../../lib/images/variants';
import type { Storage } from '../../storage/storage';
import type { GameFileRow, GameFilesRepository } from './game-files.repository';
import type { GenerationRepository } from './generation.repository';
import { ImageError, imageDecodeError } from './generation-failure';

/**
 * The rects of the sprite frames on a game image that is a page of a sprite sheet (none for other images), so its
 * watermarked copy marks each frame on its own. The app answers it from AtlasesService.
 */
export type FramesOfImage = (gameId: number, fileId: number) => Promise<readonly FrameRect[]>;

/**
 * The work of generation on one image (GameGeneration runs it for each image of a game): its copies and their
 * previews made (lib/images/variants.ts, the image pipeline of decision 0059), written, recorded as the file's
 * copies, and the copies they replace deleted.
 */
export class ImageCopies {
  /** Told when a file's new copies are recorded, so the play origin looks its files up again (PlayFiles.forgetGame). */
  copiesChanged: (gameId: number) => void = () => {};
  /** Told, and awaited, when a file's new copies are recorded: versions' marked sheets are drawn on them (decision 0049). */
  copiesReplaced: (gameId: number, fileId: number) => Promise<void> = () => Promise.resolve();

  constructor(
    private readonly games: GenerationRepository,
    private readonly files: GameFilesRepository,
    private readonly storage: Storage,
    private readonly productName: string,
    private readonly log: FastifyBaseLogger,
    private readonly framesOfImage: FramesOfImage,
  ) {}

  /**
   * Writes the two copies of one image (a sprite sheet's watermark marks each of its frames) and their previews
   * (decision 0038: of the original, the watermarked copy and the skeleton), then records them as the file's copies
   * (adoptCopies: only while the file still has the content they were made from) and deletes the copies they
   * replace. A file deleted or replaced meanwhile is skipped, and what was written for a content it no longer has is
   * removed again: nobody else would, since its replacement or delete does not know of it. Safe when two jobs make
   * the same file's copies.
   */
  async make(file: GameFileRow): Promise<void> {
    // A content's first copies are named after it; copies made again get a new name (decision 0046).
    const copiesKey = file.copiesOf === file.storageKey ? remadeCopiesKey(file.storageKey) : file.storageKey;
    const copies = [variantKey(copiesKey, 'skeleton'), variantKey(copiesKey, 'watermark')] as const;
    const object = await this.storage.get(file.storageKey);
    if (!object) {
      if (!(await this.isCurrent(file))) return;
      this.log.error({ gameId: file.gameId, key: file.storageKey }, 'a stored game file is missing');
      throw new ImageError(file.path, 'missing_file', 'the stored file is missing.');
    }
    // A failed read is the store's fault (worth another try); a failure to decode is the image's.
    const original = await buffer(object.stream);
    const frames = await this.framesOfImage(file.gameId, file.fileId);
    let made: Copies;
    try {
      made = await makeCopiesWithPreviews(original, file.path, this.productName, frames);
    } catch (error) {
      if (!(await this.isCurrent(file))) return;
      throw imageDecodeError(file.path, error);
    }
    const written: [string, Buffer][] = [
      [copies[0], made.skeleton],
      [copies[1], made.watermark],
    ];
    if (made.previews) {
      const { original: ofOriginal, watermark: ofWatermark, skeleton: ofSkeleton } = made.previews;
      written.push(
        [previewKey(file.storageKey, 'preview'), ofOriginal.preview],
        [previewKey(file.storageKey, 'thumb'), ofOriginal.thumb],
        [previewKey(copies[1], 'preview'), ofWatermark.preview],
        [previewKey(copies[1], 'thumb'), ofWatermark.thumb],
        [previewKey(copies[0], 'preview'), ofSkeleton],
      );
    }
    // Copies can be made again by Gen., so their writes do not wait for the disk (PutOptions.durable).
    await Promise.all(written.map(([key, bytes]) => this.storage.put(key, bytes, { durable: false })));
    const adopted = await this.games.adoptCopies(file.id, file.storageKey, copiesKey, file.copiesKey);
    if (adopted === 'stale') {
      await Promise.all(written.map(([key]) => this.storage.delete(key)));
      return;
    }
    if (adopted !== 'already' && adopted.replaced !== copiesKey) {
      // Forgotten first: a play lookup kept meanwhile would point at the copies deleted next.
      this.copiesChanged(file.gameId);
      // The copies replaced, with their previews (never an original: only copies are named after a key).
      if (adopted.replaced !== null) {
        const previous = withPreviews([
          variantKey(adopted.replaced, 'skeleton'),
          variantKey(adopted.replaced, 'watermark'),
        ]);
        await Promise.all(previous.map((key) => this.storage.delete(key)));
      }
      await this.copiesReplaced(file.gameId, file.fileId).catch((error: unknown) =>
        this.log.warn(
          { err: error, gameId: file.gameId, fileId: file.fileId },
          "versions' marked sheets could not be drawn on the new copies; the next start or services update tries again",
        ),
      );
    }
  }

  /** Whether the game file still exists with the content the job read. */
  private async isCurrent(file: GameFileRow): Promise<boolean> {
    return (await this.files.findFile(file.gameId, file.fileId))?.storageKey === file.storageKey;
  }
}
