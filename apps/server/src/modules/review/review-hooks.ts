import type { Transaction } from 'kysely';
import type { GameVersion, User } from '@reskin/contract';
import type { Database } from '../../db/schema';
import type { InboxService } from '../inbox/inbox.service';
import type { VersionReviewHooks } from '../versions/versions.service';
import type { ReviewRepository } from './review.repository';

/**
 * The review loop's part in version changes (decision 0032): a finish tells every active administrator
 * (inbox `version_finished`, in the finish's transaction); the version's artist replacing a file resolves the open
 * notes on it (one statement; on a frame upload only the notes on that frame) and tells their authors
 * (`note_answered`), in one transaction right after the replacement committed, or in the replacement's own
 * (`replacedIn`: the intake's frame upload, decision 0055).
 */
export class ReviewHooks implements VersionReviewHooks {
  constructor(
    private readonly review: ReviewRepository,
    private readonly inbox: InboxService,
  ) {}

  async finished(trx: Transaction<Database>, user: User, version: GameVersion): Promise<number[]> {
    const admins = await this.inbox.activeAdminIds(trx);
    return this.inbox.add(
      trx,
      admins.map((userId) => ({
        userId,
        kind: 'version_finished' as const,
        actorId: user.id,
        gameId: version.gameId,
        userGameId: version.userGamesId,
        versionId: version.id,
        text: version.name,
      })),
    );
  }

  eventsAdded(ids: number[]): void {
    this.inbox.added(ids);
  }

  async replaced(user: User, version: GameVersion, fileId: number, frame: string | null): Promise<void> {
    if (user.id !== version.userId) return;
    this.inbox.added(
      await this.review.inTransaction((trx) => this.replacedIn(trx, user, version, fileId, frame)),
    );
  }

  async replacedIn(
    trx: Transaction<Database>,
    user: User,
    version: GameVersion,
    fileId: number,
    frame: string | null,
  ): Promise<number[]> {
    if (user.id !== version.userId) return [];
    return this.told(
      trx,
      user,
      version,
      await this.review.resolveOnFile(trx, version.id, fileId, frame, user.id),
    );
  }

  async replacedFilesIn(
    trx: Transaction<Database>,
    user: User,
    version: GameVersion,
    fileIds: number[],
  ): Promise<number[]> {
    if (user.id !== version.userId || fileIds.length === 0) return [];
    return this.told(trx, user, version, await this.review.resolveOnFiles(trx, version.id, fileIds, user.id));
  }

  /** The authors of the notes a replacement resolved, told (`note_answered`); answers the events' ids. */
  private told(
    trx: Transaction<Database>,
    user: User,
    version: GameVersion,
    resolved: { id: number; authorId: number; fileId: number | null }[],
  ): Promise<number[]> {
    return this.inbox.add(
      trx,
      resolved.map((note) => ({
        userId: note.authorId,
        kind: 'note_answered' as const,
        actorId: user.id,
        gameId: version.gameId,
        userGameId: version.userGamesId,
        versionId: version.id,
        fileId: note.fileId,
        noteId: note.id,
        text: 'Resolved by a replacement of the file.',
      })),
    );
  }
}
