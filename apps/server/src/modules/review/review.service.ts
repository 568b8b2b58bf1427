import {
  can,
  errorCodes,
  framesOfSheet,
  reviewMessages,
  verdictLabels,
  type CreateNoteBody,
  type GameVersion,
  type Note,
  type NotesQuery,
  type ReviewedVersion,
  type UpdateNoteBody,
  type User,
  type VerdictBody,
} from '@reskin/contract';
import { isForeignKeyViolation } from '../../db/database';
import { AppError, conflict, forbidden, notFound, unprocessable } from '../../lib/errors';
import type { PostingThrottle } from '../../lib/posting-throttle';
import type { Page } from '../../search/page';
import type { AtlasesService } from '../atlases/atlases.service';
import type { GameFilesRepository } from '../games/game-files.repository';
import type { InboxService, NewInboxEvent } from '../inbox/inbox.service';
import type { VersionsService } from '../versions/versions.service';
import type { ReviewRepository } from './review.repository';

/** A note's beginning, as an inbox event's summary. */
const summary = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text);

/**
 * The review loop (decision 0032): verdicts on finished versions, "To review", and notes on a version,
 * one of its files or an atlas frame. Who may see a version is the versions service's rule (decision 0007: someone
 * else's version is a 404); a reviewer is a role with `versions.review`.
 */
export class ReviewService {
  constructor(
    private readonly review: ReviewRepository,
    private readonly versions: VersionsService,
    private readonly gameFiles: GameFilesRepository,
    private readonly atlases: AtlasesService,
    private readonly inbox: InboxService,
    /** How often an account may post notes and answers (decision 0044). */
    private readonly notes: PostingThrottle,
  ) {}

  /**
   * PUT /game-versions/{versionId}/verdict: reviewers only (403), on a version they may see (404), Finished (409
   * VERSION_NOT_FINISHED), without a verdict since its last finish unless `replace` (409 VERDICT_EXISTS naming who
   * gave it). `lock` (approved only, else 422) locks it in the same update. The artist is told (inbox `verdict`).
   */
  async giveVerdict(user: User, versionId: number, body: VerdictBody): Promise<ReviewedVersion> {
    if (!can(user.roleTypeId, 'versions.review')) throw forbidden(reviewMessages.notReviewer);
    if (body.lock && body.verdict !== 'approved') {
      throw unprocessable(reviewMessages.lockNeedsApproval, [
        { path: '/lock', code: 'lock_needs_approval', message: reviewMessages.lockNeedsApproval },
      ]);
    }
    const version = await this.versions.reachableVersion(user, versionId);
    const note = body.note ?? null;
    const outcome = await this.review.giveVerdict(
      versionId,
      { verdict: body.verdict, note, by: user.id, lock: body.lock ?? false, replace: body.replace ?? false },
      (trx) =>
        this.inbox.add(trx, [
          {
            ...this.about(version),
            userId: version.userId,
            kind: 'verdict',
            actorId: user.id,
            text: `${verdictLabels[body.verdict]}${body.lock ? ' (locked)' : ''}${note ? `: ${summary(note)}` : ''}`,
          },
        ]),
    );
    if ('reason' in outcome) {
      if (outcome.reason === 'missing') throw notFound('Game version');
      if (outcome.reason === 'not_finished') {
        throw conflict(reviewMessages.notFinished, errorCodes.versionNotFinished, [
          { path: '/versionId', code: 'not_finished', message: reviewMessages.notFinished },
        ]);
      }
      const message = reviewMessages.verdictExists(outcome.byName ?? 'A reviewer', outcome.verdict);
      throw conflict(message, errorCodes.verdictExists, [
        { path: '/verdict', code: 'verdict_exists', message },
      ]);
    }
    this.inbox.added(outcome.events);
    const answer = await this.review.reviewedVersion(versionId);
    if (!answer) throw notFound('Game version');
    return answer;
  }

  /** GET /game-versions/to-review (reviewers): Finished versions without a verdict since their last finish, oldest finish first. */
  async toReview(user: User): Promise<Page<ReviewedVersion>> {
    if (!can(user.roleTypeId, 'versions.review')) throw forbidden(reviewMessages.notReviewer);
    return this.review.toReview();
  }

  /** GET /game-versions/{versionId}/notes: a page of a version's notes, for reviewers and its artist (others: 404). */
  async listNotes(user: User, versionId: number, page: NotesQuery = {}): Promise<Note[]> {
    await this.versions.reachableVersion(user, versionId);
    return this.review.listNotes(versionId, page);
  }

  /**
   * POST /game-versions/{versionId}/notes. Demo accounts 403; someone else's version 404; its artist not on a
   * locked or disabled version (423, like other changes); reviewers always. `fileId` must be a file of the
   * version's game, `frame` a frame of that file's atlas, `replyTo` a note of the version (422); an answer takes
   * its note's file and frame, and an answer to an answer joins that note's thread. An answer from the other side
   * resolves the note (`answered`): the artist's to a reviewer's note, a reviewer's to the artist's own. Inbox: a reviewer's note tells the artist (`note`); the artist's answer
   * tells the note's author (`note_answered`); the artist's own new note tells the version's reviewers (the authors
   * of its other notes and its verdict), or every active administrator when it has none yet. A burst, then a
   * steady few a minute per account (429 RATE_LIMITED with Retry-After, decision 0044).
   */
  async createNote(user: User, versionId: number, body: CreateNoteBody): Promise<Note> {
    if (!can(user.roleTypeId, 'notes.write')) throw forbidden(reviewMessages.demoNotes);
    const version = await this.versions.changeableVersion(user, versionId, 'note', '/versionId');
    await this.notes.consume(user.id);
    let fileId = body.fileId ?? null;
    let frame = body.frame ?? null;
    // Threads are one level deep: an answer to an answer joins the thread of the note it answers.
    const answered = body.replyTo === undefined ? undefined : await this.review.findNote(body.replyTo);
    const parent = answered?.replyTo ? await this.review.findNote(answered.replyTo) : answered;
    if (body.replyTo !== undefined) {
      if (!parent || parent.versionId !== versionId)
        throw this.invalid('/replyTo', 'not_on_version', reviewMessages.replyNotOnVersion);
      if (
        (body.fileId !== undefined && body.fileId !== parent.fileId) ||
        (body.frame !== undefined && body.frame !== parent.frame)
      ) {
        throw this.invalid('/fileId', 'other_file', reviewMessages.replyOtherFile);
      }
      fileId = parent.fileId;
      frame = parent.frame;
    } else {
      await this.checkTarget(version, fileId, frame);
    }
    const artist = user.id === version.userId;
    const { noteId, events } = await this.review
      .inTransaction(async (trx) => {
        const noteId = await this.review.insertNote(trx, {
          versionId,
          fileId,
          frame,
          replyTo: parent?.id ?? null,
          authorId: user.id,
          text: body.text,
        });
        const event = { ...this.about(version), fileId, noteId, actorId: user.id, text: summary(body.text) };
        // An answer from the other side resolves the note: the artist's to someone else's note, a reviewer's to the
        // artist's own note (a question answered).
        if (parent && (artist ? parent.authorId !== user.id : parent.authorId === version.userId)) {
          await this.review.setResolved(trx, parent.id, true, user.id, 'answered');
        }
        let recipients: NewInboxEvent[];
        if (!artist) {
          recipients = [{ ...event, userId: version.userId, kind: 'note' }];
        } else if (parent) {
          recipients = [{ ...event, userId: parent.authorId, kind: 'note_answered' }];
        } else {
          const reviewers = await this.review.reviewersOf(trx, versionId, version.userId);
          const told = reviewers.length > 0 ? reviewers : await this.inbox.activeAdminIds(trx);
          recipients = told.map((userId) => ({ ...event, userId, kind: 'note' as const }));
        }
        return { noteId, events: await this.inbox.add(trx, recipients) };
      })
      .catch((error: unknown) => {
        // The version (or the note answered) was deleted while the note was written.
        if (isForeignKeyViolation(error)) throw notFound('Game version');
        throw error;
      });
    this.inbox.added(events);
    return this.mustFindNote(noteId);
  }

  /**
   * PATCH /notes/{noteId}: `{ text }` by its author only (403 for others); `{ resolved }` by a reviewer or the
   * version's artist. Demo accounts 403; a note on someone else's version 404; its artist not on a locked or
   * disabled version (423). The artist resolving someone's note tells its author (`note_answered`).
   */
  async updateNote(user: User, noteId: number, body: UpdateNoteBody): Promise<Note> {
    if (!can(user.roleTypeId, 'notes.write')) throw forbidden(reviewMessages.demoNotes);
    const note = await this.review.findNote(noteId);
    if (!note) throw notFound('Note');
    const version = await this.versions
      .changeableVersion(user, note.versionId, 'note', '/noteId')
      .catch((error: unknown) => {
        // The note's version is someone else's: the note is as unknown as it (decision 0007).
        if (error instanceof AppError && error.statusCode === 404) throw notFound('Note');
        throw error;
      });
    if ('text' in body) {
      if (note.authorId !== user.id) throw forbidden(reviewMessages.notAuthor);
      await this.review.setText(noteId, body.text);
      return this.mustFindNote(noteId);
    }
    const events = await this.review.inTransaction(async (trx) => {
      const changed = await this.review.setResolved(trx, noteId, body.resolved, user.id, 'marked');
      if (!changed || !body.resolved || user.id !== version.userId) return [];
      return this.inbox.add(trx, [
        {
          ...this.about(version),
          userId: note.authorId,
          kind: 'note_answered',
          actorId: user.id,
          fileId: note.fileId,
          noteId,
          text: 'Marked resolved.',
        },
      ]);
    });
    this.inbox.added(events);
    return this.mustFindNote(noteId);
  }

  /** A note's target: a file of the version's game, and a frame of that file's atlas. */
  private async checkTarget(
    version: GameVersion,
    fileId: number | null,
    frame: string | null,
  ): Promise<void> {
    if (frame !== null && fileId === null)
      throw this.invalid('/frame', 'frame_needs_file', reviewMessages.frameNeedsFile);
    if (fileId === null) return;
    const file = await this.gameFiles.findFile(version.gameId, fileId);
    if (!file) throw this.invalid('/fileId', 'not_in_game', reviewMessages.fileNotInGame);
    if (frame === null) return;
    const { frames } = framesOfSheet((await this.atlases.find(version.gameId)).atlases, fileId);
    if (!frames.has(frame))
      throw this.invalid('/frame', 'not_in_file', reviewMessages.frameNotInFile(file.path));
  }

  private invalid(path: string, code: string, message: string) {
    return unprocessable(message, [{ path, code, message }]);
  }

  /** The ids an event about a version names (its screens' links). */
  private about(version: GameVersion) {
    return { gameId: version.gameId, userGameId: version.userGamesId, versionId: version.id };
  }

  private async mustFindNote(noteId: number): Promise<Note> {
    const note = await this.review.noteView(noteId);
    if (!note) throw notFound('Note');
    return note;
  }
}
