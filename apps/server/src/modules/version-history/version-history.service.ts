import type { Readable } from 'node:stream';
import {
  fileKindOf,
  historyMessages,
  type FileHistory,
  type User,
  type VersionFile,
  type VersionStorage,
} from '@reskin/contract';
import type { DownloadTickets } from '../../lib/download-tickets';
import { notFound, unprocessable } from '../../lib/errors';
import { MissingObjectError, type Storage } from '../../storage/storage';
import type { GameFilesRepository } from '../games/game-files.repository';
import type { VersionIntake } from '../versions/intake/version-intake';
import type { VersionsService } from '../versions/versions.service';
import type { VersionHistoryRepository } from './version-history.repository';

/** A ticket covers every entry of one version (the history of each of its files). */
const historyResource = (versionId: number) => `version-history:${versionId}`;

/**
 * The history of a version's files (decision 0034): GET .../history, the entries' content and POST
 * .../restore. The version's access rules are the versions service's: its owner through an active assignment or
 * a reviewer see it, anyone else gets a 404; a restore is an upload of the entry's bytes, so it has an upload's
 * rules (demo 403, 423 locked or disabled).
 */
export class VersionHistoryService {
  constructor(
    private readonly history: VersionHistoryRepository,
    private readonly versions: VersionsService,
    /** A restore is an upload of the entry's bytes (decision 0055). */
    private readonly intake: VersionIntake,
    private readonly gameFiles: GameFilesRepository,
    private readonly storage: Storage,
    private readonly tickets: DownloadTickets,
    private readonly limit: number,
  ) {}

  /** GET /game-versions/{versionId}/files/{fileId}/history: newest first, each with a ticketed URL to view it. */
  async list(user: User, versionId: number, fileId: number): Promise<FileHistory> {
    const version = await this.versions.reachableVersion(user, versionId);
    const original = await this.gameFiles.findFile(version.gameId, fileId);
    if (!original) throw notFound('Game file');
    const entries = await this.history.list(versionId, fileId);
    const ticket = entries.length > 0 ? await this.tickets.sign(user.id, historyResource(versionId)) : '';
    return {
      versionId,
      fileId,
      path: original.path,
      limit: this.limit,
      entries: entries.map((entry) => ({
        ...entry,
        url: `/api/game-versions/${versionId}/files/${fileId}/history/${entry.id}/content?ticket=${ticket}`,
      })),
    };
  }

  /** The caller of a content request: the logged-in user, or the holder of a ticket for this version's history. */
  async contentCaller(caller: User | null, versionId: number, ticket: string | undefined): Promise<User> {
    if (caller) return caller;
    const user = ticket ? await this.tickets.holder(ticket, historyResource(versionId)) : undefined;
    if (!user) throw notFound('History entry');
    return user;
  }

  /** An entry's bytes, with its type and size. */
  async content(
    user: User,
    versionId: number,
    fileId: number,
    entryId: number,
  ): Promise<{ stream: Readable; contentType: string; size: number }> {
    await this.versions.reachableVersion(user, versionId);
    const entry = await this.history.find(versionId, fileId, entryId);
    if (!entry) throw notFound('History entry');
    const object = await this.storage.get(entry.storageKey);
    if (!object) throw new MissingObjectError(entry.storageKey);
    return { stream: object.stream, contentType: entry.contentType, size: Number(entry.size) };
  }

  /**
   * POST .../history/{entryId}/restore: the entry's bytes become the version's file again, through the upload
   * (its checks, its lock rules, a new entry `restore` naming this one). An image entry of another pixel size than
   * the game's file now is refused first with a message that says so.
   */
  async restore(user: User, versionId: number, fileId: number, entryId: number): Promise<VersionFile> {
    const version = await this.versions.changeableVersion(user, versionId, 'upload', '/versionId');
    const entry = await this.history.find(versionId, fileId, entryId);
    if (!entry) throw notFound('History entry');
    const original = await this.gameFiles.findFile(version.gameId, fileId);
    if (!original) throw notFound('Game file');
    const kind = fileKindOf(original);
    const entryIsImage = entry.width !== null;
    if (kind === 'other' || (kind === 'image') !== entryIsImage) {
      throw unprocessable(historyMessages.kindChanged, [
        { path: '/entryId', code: 'kind_changed', message: historyMessages.kindChanged },
      ]);
    }
    if (entryIsImage && (entry.width !== original.width || entry.height !== original.height)) {
      const message = historyMessages.sizeChanged(entry, original);
      throw unprocessable(message, [{ path: '/entryId', code: 'image_size', message }]);
    }
    const object = await this.storage.get(entry.storageKey);
    if (!object) throw new MissingObjectError(entry.storageKey);
    return this.intake.uploadFile(user, versionId, fileId, object.stream, {
      how: 'restore',
      restoredFrom: entry.id,
    });
  }

  /** GET /game-versions/{id}/storage (reviewers): what the version keeps in storage. */
  async storageUse(user: User, versionId: number): Promise<VersionStorage> {
    await this.versions.reachableVersion(user, versionId);
    const use = await this.history.storageUse(versionId);
    return { versionId, ...use, storageBytes: use.currentBytes + use.historyBytes };
  }
}
