import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RoleType,
  errorCodes,
  inboxEventSentence,
  limits,
  notesWaitingForArtist,
  type GameVersion,
  type Inbox,
  type InboxEvent,
  type MyGame,
  type Note,
} from '@reskin/contract';
import { nowIso } from '../src/db/database';
import { call, createTestApp, createUser, errorOf, testDb, type TestApp } from './helpers';
import {
  assign,
  finish,
  newVersion,
  reviewWorld,
  uploadForm,
  type ReviewWorld,
} from './support/review-world';

/**
 * The inbox (decision 0032): the events each cause writes (in its own transaction), to whom, read state
 * per user and paging; and the review loop under concurrency: two reviewers' verdicts at once (one wins, the other
 * is told who), notes written at once from two app servers on one database (PostgreSQL; one app on SQLite).
 */
describe(`the inbox on ${testDb}`, () => {
  let t: TestApp;
  let w: ReviewWorld;

  beforeAll(async () => {
    t = await createTestApp();
    w = await reviewWorld(t);
  });
  afterAll(async () => t?.close());

  const inboxOf = async (token: string, query = '') => {
    const response = await call(t, 'GET', `/api/inbox${query}`, { token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Inbox>();
  };
  const newest = async (token: string) => (await inboxOf(token)).events[0];

  it('a game assigned, a version finished (to every active admin), a verdict and notes reach the right inboxes, with names and link ids', async () => {
    // game_assigned, at POST /user-games, to the assigned user.
    const assigned = (await inboxOf(w.artist.token)).events.find(
      (e) => e.kind === 'game_assigned' && e.userGameId === w.userGame.id,
    );
    expect(assigned).toMatchObject({
      actorId: w.admin.id,
      actorName: w.admin.username,
      gameId: w.game.id,
      gameName: w.game.name,
      text: 'ReSkin',
      readAt: null,
    });

    // A suspended admin is not told; the artist never is of their own finish.
    const away = await createUser(t, RoleType.Admin);
    await t.database.db.updateTable('users').set({ activated: 0 }).where('id', '=', away.id).execute();
    const version = await newVersion(t, w, 'Inbox');
    await finish(t, w.artist.token, version.id);
    for (const admin of [w.admin, w.admin2]) {
      expect(await newest(admin.token)).toMatchObject({
        kind: 'version_finished',
        actorName: w.artist.username,
        versionId: version.id,
        userGameId: w.userGame.id,
        gameId: w.game.id,
        text: version.name,
      });
    }
    const awayRows = await t.database.db
      .selectFrom('inboxEvents')
      .select('id')
      .where('userId', '=', away.id)
      .execute();
    expect(awayRows).toEqual([]);
    expect((await newest(w.artist.token))?.kind).not.toBe('version_finished');

    const given = await call(t, 'PUT', `/api/game-versions/${version.id}/verdict`, {
      token: w.admin.token,
      payload: { verdict: 'changes_requested', note: 'More contrast.' },
    });
    expect(given.statusCode, given.body).toBe(200);
    expect(await newest(w.artist.token)).toMatchObject({
      kind: 'verdict',
      actorName: w.admin.username,
      versionId: version.id,
      text: 'Changes requested: More contrast.',
    });

    // A reviewer's note tells the artist.
    const asked = (
      await call(t, 'POST', `/api/game-versions/${version.id}/notes`, {
        token: w.admin2.token,
        payload: { text: 'The hero needs an outline.', fileId: w.fileIds.hero },
      })
    ).json<Note>();
    expect(await newest(w.artist.token)).toMatchObject({
      kind: 'note',
      actorName: w.admin2.username,
      versionId: version.id,
      fileId: w.fileIds.hero,
      noteId: asked.id,
      text: 'The hero needs an outline.',
    });

    // The artist's answer tells the note's author only.
    const adminBefore = (await inboxOf(w.admin.token)).events[0]?.id;
    const answer = (
      await call(t, 'POST', `/api/game-versions/${version.id}/notes`, {
        token: w.artist.token,
        payload: { text: 'Outlined.', replyTo: asked.id },
      })
    ).json<Note>();
    expect(await newest(w.admin2.token)).toMatchObject({
      kind: 'note_answered',
      actorName: w.artist.username,
      noteId: answer.id,
      fileId: w.fileIds.hero,
      text: 'Outlined.',
    });
    expect((await inboxOf(w.admin.token)).events[0]?.id).toBe(adminBefore);

    // The artist's own new note goes to the version's reviewers (note authors and the verdict's): both admins here.
    await call(t, 'POST', `/api/game-versions/${version.id}/notes`, {
      token: w.artist.token,
      payload: { text: 'Which font?' },
    });
    for (const admin of [w.admin, w.admin2])
      expect(await newest(admin.token)).toMatchObject({ kind: 'note', text: 'Which font?' });

    // On a version nobody reviewed yet: every active admin.
    const fresh = await newVersion(t, w, 'Fresh');
    await call(t, 'POST', `/api/game-versions/${fresh.id}/notes`, {
      token: w.artist.token,
      payload: { text: 'Is this the right size?' },
    });
    for (const admin of [w.admin, w.admin2])
      expect(await newest(admin.token)).toMatchObject({ kind: 'note', versionId: fresh.id });

    // A replacement that resolves a note tells its author.
    const onBg = (
      await call(t, 'POST', `/api/game-versions/${fresh.id}/notes`, {
        token: w.admin.token,
        payload: { text: 'Greener.', fileId: w.fileIds.bg },
      })
    ).json<Note>();
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${fresh.id}/${w.fileIds.bg}`,
      headers: { authorization: `Bearer ${w.artist.token}` },
      payload: uploadForm(w.png16, 'bg.png'),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    expect(await newest(w.admin.token)).toMatchObject({
      kind: 'note_answered',
      noteId: onBg.id,
      fileId: w.fileIds.bg,
      actorName: w.artist.username,
    });

    // Marking someone's note resolved tells its author too.
    const other = (
      await call(t, 'POST', `/api/game-versions/${fresh.id}/notes`, {
        token: w.admin2.token,
        payload: { text: 'Sharper.' },
      })
    ).json<Note>();
    await call(t, 'PATCH', `/api/notes/${other.id}`, { token: w.artist.token, payload: { resolved: true } });
    expect(await newest(w.admin2.token)).toMatchObject({
      kind: 'note_answered',
      noteId: other.id,
      text: 'Marked resolved.',
    });
    // A reviewer resolving tells nobody.
    const before = (await inboxOf(w.artist.token)).events[0]?.id;
    const third = (
      await call(t, 'POST', `/api/game-versions/${fresh.id}/notes`, {
        token: w.admin2.token,
        payload: { text: 'Later.' },
      })
    ).json<Note>();
    const afterNote = (await inboxOf(w.artist.token)).events[0]?.id;
    expect(afterNote).toBeGreaterThan(before!);
    await call(t, 'PATCH', `/api/notes/${third.id}`, { token: w.admin.token, payload: { resolved: true } });
    expect((await inboxOf(w.artist.token)).events[0]?.id).toBe(afterNote);
  });

  it("decision 0052: a note's event says whose version it is; the artist's own questions are not notes waiting for them", async () => {
    const version = await newVersion(t, w, 'Whose');
    // The artist's own question about a file: the reviewers read it as the artist's version, not theirs.
    await call(t, 'POST', `/api/game-versions/${version.id}/notes`, {
      token: w.artist.token,
      payload: { text: 'Is the outline right?', fileId: w.fileIds.hero },
    });
    for (const admin of [w.admin, w.admin2]) {
      const event = (await newest(admin.token))!;
      expect(event).toMatchObject({
        kind: 'note',
        versionId: version.id,
        versionOwner: 'others',
        versionOwnerName: w.artist.username,
      });
      expect(inboxEventSentence(event)).toBe(
        `${w.artist.username} wrote a note on a file of their version of ${w.game.name}.`,
      );
    }
    // A reviewer's note reaches the artist as on their own version.
    await call(t, 'POST', `/api/game-versions/${version.id}/notes`, {
      token: w.admin.token,
      payload: { text: 'Thicker, please.', fileId: w.fileIds.hero },
    });
    const toArtist = (await newest(w.artist.token))!;
    expect(toArtist).toMatchObject({
      kind: 'note',
      versionOwner: 'yours',
      versionOwnerName: w.artist.username,
    });
    expect(inboxEventSentence(toArtist)).toBe(
      `${w.admin.username} wrote a note on a file of your version of ${w.game.name}.`,
    );

    // Two open threads: the reviewer's note waits for the artist, the artist's question for a reviewer.
    const versions = (
      await call(t, 'GET', `/api/game-versions/${w.game.id}/${w.userGame.id}`, { token: w.artist.token })
    ).json<GameVersion[]>();
    const counted = versions.find((v) => v.id === version.id)!;
    expect(counted).toMatchObject({ openNotes: 2, openQuestions: 1 });
    expect(notesWaitingForArtist(counted)).toBe(1);
    const card = (await call(t, 'GET', '/api/user-games/my-games', { token: w.artist.token }))
      .json<MyGame[]>()
      .find((c) => c.id === w.userGame.id)!;
    expect(card.openQuestions).toBeGreaterThanOrEqual(1);
    expect(notesWaitingForArtist(card)).toBe(card.openNotes - card.openQuestions);
    // A question alone: nothing waits for the artist.
    const alone = await newVersion(t, w, 'Alone');
    await call(t, 'POST', `/api/game-versions/${alone.id}/notes`, {
      token: w.artist.token,
      payload: { text: 'Which font?' },
    });
    const aloneCounted = (
      await call(t, 'GET', `/api/game-versions/${w.game.id}/${w.userGame.id}`, { token: w.artist.token })
    )
      .json<GameVersion[]>()
      .find((v) => v.id === alone.id)!;
    expect(aloneCounted).toMatchObject({ openNotes: 1, openQuestions: 1 });
    expect(notesWaitingForArtist(aloneCounted)).toBe(0);
  });

  it("read state is per user and row: marking ids (others' ignored) or all; unread counts; pages of limits.inbox.pageSize with ?before", async () => {
    const reader = await createUser(t);
    const stranger = await createUser(t);
    // Events straight into the table: more than a page.
    const count = limits.inbox.pageSize + 5;
    const now = nowIso();
    await t.database.db
      .insertInto('inboxEvents')
      .values(
        Array.from({ length: count }, (_, i) => ({
          userId: reader.id,
          kind: 'note',
          actorId: w.admin.id,
          gameId: w.game.id,
          userGameId: null,
          versionId: null,
          fileId: null,
          noteId: null,
          text: `Event ${i}`,
          createdAt: now,
          readAt: null,
          mailState: null,
        })),
      )
      .execute();
    await t.database.db
      .insertInto('inboxEvents')
      .values({
        userId: stranger.id,
        kind: 'note',
        actorId: null,
        gameId: null,
        userGameId: null,
        versionId: null,
        fileId: null,
        noteId: null,
        text: 'Theirs',
        createdAt: now,
        readAt: null,
        mailState: null,
      })
      .execute();
    const first = await inboxOf(reader.token);
    expect(first.unread).toBe(count);
    expect(first.events).toHaveLength(limits.inbox.pageSize);
    expect(first.events[0]).toMatchObject({
      text: `Event ${count - 1}`,
      actorName: w.admin.username,
      gameName: w.game.name,
      readAt: null,
    });
    const ids = first.events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const next = await inboxOf(reader.token, `?before=${ids.at(-1)}`);
    expect(next.events.map((e) => e.text)).toEqual(['Event 4', 'Event 3', 'Event 2', 'Event 1', 'Event 0']);
    expect((await call(t, 'GET', '/api/inbox?before=abc', { token: reader.token })).statusCode).toBe(422);

    const strangerEvent = (await inboxOf(stranger.token)).events[0]!;
    const read = await call(t, 'POST', '/api/inbox/read', {
      token: reader.token,
      payload: { ids: [ids[0], ids[1], strangerEvent.id] },
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ unread: count - 2 });
    const after = await inboxOf(reader.token);
    expect(after.events.slice(0, 3).map((e: InboxEvent) => e.readAt !== null)).toEqual([true, true, false]);
    expect((await inboxOf(stranger.token)).unread).toBe(1);
    expect(
      (await call(t, 'POST', '/api/inbox/read', { token: reader.token, payload: { all: true } })).json(),
    ).toEqual({ unread: 0 });
    expect((await inboxOf(stranger.token)).unread).toBe(1);
    expect(
      (await call(t, 'POST', '/api/inbox/read', { token: reader.token, payload: { ids: [] } })).statusCode,
    ).toBe(422);
    expect((await call(t, 'GET', '/api/inbox')).statusCode).toBe(401);
  });

  it('two reviewers giving verdicts at once: one wins, the other gets 409 VERDICT_EXISTS naming the winner (10 rounds; two app servers on PostgreSQL)', async () => {
    const world = await reviewWorld(t);
    const second =
      testDb === 'postgres' ? await createTestApp({}, { dataDir: t.config.dataDir, schema: t.schema }) : t;
    try {
      const version = await newVersion(t, world, 'Race');
      const outcomes: number[][] = [];
      for (let round = 0; round < 10; round++) {
        await finish(t, world.artist.token, version.id);
        const [a, b] = await Promise.all([
          t.app.inject({
            method: 'PUT',
            url: `/api/game-versions/${version.id}/verdict`,
            headers: { authorization: `Bearer ${world.admin.token}` },
            payload: { verdict: 'approved' },
          }),
          second.app.inject({
            method: 'PUT',
            url: `/api/game-versions/${version.id}/verdict`,
            headers: { authorization: `Bearer ${world.admin2.token}` },
            payload: { verdict: 'changes_requested' },
          }),
        ]);
        outcomes.push([a.statusCode, b.statusCode].sort());
        const [winner, loser] = a.statusCode === 200 ? [world.admin, b] : [world.admin2, a];
        expect(loser.statusCode, loser.body).toBe(409);
        expect(errorOf(loser).code).toBe(errorCodes.verdictExists);
        expect(errorOf(loser).message).toContain(winner.username);
      }
      expect(outcomes.every(([x, y]) => x === 200 && y === 409)).toBe(true);
      // One verdict event per round for the artist.
      const verdicts = await t.database.db
        .selectFrom('inboxEvents')
        .select('id')
        .where('userId', '=', world.artist.id)
        .where('kind', '=', 'verdict')
        .execute();
      expect(verdicts).toHaveLength(10);
    } finally {
      if (second !== t) await second.close();
    }
  }, 60_000);

  it('20 notes written at once from two app servers on one database: all stored, every inbox row there', async () => {
    const world = await reviewWorld(t);
    const second =
      testDb === 'postgres' ? await createTestApp({}, { dataDir: t.config.dataDir, schema: t.schema }) : t;
    try {
      const version = await newVersion(t, world, 'Crowd');
      const writes = Array.from({ length: 20 }, (_, i) => {
        const app = i % 2 === 0 ? t : second;
        const author = i % 2 === 0 ? world.admin : world.admin2;
        return app.app.inject({
          method: 'POST',
          url: `/api/game-versions/${version.id}/notes`,
          headers: { authorization: `Bearer ${author.token}` },
          payload: {
            text: `Note ${i}`,
            ...(i % 3 === 0 ? { fileId: world.fileIds.hero, frame: 'left' } : {}),
          },
        });
      });
      const answers = await Promise.all(writes);
      expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(201));
      const notes = (
        await call(t, 'GET', `/api/game-versions/${version.id}/notes`, { token: world.artist.token })
      ).json<Note[]>();
      expect(notes.map((n) => n.text).sort()).toEqual(
        Array.from({ length: 20 }, (_, i) => `Note ${i}`).sort(),
      );
      const events = await t.database.db
        .selectFrom('inboxEvents')
        .select('noteId')
        .where('userId', '=', world.artist.id)
        .where('kind', '=', 'note')
        .where('versionId', '=', version.id)
        .execute();
      expect(events.map((e) => e.noteId).sort()).toEqual(notes.map((n) => n.id).sort());
      expect((await inboxOf(world.artist.token)).unread).toBeGreaterThanOrEqual(20);
    } finally {
      if (second !== t) await second.close();
    }
  }, 60_000);

  it('a new assignment tells its user once', async () => {
    const newcomer = await createUser(t);
    const ug = await assign(t, w.admin, newcomer, w.game.id);
    const events = (await inboxOf(newcomer.token)).events;
    expect(events).toEqual([
      expect.objectContaining({ kind: 'game_assigned', userGameId: ug.id, gameName: w.game.name }),
    ]);
    expect((await inboxOf(newcomer.token)).unread).toBe(1);
  });

  it('inbox.onEventsAdded listeners hear the new ids after the commit (the rows are there); a failing listener fails nothing', async () => {
    const heard: number[][] = [];
    let rowsSeen = -1;
    let told!: () => void;
    const called = new Promise<void>((resolve) => (told = resolve));
    const listener = async (ids: number[]) => {
      heard.push(ids);
      rowsSeen = (await t.database.db.selectFrom('inboxEvents').select('id').where('id', 'in', ids).execute())
        .length;
      told();
    };
    const failing = () => {
      throw new Error('mail is down');
    };
    t.inbox.onEventsAdded.push(failing, listener);
    try {
      const version = await newVersion(t, w, 'Heard');
      const finished = await call(t, 'POST', '/api/game-versions/done', {
        token: w.artist.token,
        payload: { id: version.id },
      });
      expect(finished.statusCode, finished.body).toBe(200);
      await called;
      // Both admins (and any other active admin the earlier tests made): one row each.
      const admins = await t.database.db
        .selectFrom('users')
        .select('id')
        .where('roleTypeId', '=', 1)
        .where('activated', '=', 1)
        .execute();
      expect(heard).toHaveLength(1);
      expect(heard[0]).toHaveLength(admins.length);
      expect(rowsSeen).toBe(admins.length);
    } finally {
      t.inbox.onEventsAdded.splice(0);
    }
  });
});
