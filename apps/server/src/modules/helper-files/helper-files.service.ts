import { randomUUID } from 'node:crypto';
import mime from 'mime';
import { uploadMessages, type ErrorDetail, type User } from '@reskin/contract';
import { noFile, notFound, unprocessable } from '../../lib/errors';
import type { DownloadTickets } from '../../lib/download-tickets';
import { extensionOf } from '../../lib/game-paths';
import type { FreeSpaceGuard } from '../../storage/free-space';
import { MissingObjectError, type Storage, type StoredObject } from '../../storage/storage';
import type { GamesRepository } from '../games/games.repository';
import { incomingPath, type IncomingFile } from '../games/game-uploads.service';
import { assertUploadInTime, type StoredFilesService } from '../stored-files/stored-files.service';
import { maySeeGame } from '../games/game-access';
import type { HelperFilesRepository } from './helper-files.repository';

const resourceOf = (id: number) => `helper-file:${id}`;

/** Helper files of a game (GET /games/{id}/psd-files/): uploaded by admins, downloaded by assigned artists. */
export class HelperFilesService {
  constructor(
    private readonly helperFiles: HelperFilesRepository,
    private readonly games: GamesRepository,
    private readonly storage: Storage,
    private readonly tickets: DownloadTickets,
    private readonly storedFiles: StoredFilesService,
    private readonly space: FreeSpaceGuard,
  ) {}

  /** The list with download URLs that carry a ticket, so they work when opened in a new window. */
  async list(user: User, gameId: number) {
    await this.assertCanSee(user, gameId);
    const base = `/api/games/${gameId}/psd-files/`;
    const files = await Promise.all(
      (await this.helperFiles.list(gameId)).map(async (file) => ({
        id: file.id,
        name: file.path,
        size: file.size,
        url: `${base}${file.id}?ticket=${await this.tickets.sign(user.id, resourceOf(file.id))}`,
      })),
    );
    return { path: base, files };
  }

  /**
   * Stores uploaded helper files (admin), all or nothing like a game upload: every file is streamed to storage
   * under a fresh key, then checked (path, size, names twice), then all are recorded in one transaction; a file
   * with an existing name replaces that one. Any refusal, or the game deleted meanwhile (404), removes what
   * this request stored (once the storage answers, when it is what failed). Refused (507) while DATA_DIR is under
   * its free-space threshold.
   */
  async upload(gameId: number, files: AsyncIterable<IncomingFile>): Promise<number> {
    const startedAt = Date.now();
    if (!(await this.games.findById(gameId))) throw notFound('Game');
    await this.space.assertRoom('upload');
    const staged: { path: string; storageKey: string; size: number }[] = [];
    let replaced: string[] | undefined;
    try {
      for await (const incoming of files) {
        const path = incomingPath(incoming);
        const ext = extensionOf(path);
        const storageKey = `games/${gameId}/helpers/${randomUUID()}${ext ? `.${ext}` : ''}`;
        const { size } = await this.storage.put(storageKey, incoming.content);
        staged.push({ path, storageKey, size });
      }
      if (staged.length === 0) {
        throw noFile(uploadMessages.noFileInUpload, uploadMessages.chooseFiles);
      }
      const details: ErrorDetail[] = [];
      const seen = new Set<string>();
      for (const { path, size } of staged) {
        if (seen.has(path))
          details.push({
            path: `/files/${path}`,
            code: 'duplicate',
            message: `${path} is in this upload twice.`,
          });
        else if (size === 0)
          details.push({ path: `/files/${path}`, code: 'empty', message: `${path} is empty (0 bytes).` });
        seen.add(path);
      }
      if (details.length > 0) throw unprocessable(details[0]!.message, details);
      assertUploadInTime(startedAt);
      replaced = await this.helperFiles.saveAll(
        gameId,
        staged.map(({ path, storageKey, size }) => ({
          path,
          storageKey,
          size,
          contentType: mime.getType(path) ?? 'application/octet-stream',
        })),
      );
      if (!replaced) throw notFound('Game');
    } catch (error) {
      await this.storedFiles.removeStaged(staged.map((file) => file.storageKey));
      throw error;
    }
    await this.storedFiles.deleteObjects(replaced);
    return staged.length;
  }

  /**
   * Opens a helper file for download by the logged-in user, or by the holder of a ticket for exactly this
   * file, whose user is read anew: 403 once they changed token version, were suspended or deleted.
   */
  async open(
    caller: User | null,
    gameId: number,
    id: number,
    ticket: string | undefined,
  ): Promise<{ object: StoredObject; name: string; contentType: string }> {
    let user = caller;
    if (!user && ticket) user = (await this.tickets.holder(ticket, resourceOf(id))) ?? null;
    if (!user) throw notFound('Helper file');
    await this.assertCanSee(user, gameId);
    const file = await this.helperFiles.find(gameId, id);
    if (!file) throw notFound('Helper file');
    const object = await this.storage.get(file.storageKey);
    if (!object) throw new MissingObjectError(file.storageKey);
    return { object, name: file.path.split('/').pop() ?? file.path, contentType: file.contentType };
  }

  async delete(gameId: number, id: number): Promise<void> {
    const file = await this.helperFiles.find(gameId, id);
    if (!file) throw notFound('Helper file');
    await this.helperFiles.delete(file.id);
    await this.storedFiles.deleteObjects([file.storageKey]);
  }

  private async assertCanSee(user: User, gameId: number): Promise<void> {
    if (!(await maySeeGame(this.games, user, gameId)) || !(await this.games.findById(gameId)))
      throw notFound('Game');
  }
}
