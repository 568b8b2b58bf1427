import type { Readable } from 'node:stream';
import {
  can,
  errorCodes,
  limits,
  versionChangeRefusal,
  versionRuleMessages,
  type CreateVersionBody,
  type FilePageQuery,
  type GamePath,
  type GameVersion,
  type User,
  type UserGame,
  type VersionChange,
  type VersionFile,
  type VersionFilterBody,
  type VersionForm,
} from '@reskin/contract';
import type { Transaction } from 'kysely';
import type { Dialect } from '../../db/database';
import type { Database } from '../../db/schema';
import type { DownloadTickets } from '../../lib/download-tickets';
import { AppError, forbidden, notFound, withDetail } from '../../lib/errors';
import type { PlayPathsService } from '../play-paths/play-paths.service';
import { compileFilter } from '../../search/filter';
import type { Page } from '../../search/page';
import { MissingObjectError, type Storage } from '../../storage/storage';
import type { StoredFilesService } from '../stored-files/stored-files.service';
import type { UserGamesRepository } from '../user-games/user-games.repository';
import type { VersionSheetsRepository } from './sheets/version-sheets.repository';
import { zipStoredFiles } from './version-zip';
import { hasPreviews } from '../../lib/images/image-previews';
import type { PreviewUrl } from '../../lib/preview-grants';
import type { PostingThrottle } from '../../lib/posting-throttle';
import type { PreviewsService } from '../previews/previews.service';
import {
  searchableVersion,
  toVersionFile,
  type VersionFlags,
  type VersionsRepository,
} from './versions.repository';

const zipResource = (id: number) => `version-zip:${id}`;

/**
 * What the review loop (decision 0032) adds to version changes; modules/review/review-hooks.ts makes it.
 * A finish writes its inbox events (to the reviewers) in its own transaction; the version's artist replacing a
 * file (or one frame of it) resolves the open notes on it.
 */
export interface VersionReviewHooks {
  /** In the finish's transaction: its inbox events; answers their ids. */
  finished(trx: Transaction<Database>, user: User, version: GameVersion): Promise<number[]>;
  /** After the finish committed, with the ids `finished` answered. */
  eventsAdded(ids: number[]): void;
  /** After a replacement of `fileId` (of its `frame` when one) committed. */
  replaced(user: User, version: GameVersion, fileId: number, frame: string | null): Promise<void>;
  /** The same inside the replacement's own transaction; answers the inbox events' ids (for eventsAdded). */
  replacedIn(
    trx: Transaction<Database>,
    user: User,
    version: GameVersion,
    fileId: number,
    frame: string | null,
  ): Promise<number[]>;
  /** replacedIn for several whole files at once (a batch's group, decision 0060), in one statement. */
  replacedFilesIn(
    trx: Transaction<Database>,
    user: User,
    version: GameVersion,
    fileIds: number[],
  ): Promise<number[]>;
}

const noReviewHooks: VersionReviewHooks = {
  finished: async () => [],
  eventsAdded: () => {},
  replaced: async () => {},
  replacedIn: async () => [],
  replacedFilesIn: async () => [],
};

/**
 * The answer to a version change the rules refuse (version-rules.ts in the contract): 403 FORBIDDEN for a demo
 * account, 423 VERSION_LOCKED or VERSION_DISABLED for a version whose state refuses it, with the version's
 * parameter (`/id` or `/versionId`) in the detail.
 */
function refusedChange(
  user: User,
  version: GameVersion,
  change: VersionChange,
  path: string,
): AppError | undefined {
  const refusal = versionChangeRefusal(user, version, change);
  if (!refusal) return undefined;
  if (refusal.statusCode === 403) return forbidden(refusal.message, refusal.code);
  const detailCode = refusal.code === errorCodes.versionDisabled ? 'disabled' : 'locked';
  return withDetail(423, refusal.code, refusal.message, path, detailCode);
}

/** A version file's preview (VersionFile.preview): of its stored replacement (a sheet's: the composed sheet). */
export function previewOf(
  row: { path: string; width: number | null; storageKey: string },
  url: PreviewUrl | undefined,
): string | null {
  return url && row.width !== null && hasPreviews(row.path) && hasPreviews(row.storageKey)
    ? url(row.storageKey, 'preview')
    : null;
}

/**
 * Game versions (SPEC §7 "Game versions"; their files come in through intake/version-intake.ts). A user reaches only their own versions,
 * and only through an active assignment; anything else is a 404, like an unknown id. Admins reach all.
 */
export class VersionsService {
  constructor(
    private readonly versions: VersionsRepository,
    private readonly userGames: UserGamesRepository,
    private readonly storage: Storage,
    private readonly paths: PlayPathsService,
    private readonly tickets: DownloadTickets,
    private readonly storedFiles: StoredFilesService,
    private readonly dialect: Dialect,
    /** Tells the play origin that a version's replacements changed, so it looks them up again (play/play-files.ts). */
    private readonly filesChanged: (gameId: number) => void,
    /** A version's replaced atlas frames and marked renditions (its file list, its zip). */
    private readonly sheets: VersionSheetsRepository,
    private readonly review: VersionReviewHooks = noReviewHooks,
    /** The replaced images' preview URLs (decision 0038). */
    private readonly previews?: PreviewsService,
    /** How often an account may finish versions (decision 0044); none: no limit. */
    private readonly finishes?: PostingThrottle,
  ) {}

  /** GET /game-versions/{gameId}/{userGameId} */
  async list(user: User, gameId: number, userGameId: number): Promise<GameVersion[]> {
    const userGame = await this.reachableUserGame(user, userGameId);
    if (userGame.gameId !== gameId) throw notFound('User game');
    return this.versions.list({ userGamesId: userGame.id });
  }

  /** POST /game-versions: at most 6 per user-game, even under concurrent requests (VER-2). */
  async create(user: User, body: CreateVersionBody): Promise<GameVersion> {
    if (!can(user.roleTypeId, 'versions.change')) throw forbidden(versionRuleMessages.demo);
    const userGame = await this.reachableUserGame(user, body.userGamesId);
    if (userGame.gameId !== body.gameId) throw notFound('User game');
    const id = await this.versions.insertWithinLimit(
      {
        name: body.name,
        description: body.description,
        gameId: userGame.gameId,
        userGamesId: userGame.id,
        userId: userGame.userId,
      },
      limits.versionsPerUserGame,
    );
    if (id === undefined) {
      const message = versionRuleMessages.limit;
      throw withDetail(409, errorCodes.versionLimit, message, '/userGamesId', 'version_limit');
    }
    return this.mustFind(id);
  }

  async update(user: User, id: number, body: VersionForm): Promise<GameVersion> {
    await this.changeableVersion(user, id, 'rename', '/id');
    await this.versions.update(id, body);
    return this.mustFind(id);
  }

  /** Deletes a version with its replaced files. */
  async delete(user: User, id: number): Promise<void> {
    await this.changeableVersion(user, id, 'delete', '/id');
    if (!(await this.storedFiles.deleteOwner({ kind: 'version', id }))) throw notFound('Game version');
  }

  /** POST /game-versions/filter (admins): one page of the versions with the given keys, and how many match in all. */
  async filter(body: VersionFilterBody): Promise<Page<GameVersion>> {
    const { userId, gameId, userGamesId, ...search } = body;
    const compiled = compileFilter(search, searchableVersion, this.dialect);
    return this.versions.filter({ userId, gameId, userGamesId }, compiled);
  }

  async toggleActivity(id: number): Promise<GameVersion> {
    const version = await this.mustFind(id);
    await this.versions.update(id, { isActive: !version.isActive });
    return this.mustFind(id);
  }

  async toggleLock(id: number): Promise<GameVersion> {
    const version = await this.mustFind(id);
    await this.versions.update(id, { isLocked: !version.isLocked });
    return this.mustFind(id);
  }

  /**
   * "I Finished My Game": status Finished and its time. A verdict given before is cleared, so the version is to
   * review again; the reviewers' inbox events are written in the same transaction. A few per minute
   * per account, after a burst (429 RATE_LIMITED, decision 0044).
   */
  async done(user: User, id: number): Promise<GameVersion> {
    const version = await this.changeableVersion(user, id, 'finish', '/id');
    await this.finishes?.consume(user.id);
    const events = await this.versions.finish(id, (trx) => this.review.finished(trx, user, version));
    if (events === undefined) throw notFound('Game version');
    this.review.eventsAdded(events);
    return this.mustFind(id);
  }

  /** GET /game-versions/files/{id}/{gameId}: the files a version replaced, by path; in pages of `page` (decision 0063). */
  async files(user: User, id: number, gameId: number, page: FilePageQuery = {}): Promise<VersionFile[]> {
    const version = await this.reachableVersion(user, id);
    if (version.gameId !== gameId) throw notFound('Game version');
    const frames = await this.sheets.framesOf(id);
    const url = await this.previews?.urlsFor(user);
    // Whoever may not see originals gets the preview of a composed sheet's marked rendition (decision 0049).
    const marked = can(user.roleTypeId, 'play.original') ? undefined : await this.sheets.markedKeysOf(id);
    return (await this.versions.listFilesWithOriginals(id, page)).map(
      ({ originalWidth, originalHeight, ...row }) => {
        const replaced = frames.get(row.fileId);
        const previewKey = marked?.has(row.fileId) ? marked.get(row.fileId)! : row.storageKey;
        return {
          ...toVersionFile(row, { width: originalWidth, height: originalHeight }),
          ...(replaced && { frames: replaced }),
          preview: previewKey === null ? null : previewOf({ ...row, storageKey: previewKey }, url),
        };
      },
    );
  }

  /** GET /game-versions/path/{id}/{gameId}: the version's play URLs. */
  async path(user: User, id: number, gameId: number): Promise<GamePath> {
    const version = await this.reachableVersion(user, id);
    if (version.gameId !== gameId) throw notFound('Game version');
    return this.paths.versionPaths(user, version);
  }

  /** A download URL for the version's zip, with a ticket so a new window can open it. */
  async zipUrl(user: User, id: number): Promise<string> {
    const version = await this.reachableVersion(user, id);
    return `/api/files/${id}/${version.gameId}/files.zip?ticket=${await this.tickets.sign(user.id, zipResource(id))}`;
  }

  /**
   * Resolves the caller of a zip download: the logged-in user, or the holder of a ticket for this zip, read anew
   * (403 once they changed token version, were suspended or deleted).
   */
  async zipCaller(caller: User | null, id: number, ticket: string | undefined): Promise<User> {
    if (caller) return caller;
    const user = ticket ? await this.tickets.holder(ticket, zipResource(id)) : undefined;
    if (!user) throw notFound('Game version');
    return user;
  }

  /** files.zip: the version's replaced files at their game paths, streamed (never built in memory). */
  async zip(user: User, id: number, gameId: number): Promise<{ stream: Readable; name: string }> {
    const version = await this.reachableVersion(user, id);
    if (version.gameId !== gameId) throw notFound('Game version');
    // Whoever may not see originals gets a composed sheet's marked rendition (decision 0049), and no sheet at all
    // while that is not drawn yet; administrators get the deliverable, the frames on the original.
    const marked = can(user.roleTypeId, 'play.original') ? undefined : await this.sheets.markedKeysOf(id);
    const files = (await this.versions.listFiles(id)).flatMap((file) => {
      if (!marked?.has(file.fileId)) return [file];
      const markedKey = marked.get(file.fileId);
      return markedKey ? [{ ...file, storageKey: markedKey }] : [];
    });
    // An object that has gone missing fails the request before the answer starts (a plain 500, the key in the
    // log); one that goes missing while the zip streams aborts it.
    for (const file of files) {
      const object = await this.storage.get(file.storageKey);
      if (!object) throw new MissingObjectError(file.storageKey);
      object.stream.destroy();
    }
    return {
      stream: zipStoredFiles(this.storage, files),
      name: `${version.name.replace(/[^A-Za-z0-9_-]+/g, '-')}-files.zip`,
    };
  }

  /**
   * DELETE /game-versions/{versionId}/files/{fileId} ("Restore original"): removes the version's replacement of
   * one game file, record and stored object, so the version's view serves the game's own file again (an image
   * watermarked). A locked version refuses, like an upload; a file the version has not replaced is a 404.
   */
  async restoreOriginal(user: User, versionId: number, fileId: number): Promise<void> {
    const version = await this.changeableVersion(user, versionId, 'restore', '/versionId');
    // A sheet's replaced frames and whole-sheet upload go with it.
    const keys = await this.versions.deleteFile(
      versionId,
      fileId,
      this.stillChangeable(user, version, 'restore'),
      (trx) => this.sheets.dropSheet(trx, versionId, fileId),
    );
    if (keys === undefined) throw notFound('Replaced file');
    this.filesChanged(version.gameId);
    // A version file has no generated copies (only a game's files do).
    await this.storedFiles.deleteObjects([...new Set(keys)]);
  }

  /** A user-game the caller may work in: their own and active, or any for an admin. */
  private async reachableUserGame(user: User, userGameId: number): Promise<UserGame> {
    const userGame = await this.userGames.findById(userGameId);
    if (!userGame) throw notFound('User game');
    if (can(user.roleTypeId, 'games.seeAll')) return userGame;
    if (userGame.userId !== user.id || !userGame.isActive) throw notFound('User game');
    return userGame;
  }

  /**
   * A replacement of a version's file (or of one frame of it: `frame`) committed: the review loop resolves the
   * open notes on it when the version's artist made it (the single upload, the frame upload and each batch row).
   */
  replaced(user: User, version: GameVersion, fileId: number, frame: string | null): Promise<void> {
    return this.review.replaced(user, version, fileId, frame);
  }

  /** `replaced` inside the replacement's own transaction; hand the answer to `eventsAdded` after the commit. */
  replacedIn(
    trx: Transaction<Database>,
    user: User,
    version: GameVersion,
    fileId: number,
    frame: string | null,
  ): Promise<number[]> {
    return this.review.replacedIn(trx, user, version, fileId, frame);
  }

  /** `replacedIn` for several whole files in one transaction (a batch's group). */
  replacedFilesIn(
    trx: Transaction<Database>,
    user: User,
    version: GameVersion,
    fileIds: number[],
  ): Promise<number[]> {
    return this.review.replacedFilesIn(trx, user, version, fileIds);
  }

  /** Inbox events written in a replacement's transaction (replacedIn), once it committed. */
  eventsAdded(ids: number[]): void {
    this.review.eventsAdded(ids);
  }

  /**
   * A version the caller may see (decision 0007): any for a role that sees all, else only their own through an
   * active assignment; anything else is a 404 like an unknown id. The review loop's notes and verdicts use it too.
   */
  async reachableVersion(user: User, id: number): Promise<GameVersion> {
    const version = await this.versions.findById(id);
    if (!version) throw notFound('Game version');
    if (can(user.roleTypeId, 'games.seeAll')) return version;
    if (version.userId !== user.id) throw notFound('Game version');
    // Only whose the assignment is and whether it is active: one statement (decision 0055).
    const assignment = await this.versions.assignmentOf(version.userGamesId);
    if (!assignment || assignment.userId !== user.id || assignment.isActive !== 1)
      throw notFound('User game');
    return version;
  }

  /**
   * A version the caller may make `change` to: a demo account is refused first (403, whatever the id), then
   * someone else's version is a 404 like any other, then the version's lock or disabled state may refuse (423).
   */
  async changeableVersion(user: User, id: number, change: VersionChange, path: string): Promise<GameVersion> {
    if (!can(user.roleTypeId, 'versions.change')) throw forbidden(versionRuleMessages.demo);
    const version = await this.reachableVersion(user, id);
    const refusal = refusedChange(user, version, change, path);
    if (refusal) throw refusal;
    return version;
  }

  /**
   * The check an upload or a restore repeats inside its transaction, on the version's flags once its row is
   * locked: a lock or a disable the reviewer set while the file streamed in refuses it too.
   */
  stillChangeable(user: User, version: GameVersion, change: VersionChange) {
    return (flags: VersionFlags) => {
      const refusal = refusedChange(user, { ...version, ...flags }, change, '/versionId');
      if (refusal) throw refusal;
    };
  }

  private async mustFind(id: number): Promise<GameVersion> {
    const version = await this.versions.findById(id);
    if (!version) throw notFound('Game version');
    return version;
  }
}
