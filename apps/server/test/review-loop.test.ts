import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  errorCodes,
  type GameVersion,
  type MyGame,
  type Note,
  type ReviewedVersion,
  type UserGame,
} from '@reskin/contract';
import { call, createTestApp, errorOf, testDb, type TestApp } from './helpers';
import { finish, newVersion, reviewWorld, uploadForm, type ReviewWorld } from './support/review-world';

type Executor = { executeQuery: (...args: unknown[]) => Promise<{ rows: unknown[] }> };

/** How many SQL queries the app runs while `work` runs (as test/upload-queries.test.ts counts them). */
async function countQueries(t: TestApp, work: () => Promise<void>): Promise<number> {
  let owner: object | null = t.database.db.getExecutor();
  while (owner && !Object.prototype.hasOwnProperty.call(owner, 'executeQuery'))
    owner = Object.getPrototypeOf(owner) as object | null;
  if (!owner) throw new Error("Kysely's executeQuery was not found");
  const base = owner as Executor;
  const original = base.executeQuery;
  let queries = 0;
  base.executeQuery = async function (this: unknown, ...args: unknown[]) {
    queries += 1;
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    base.executeQuery = original;
  }
  return queries;
}

/**
 * The review loop on the server (decision 0032): verdicts on finished versions, a new finish back to
 * review, "To review", the review columns of versions and user-games, and notes with their access rules, their
 * targets (a file of the version's game, a frame of its atlas) and how they are resolved.
 */
describe(`verdicts and notes on ${testDb}`, () => {
  let t: TestApp;
  let w: ReviewWorld;

  beforeAll(async () => {
    t = await createTestApp();
    w = await reviewWorld(t);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
  });

  const verdict = (token: string, versionId: number, payload: unknown) =>
    call(t, 'PUT', `/api/game-versions/${versionId}/verdict`, { token, payload });
  const note = (token: string, versionId: number, payload: unknown) =>
    call(t, 'POST', `/api/game-versions/${versionId}/notes`, { token, payload });
  const notes = async (token: string, versionId: number) => {
    const response = await call(t, 'GET', `/api/game-versions/${versionId}/notes`, { token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Note[]>();
  };
  const versionsOf = async (token: string) => {
    const response = await call(t, 'GET', `/api/game-versions/${w.game.id}/${w.userGame.id}`, { token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<GameVersion[]>();
  };
  const toReview = async () => {
    const response = await call(t, 'GET', '/api/game-versions/to-review', { token: w.admin.token });
    expect(response.statusCode, response.body).toBe(200);
    return { rows: response.json<ReviewedVersion[]>(), total: Number(response.headers['x-total-count']) };
  };

  it('a verdict is for reviewers on a Finished version; one per finish (VERDICT_EXISTS names who), a new finish puts it back in review, an approval can lock', async () => {
    const version = await newVersion(t, w);
    expect(version).toMatchObject({
      reviewState: 'in_progress',
      verdict: null,
      verdictNote: null,
      verdictAt: null,
      verdictByName: null,
      openNotes: 0,
    });

    const early = await verdict(w.admin.token, version.id, { verdict: 'approved' });
    expect(early.statusCode).toBe(409);
    expect(errorOf(early).code).toBe(errorCodes.versionNotFinished);
    expect(errorOf(early).message).toMatch(/not finished/);

    // Artists (the owner too), demo accounts and strangers: 403, whatever the version.
    for (const user of [w.artist, w.other, w.demo])
      expect((await verdict(user.token, version.id, { verdict: 'approved' })).statusCode).toBe(403);
    expect((await verdict(w.admin.token, 999999, { verdict: 'approved' })).statusCode).toBe(404);

    const finished = await finish(t, w.artist.token, version.id);
    expect(finished.reviewState).toBe('to_review');
    expect((await toReview()).rows.map((row) => row.id)).toContain(version.id);

    const given = await verdict(w.admin.token, version.id, {
      verdict: 'changes_requested',
      note: 'The hero is too dark.',
    });
    expect(given.statusCode, given.body).toBe(200);
    expect(given.json<ReviewedVersion>()).toMatchObject({
      id: version.id,
      verdict: 'changes_requested',
      verdictNote: 'The hero is too dark.',
      verdictByName: w.admin.username,
      reviewState: 'changes_requested',
      username: w.artist.username,
      gameName: w.game.name,
      isLocked: false,
    });
    expect((await toReview()).rows.map((row) => row.id)).not.toContain(version.id);
    // The artist sees it on their version list.
    expect((await versionsOf(w.artist.token)).find((v) => v.id === version.id)).toMatchObject({
      verdict: 'changes_requested',
      verdictNote: 'The hero is too dark.',
      reviewState: 'changes_requested',
    });

    const second = await verdict(w.admin2.token, version.id, { verdict: 'approved' });
    expect(second.statusCode).toBe(409);
    expect(errorOf(second).code).toBe(errorCodes.verdictExists);
    expect(errorOf(second).message).toContain(w.admin.username);
    expect(errorOf(second).message).toContain('Changes requested');

    // The artist finishes again: back in review, the earlier verdict no longer counts.
    const again = await finish(t, w.artist.token, version.id);
    expect(again).toMatchObject({
      reviewState: 'to_review',
      verdict: null,
      verdictNote: null,
      verdictByName: null,
    });
    expect((await toReview()).rows.map((row) => row.id)).toContain(version.id);

    const badLock = await verdict(w.admin2.token, version.id, { verdict: 'changes_requested', lock: true });
    expect(badLock.statusCode).toBe(422);
    expect(errorOf(badLock).details?.[0]?.path).toBe('/lock');

    const approved = await verdict(w.admin2.token, version.id, { verdict: 'approved', lock: true });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<ReviewedVersion>()).toMatchObject({
      verdict: 'approved',
      reviewState: 'approved',
      isLocked: true,
      verdictByName: w.admin2.username,
      verdictNote: null,
    });
    // Locked: the artist cannot finish (or change) it any more.
    expect(
      (
        await call(t, 'POST', '/api/game-versions/done', {
          token: w.artist.token,
          payload: { id: version.id },
        })
      ).statusCode,
    ).toBe(423);

    const replaced = await verdict(w.admin.token, version.id, {
      verdict: 'changes_requested',
      note: 'On second thought.',
      replace: true,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json<ReviewedVersion>()).toMatchObject({
      verdict: 'changes_requested',
      verdictByName: w.admin.username,
      isLocked: true,
    });
  });

  it('"To review" lists finished versions without a verdict, the oldest finish first, for reviewers only; the user-games list and My Games count what waits', async () => {
    const world = await reviewWorld(t);
    const v = (
      await Promise.all([newVersion(t, world, 'A'), newVersion(t, world, 'B'), newVersion(t, world, 'C')])
    ).sort((a, b) => a.id - b.id);
    // Each finish a second after the one before (a fake clock: the order never rests on two finishes' milliseconds).
    let clock = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    const finishAt = async (versionId: number) => {
      clock += 1000;
      vi.setSystemTime(clock);
      await finish(t, world.artist.token, versionId);
    };
    await finishAt(v[1]!.id);
    await finishAt(v[0]!.id);
    await finishAt(v[2]!.id);
    const mine = (rows: ReviewedVersion[]) =>
      rows.filter((row) => row.userGamesId === world.userGame.id).map((row) => row.id);
    const before = await call(t, 'GET', '/api/game-versions/to-review', { token: world.admin.token });
    expect(mine(before.json<ReviewedVersion[]>())).toEqual([v[1]!.id, v[0]!.id, v[2]!.id]);
    // A verdict takes one out; finishing the first again moves it to the end (its finish is now the newest).
    expect((await verdict(world.admin.token, v[1]!.id, { verdict: 'changes_requested' })).statusCode).toBe(
      200,
    );
    await finishAt(v[0]!.id);
    await finishAt(v[1]!.id);
    vi.useRealTimers();
    const after = (await call(t, 'GET', '/api/game-versions/to-review', { token: world.admin.token })).json<
      ReviewedVersion[]
    >();
    expect(mine(after)).toEqual([v[2]!.id, v[0]!.id, v[1]!.id]);
    expect(after.every((row) => row.reviewState === 'to_review' && row.verdict === null)).toBe(true);
    const rows = after.map((row) => Date.parse(row.finishedAt!));
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
    for (const user of [world.artist, world.demo, world.other])
      expect((await call(t, 'GET', '/api/game-versions/to-review', { token: user.token })).statusCode).toBe(
        403,
      );

    // The user-games list: versions waiting, open notes, the newest verdict; searchable.
    expect(
      (await note(world.admin.token, v[2]!.id, { text: 'Check the background.', fileId: world.fileIds.bg }))
        .statusCode,
    ).toBe(201);
    expect((await verdict(world.admin.token, v[2]!.id, { verdict: 'approved' })).statusCode).toBe(200);
    const listed = await call(t, 'POST', '/api/user-games/filter', {
      token: world.admin.token,
      payload: { where: { and: [{ id: world.userGame.id }, { toReviewCount: { gt: 0 } }] } },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<UserGame[]>()).toEqual([
      expect.objectContaining({
        id: world.userGame.id,
        finishedCount: 3,
        toReviewCount: 2,
        openNotes: 1,
        lastVerdict: 'approved',
      }),
    ]);
    const newest = (await call(t, 'GET', '/api/user-games', { token: world.admin.token }))
      .json<UserGame[]>()
      .find((ug) => ug.id === world.userGame.id);
    expect(newest).toMatchObject({ toReviewCount: 2, openNotes: 1, lastVerdict: 'approved' });
    expect(newest?.lastVerdictAt).toEqual(expect.any(String));
    const cards = (await call(t, 'GET', '/api/user-games/my-games', { token: world.artist.token })).json<
      MyGame[]
    >();
    expect(cards.find((card) => card.id === world.userGame.id)).toMatchObject({
      openNotes: 1,
      toReviewCount: 2,
      lastVerdict: 'approved',
    });
    // The admin's version filter carries the review fields too.
    const filtered = await call(t, 'POST', '/api/game-versions/filter', {
      token: world.admin.token,
      payload: { userGamesId: world.userGame.id },
    });
    expect(filtered.json<GameVersion[]>().find((row) => row.id === v[2]!.id)).toMatchObject({
      reviewState: 'approved',
      openNotes: 1,
      verdictByName: world.admin.username,
    });
  });

  it("notes on a version, a file or an atlas frame; the target must be of the version's game (422); someone else's version 404, demo 403", async () => {
    const version = await newVersion(t, w, 'Notes');
    const onVersion = await note(w.admin.token, version.id, { text: 'Overall: nice.' });
    expect(onVersion.statusCode, onVersion.body).toBe(201);
    expect(onVersion.json<Note>()).toMatchObject({
      versionId: version.id,
      fileId: null,
      path: null,
      frame: null,
      replyTo: null,
      authorId: w.admin.id,
      authorName: w.admin.username,
      resolved: false,
      resolvedHow: null,
    });
    const onFile = (
      await note(w.admin.token, version.id, { text: 'Too dark.', fileId: w.fileIds.bg })
    ).json<Note>();
    expect(onFile).toMatchObject({ fileId: w.fileIds.bg, path: 'bg.png', frame: null });
    const onFrame = await note(w.admin.token, version.id, {
      text: 'Left frame: arm.',
      fileId: w.fileIds.hero,
      frame: 'left',
    });
    expect(onFrame.statusCode, onFrame.body).toBe(201);
    expect(onFrame.json<Note>()).toMatchObject({ fileId: w.fileIds.hero, path: 'hero.png', frame: 'left' });
    const byArtist = await note(w.artist.token, version.id, { text: 'Should the sky be blue?' });
    expect(byArtist.statusCode, byArtist.body).toBe(201);

    const refused = async (payload: unknown, path: string) => {
      const response = await note(w.admin.token, version.id, payload);
      expect(response.statusCode, response.body).toBe(422);
      expect(errorOf(response).details?.[0]?.path).toBe(path);
    };
    await refused({ text: 'x', fileId: 987654 }, '/fileId');
    await refused({ text: 'x', fileId: w.fileIds.bg, frame: 'left' }, '/frame');
    await refused({ text: 'x', fileId: w.fileIds.hero, frame: 'middle' }, '/frame');
    await refused({ text: 'x', frame: 'left' }, '/frame');
    await refused({ text: 'x', replyTo: 987654 }, '/replyTo');
    await refused({ text: 'x', replyTo: onFile.id, fileId: w.fileIds.hero }, '/fileId');
    expect((await note(w.admin.token, version.id, { text: '   ' })).statusCode).toBe(422);
    expect((await note(w.admin.token, version.id, { text: 'x'.repeat(2001) })).statusCode).toBe(422);

    // Someone else's version, and notes on it, are unknown (decision 0007); demo accounts write none.
    expect(
      (await call(t, 'GET', `/api/game-versions/${version.id}/notes`, { token: w.other.token })).statusCode,
    ).toBe(404);
    expect((await note(w.other.token, version.id, { text: 'Mine now.' })).statusCode).toBe(404);
    expect(
      (
        await call(t, 'PATCH', `/api/notes/${onFile.id}`, {
          token: w.other.token,
          payload: { resolved: true },
        })
      ).statusCode,
    ).toBe(404);
    const otherMissing = await call(t, 'PATCH', `/api/notes/${onFile.id}`, {
      token: w.other.token,
      payload: { text: 'x' },
    });
    expect(errorOf(otherMissing).message).toBe('Note not found.');
    expect((await note(w.demo.token, version.id, { text: 'Demo here.' })).statusCode).toBe(403);
    expect(
      (
        await call(t, 'PATCH', `/api/notes/${onFile.id}`, {
          token: w.demo.token,
          payload: { resolved: true },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await call(t, 'GET', `/api/game-versions/${version.id}/notes`, { token: w.demo.token })).statusCode,
    ).toBe(404);
    expect(
      (await call(t, 'PATCH', '/api/notes/987654', { token: w.admin.token, payload: { resolved: true } }))
        .statusCode,
    ).toBe(404);

    const listed = await notes(w.artist.token, version.id);
    expect(listed.map((n) => n.text)).toEqual([
      'Overall: nice.',
      'Too dark.',
      'Left frame: arm.',
      'Should the sky be blue?',
    ]);
    expect((await versionsOf(w.artist.token)).find((v) => v.id === version.id)?.openNotes).toBe(4);
    expect(await notes(w.admin.token, version.id)).toEqual(listed);
  });

  it("a version's notes come in pages, oldest first: ids above `after`, at most `limit` (1000 by default and at most); bad paging is a 422", async () => {
    const version = await newVersion(t, w, 'Paged notes');
    for (const text of ['one', 'two', 'three', 'four', 'five'])
      expect((await note(w.admin.token, version.id, { text })).statusCode).toBe(201);
    const page = async (query: string) => {
      const response = await call(t, 'GET', `/api/game-versions/${version.id}/notes?${query}`, {
        token: w.artist.token,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Note[]>();
    };
    const first = await page('limit=2');
    expect(first.map((n) => n.text)).toEqual(['one', 'two']);
    const second = await page(`after=${first.at(-1)!.id}&limit=2`);
    expect(second.map((n) => n.text)).toEqual(['three', 'four']);
    expect((await page(`after=${second.at(-1)!.id}&limit=2`)).map((n) => n.text)).toEqual(['five']);
    expect(await page(`after=${second.at(-1)!.id + 1000000}`)).toEqual([]);
    expect((await notes(w.artist.token, version.id)).map((n) => n.text)).toEqual([
      'one',
      'two',
      'three',
      'four',
      'five',
    ]);
    for (const [query, path] of [
      ['limit=0', '/limit'],
      ['limit=1001', '/limit'],
      ['limit=x', '/limit'],
      ['after=-1', '/after'],
      ['after=1.5', '/after'],
    ]) {
      const refused = await call(t, 'GET', `/api/game-versions/${version.id}/notes?${query}`, {
        token: w.artist.token,
      });
      expect(refused.statusCode, query).toBe(422);
      expect(errorOf(refused).details?.[0]?.path, query).toBe(path);
    }
  });

  it('the artist resolves a note by answering it or marking it; only its author edits its text; reviewers reopen', async () => {
    const version = await newVersion(t, w, 'Answers');
    const asked = (
      await note(w.admin.token, version.id, { text: 'Brighter hero.', fileId: w.fileIds.hero })
    ).json<Note>();
    const answered = await note(w.artist.token, version.id, {
      text: 'Done, see the new one.',
      replyTo: asked.id,
    });
    expect(answered.statusCode, answered.body).toBe(201);
    expect(answered.json<Note>()).toMatchObject({
      replyTo: asked.id,
      fileId: w.fileIds.hero,
      path: 'hero.png',
      resolved: false,
    });
    const [parent] = (await notes(w.admin.token, version.id)).filter((n) => n.id === asked.id);
    expect(parent).toMatchObject({
      resolved: true,
      resolvedHow: 'answered',
      resolvedByName: w.artist.username,
    });
    expect(parent?.resolvedAt).toEqual(expect.any(String));

    // An answer to an answer joins the thread of its first note; answers are not counted as open notes.
    const followUp = await note(w.admin.token, version.id, {
      text: 'Better, thanks.',
      replyTo: answered.json<Note>().id,
    });
    expect(followUp.json<Note>()).toMatchObject({ replyTo: asked.id, fileId: w.fileIds.hero });
    expect((await versionsOf(w.artist.token)).find((v) => v.id === version.id)?.openNotes).toBe(0);

    // A reviewer answering the artist's question resolves it; a reviewer adding to a reviewer's note does not.
    const question = (await note(w.artist.token, version.id, { text: 'Is the music fine?' })).json<Note>();
    expect((await versionsOf(w.artist.token)).find((v) => v.id === version.id)?.openNotes).toBe(1);
    expect((await note(w.admin.token, version.id, { text: 'Yes.', replyTo: question.id })).statusCode).toBe(
      201,
    );
    expect((await notes(w.admin.token, version.id)).find((n) => n.id === question.id)).toMatchObject({
      resolved: true,
      resolvedHow: 'answered',
      resolvedByName: w.admin.username,
    });
    const remark = (await note(w.admin.token, version.id, { text: 'Shadows too.' })).json<Note>();
    expect((await note(w.admin2.token, version.id, { text: 'Agreed.', replyTo: remark.id })).statusCode).toBe(
      201,
    );
    expect((await notes(w.admin.token, version.id)).find((n) => n.id === remark.id)?.resolved).toBe(false);

    const third = (await note(w.admin.token, version.id, { text: 'Crop the sky.' })).json<Note>();
    const notAuthor = await call(t, 'PATCH', `/api/notes/${third.id}`, {
      token: w.artist.token,
      payload: { text: 'Rewritten' },
    });
    expect(notAuthor.statusCode).toBe(403);
    expect(errorOf(notAuthor).message).toBe('Only its author can edit a note.');
    expect(
      (
        await call(t, 'PATCH', `/api/notes/${third.id}`, {
          token: w.admin2.token,
          payload: { text: 'Rewritten' },
        })
      ).statusCode,
    ).toBe(403);
    const edited = await call(t, 'PATCH', `/api/notes/${third.id}`, {
      token: w.admin.token,
      payload: { text: 'Crop the sky a little.' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Note>().text).toBe('Crop the sky a little.');

    const marked = await call(t, 'PATCH', `/api/notes/${third.id}`, {
      token: w.artist.token,
      payload: { resolved: true },
    });
    expect(marked.json<Note>()).toMatchObject({
      resolved: true,
      resolvedHow: 'marked',
      resolvedByName: w.artist.username,
    });
    const reopened = await call(t, 'PATCH', `/api/notes/${third.id}`, {
      token: w.admin2.token,
      payload: { resolved: false },
    });
    expect(reopened.json<Note>()).toMatchObject({
      resolved: false,
      resolvedHow: null,
      resolvedAt: null,
      resolvedByName: null,
    });
    expect(
      (
        await call(t, 'PATCH', `/api/notes/${third.id}`, {
          token: w.admin.token,
          payload: { resolved: true, text: 'both' },
        })
      ).statusCode,
    ).toBe(422);
  });

  it('on a locked or disabled version the artist writes no notes (423); reviewers still do', async () => {
    const version = await newVersion(t, w, 'Locked');
    const open = (await note(w.admin.token, version.id, { text: 'Before the lock.' })).json<Note>();
    expect(
      (await call(t, 'DELETE', `/api/game-versions/${version.id}/changeLock`, { token: w.admin.token }))
        .statusCode,
    ).toBe(200);
    const locked = await note(w.artist.token, version.id, { text: 'Can I still write?' });
    expect(locked.statusCode).toBe(423);
    expect(errorOf(locked).code).toBe(errorCodes.versionLocked);
    expect(
      (
        await call(t, 'PATCH', `/api/notes/${open.id}`, {
          token: w.artist.token,
          payload: { resolved: true },
        })
      ).statusCode,
    ).toBe(423);
    expect((await note(w.admin.token, version.id, { text: 'Reviewers still can.' })).statusCode).toBe(201);
    expect(
      (await call(t, 'PATCH', `/api/notes/${open.id}`, { token: w.admin.token, payload: { resolved: true } }))
        .statusCode,
    ).toBe(200);
    // The artist still reads them.
    expect((await notes(w.artist.token, version.id)).length).toBe(2);
    expect(
      (await call(t, 'DELETE', `/api/game-versions/${version.id}/changeLock`, { token: w.admin.token }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call(t, 'DELETE', `/api/game-versions/${version.id}/changeActivity`, { token: w.admin.token }))
        .statusCode,
    ).toBe(200);
    const disabled = await note(w.artist.token, version.id, { text: 'And now?' });
    expect(disabled.statusCode).toBe(423);
    expect(errorOf(disabled).code).toBe(errorCodes.versionDisabled);
    expect((await note(w.admin.token, version.id, { text: 'Still fine for reviewers.' })).statusCode).toBe(
      201,
    );
  });

  it("the artist replacing a file resolves its open notes (a frame upload those on that frame; the batch too); a reviewer's replacement does not", async () => {
    const version = await newVersion(t, w, 'Replace');
    const write = async (payload: object) =>
      (await note(w.admin.token, version.id, { text: 'Fix this.', ...payload })).json<Note>();
    const onLeft = await write({ fileId: w.fileIds.hero, frame: 'left' });
    const onRight = await write({ fileId: w.fileIds.hero, frame: 'right' });
    const onHero = await write({ fileId: w.fileIds.hero });
    const onBg = await write({ fileId: w.fileIds.bg });
    const overall = await write({});
    const state = async () =>
      new Map((await notes(w.admin.token, version.id)).map((n) => [n.id, n.resolvedHow]));

    const frame = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload-frame/${version.id}/${w.fileIds.hero}`,
      headers: { authorization: `Bearer ${w.artist.token}` },
      payload: uploadForm(w.png8x16, 'left.png', 'left'),
    });
    expect(frame.statusCode, frame.body).toBe(200);
    expect(await state()).toEqual(
      new Map([
        [onLeft.id, 'replaced'],
        [onRight.id, null],
        [onHero.id, null],
        [onBg.id, null],
        [overall.id, null],
      ]),
    );

    // A reviewer's replacement leaves the notes open.
    const byAdmin = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${version.id}/${w.fileIds.bg}`,
      headers: { authorization: `Bearer ${w.admin.token}` },
      payload: uploadForm(w.png16, 'bg.png'),
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect((await state()).get(onBg.id)).toBeNull();

    const whole = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${version.id}/${w.fileIds.hero}`,
      headers: { authorization: `Bearer ${w.artist.token}` },
      payload: uploadForm(w.png16, 'hero.png'),
    });
    expect(whole.statusCode, whole.body).toBe(200);
    expect(await state()).toEqual(
      new Map([
        [onLeft.id, 'replaced'],
        [onRight.id, 'replaced'],
        [onHero.id, 'replaced'],
        [onBg.id, null],
        [overall.id, null],
      ]),
    );

    const batch = new FormData();
    batch.append('path', 'export/bg.png');
    batch.append('file', new Blob([w.png16]), 'bg.png');
    const batched = await t.app.inject({
      method: 'POST',
      url: `/api/game-versions/${version.id}/batch`,
      headers: { authorization: `Bearer ${w.artist.token}` },
      payload: batch,
    });
    expect(batched.statusCode, batched.body).toBe(200);
    const after = await state();
    expect(after.get(onBg.id)).toBe('replaced');
    expect(after.get(overall.id)).toBeNull();
    const resolvedBy = (await notes(w.admin.token, version.id)).find((n) => n.id === onBg.id);
    expect(resolvedBy).toMatchObject({ resolved: true, resolvedByName: w.artist.username });
    expect((await versionsOf(w.artist.token)).find((v) => v.id === version.id)?.openNotes).toBe(1);
  });

  it('the review fields cost no query per row: a version list, the versions filter, the user-games list and My Games run as many queries for 6 versions with notes as for 1', async () => {
    const small = await reviewWorld(t);
    const big = await reviewWorld(t);
    await newVersion(t, small, 'One');
    for (let i = 0; i < 6; i++) {
      const version = await newVersion(t, big, `Many ${i}`);
      await finish(t, big.artist.token, version.id);
      expect(
        (await note(big.admin.token, version.id, { text: `Note ${i}`, fileId: big.fileIds.bg })).statusCode,
      ).toBe(201);
      if (i % 2 === 0)
        expect((await verdict(big.admin.token, version.id, { verdict: 'approved' })).statusCode).toBe(200);
    }
    const reads = (world: ReviewWorld) => [
      () =>
        call(t, 'GET', `/api/game-versions/${world.game.id}/${world.userGame.id}`, {
          token: world.artist.token,
        }),
      () =>
        call(t, 'POST', '/api/game-versions/filter', {
          token: world.admin.token,
          payload: { userGamesId: world.userGame.id },
        }),
      () =>
        call(t, 'POST', '/api/user-games/filter', {
          token: world.admin.token,
          payload: { where: { gameId: world.game.id }, include: ['user', 'game'] },
        }),
      () => call(t, 'GET', '/api/user-games/my-games', { token: world.artist.token }),
    ];
    const smallReads = reads(small);
    const bigReads = reads(big);
    for (let i = 0; i < smallReads.length; i++) {
      const one = await countQueries(t, async () => void (await smallReads[i]!()));
      let answer: Awaited<ReturnType<(typeof bigReads)[number]>> | undefined;
      const many = await countQueries(t, async () => void (answer = await bigReads[i]!()));
      expect(answer?.statusCode, answer?.body).toBe(200);
      expect(one).toBeGreaterThan(0);
      expect(many, `read ${i}`).toBe(one);
    }
    const versions = (await bigReads[0]!()).json<GameVersion[]>();
    expect(versions.map((v) => [v.openNotes, v.reviewState])).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => [1, i % 2 === 0 ? 'approved' : 'to_review']),
    );
  });

  it('notes written while their version is deleted are stored or answered 404, never a 5xx', async () => {
    const world = await reviewWorld(t);
    const version = await newVersion(t, world, 'Going');
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => note(world.admin.token, version.id, { text: `Late ${i}` })),
      call(t, 'DELETE', `/api/game-versions/${version.id}`, { token: world.artist.token }),
      ...Array.from({ length: 6 }, (_, i) =>
        note(world.artist.token, version.id, { text: `Later ${i}`, fileId: world.fileIds.bg }),
      ),
    ]);
    for (const answer of answers) expect([200, 201, 404], answer.body).toContain(answer.statusCode);
    expect(
      await t.database.db.selectFrom('notes').select('id').where('versionId', '=', version.id).execute(),
    ).toEqual([]);
  });
});
