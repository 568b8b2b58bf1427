import {
  UserGameType,
  errorCodes,
  messages,
  type CreateUserGameBody,
  type MyGame,
  type SearchFilter,
  type UpdateUserGameBody,
  type User,
  type UserGame,
} from '@reskin/contract';
import { isUniqueViolation, type Dialect } from '../../db/database';
import { conflict, notFound, unprocessable } from '../../lib/errors';
import type { PlayPathsService } from '../play-paths/play-paths.service';
import { compileFilter, pickFields } from '../../search/filter';
import type { Page } from '../../search/page';
import type { StoredFilesService } from '../stored-files/stored-files.service';
import type { InboxService } from '../inbox/inbox.service';
import { searchableUserGame, userGameRelations, type UserGamesRepository } from './user-games.repository';

/** 409 for a second assignment of a game to a user with the same job type (the message says what to do). */
function assignmentExists(active: boolean) {
  const message = active ? messages.assignmentExists : messages.assignmentExistsInactive;
  return conflict(message, errorCodes.assignmentExists, [
    { path: '/gameId', code: 'assignment_exists', message },
  ]);
}

/** User-games: assignments of a game to a user (SPEC §7 "User-games"). All but my-games are for admins. */
export class UserGamesService {
  constructor(
    private readonly userGames: UserGamesRepository,
    private readonly paths: PlayPathsService,
    private readonly dialect: Dialect,
    private readonly storedFiles: StoredFilesService,
    /** Told after this server changed or removed a user's assignment: the play origin forgets its answers about them at once. */
    private readonly accessChanged: (userId: number) => void = () => {},
    /** The inbox: the assigned user is told (`game_assigned`). */
    private readonly inbox?: InboxService,
  ) {}

  /** GET /user-games and POST /user-games/filter: one page of the matching user-games, and how many match in all. */
  async filter(filter: SearchFilter): Promise<Page<Partial<UserGame>>> {
    const compiled = compileFilter(filter, searchableUserGame, this.dialect, userGameRelations);
    const fields = compiled.fields && [...compiled.fields, ...compiled.include];
    const page = await this.userGames.list(compiled);
    return { ...page, rows: page.rows.map((userGame) => pickFields(userGame, fields)) };
  }

  async create(actor: User, body: CreateUserGameBody): Promise<UserGame> {
    const problems = [];
    if (!(await this.userGames.userExists(body.userId)))
      problems.push({ path: '/userId', code: 'not_found', message: 'This user does not exist.' });
    if (!(await this.userGames.gameExists(body.gameId)))
      problems.push({ path: '/gameId', code: 'not_found', message: 'This game does not exist.' });
    if (problems.length > 0) throw unprocessable(problems[0]!.message, problems);
    await this.assertNoOtherAssignment(body);
    const { id, events } = await this.writeOnce(
      () =>
        this.userGames.insert(body, async (trx, userGameId) =>
          this.inbox
            ? this.inbox.add(trx, [
                {
                  userId: body.userId,
                  kind: 'game_assigned',
                  actorId: actor.id,
                  gameId: body.gameId,
                  userGameId,
                  text: body.userGameTypeId === UserGameType.SoundReplace ? 'Sound Replace' : 'ReSkin',
                },
              ])
            : [],
        ),
      body,
    );
    this.inbox?.added(events);
    return this.get(id);
  }

  /**
   * One assignment per user, game and job type (decision 0026), active or not: a second would give the
   * artist two identical cards. 409 ASSIGNMENT_EXISTS, which says to use Give Access when the first one's access
   * was removed.
   */
  private async assertNoOtherAssignment(
    assignment: { userId: number; gameId: number; userGameTypeId: number },
    exceptId?: number,
  ): Promise<void> {
    const existing = await this.userGames.findAssignment(assignment, exceptId);
    if (existing) throw assignmentExists(existing.isActive);
  }

  /**
   * A write that may race another for the same user, game and job type: the unique index (migration 0010) lets one
   * win; the other is answered like the check above, never 500.
   */
  private async writeOnce<T>(
    write: () => Promise<T>,
    assignment: { userId: number; gameId: number; userGameTypeId: number },
    exceptId?: number,
  ): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await this.assertNoOtherAssignment(assignment, exceptId);
      throw assignmentExists(true);
    }
  }

  async get(id: number): Promise<UserGame> {
    const userGame = await this.userGames.findById(id);
    if (!userGame) throw notFound('User game');
    return userGame;
  }

  async update(id: number, body: UpdateUserGameBody): Promise<UserGame> {
    const current = await this.get(id);
    // A new job type must not make this assignment a twin of another of the same user and game.
    const after = { userId: current.userId, gameId: current.gameId, userGameTypeId: body.userGameTypeId };
    if (after.userGameTypeId !== current.userGameTypeId) await this.assertNoOtherAssignment(after, id);
    if (!(await this.writeOnce(() => this.userGames.update(id, body), after, id)))
      throw notFound('User game');
    const userGame = await this.get(id);
    this.accessChanged(userGame.userId);
    return userGame;
  }

  /** Deletes an assignment with its versions (cascade), then the versions' stored files. */
  async delete(id: number): Promise<void> {
    const userGame = await this.userGames.findById(id);
    const deleted = await this.storedFiles.deleteOwner({ kind: 'userGame', id });
    if (userGame) this.accessChanged(userGame.userId);
    if (!deleted) throw notFound('User game');
  }

  /** Remove Access / Give Access. */
  async toggleActivity(id: number): Promise<UserGame> {
    const userGame = await this.get(id);
    await this.userGames.update(id, { isActive: !userGame.isActive });
    this.accessChanged(userGame.userId);
    return this.get(id);
  }

  /** The caller's active assignments with their games and card images (MG-1, MG-3). */
  async myGames(user: User): Promise<MyGame[]> {
    // The list query has each game and its splash file already: its card image needs no further read.
    const rows = await this.userGames.listActiveOfUser(user.id);
    const imageUrls = await this.paths.imageUrls(
      user,
      rows.map(({ userGame, splash }) => ({ game: userGame.game, splash })),
    );
    // Each card is its row's object with the URL added, not a spread copy: a copy of these objects came out in V8's
    // slow dictionary mode, and the answer's writer then read every field by a hash lookup (45 us of a
    // 400 us request).
    return rows.map(({ userGame }, i) => Object.assign(userGame, { imageUrl: imageUrls[i]! }));
  }
}
