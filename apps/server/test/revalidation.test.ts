import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits, type FileUsage, type GameFile, type GameVersion, type VersionFile } from '@reskin/contract';
import { call, createTestApp, errorOf, filesForm, testDb, type TestApp, type TestUser } from './helpers';
import { solidPng } from './support/image-samples';
import { newVersion, reviewWorld, uploadForm, type ReviewWorld } from './support/review-world';

/**
 * The big lists a screen reads whenever it opens (decision 0063): a game's files, its usage and a version's files in
 * pages by path, and those and a version's notes revalidated (a weak ETag of the body, 304 on If-None-Match,
 * `private, no-cache`) instead of downloaded again.
 */
describe(`[API-3][API-4][API-7] revalidated lists: pages by path, ETag and 304 on ${testDb}`, () => {
  let t: TestApp;
  let w: ReviewWorld;
  let version: GameVersion;
  /** The four revalidated lists of the world's game and version. */
  let lists: Record<'files' | 'usage' | 'versionFiles' | 'notes', string>;

  const get = (url: string, token: string, ifNoneMatch?: string) =>
    call(t, 'GET', url, { token, headers: ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {} });
  const etagOf = (response: LightMyRequestResponse) => String(response.headers.etag);
  const paths = (response: LightMyRequestResponse) => response.json<{ path: string }[]>().map((f) => f.path);

  async function replace(fileId: number, name: string, content = w.png16) {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${version.id}/${fileId}`,
      headers: { authorization: `Bearer ${w.artist.token}` },
      payload: uploadForm(content, name),
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  beforeAll(async () => {
    t = await createTestApp();
    w = await reviewWorld(t);
    version = await newVersion(t, w, 'Revalidated');
    await replace(w.fileIds.bg, 'bg.png');
    await replace(w.fileIds.hero, 'hero.png');
    lists = {
      files: `/api/games/${w.game.id}/files`,
      usage: `/api/games/${w.game.id}/usage`,
      versionFiles: `/api/game-versions/files/${version.id}/${w.game.id}`,
      notes: `/api/game-versions/${version.id}/notes`,
    };
  });
  afterAll(async () => t.close());

  it('answers every file by default and pages by path with `after` and `limit`: each file once, in order', async () => {
    for (const list of [lists.files, lists.usage, lists.versionFiles]) {
      const whole = await get(list, w.artist.token);
      expect(whole.statusCode, whole.body).toBe(200);
      const all = paths(whole);
      expect(all.length, list).toBeGreaterThanOrEqual(2);
      expect(all, list).toEqual([...all].sort());
      const paged: string[] = [];
      for (let after: string | undefined; ;) {
        const query = new URLSearchParams({ limit: '1', ...(after !== undefined && { after }) });
        const page = await get(`${list}?${query}`, w.artist.token);
        expect(page.statusCode, page.body).toBe(200);
        const pagePaths = paths(page);
        paged.push(...pagePaths);
        if (pagePaths.length < 1) break;
        after = pagePaths.at(-1);
      }
      expect(paged, list).toEqual(all);
      // The first page and the rest, as the web asks for them.
      const first = paths(await get(`${list}?limit=1`, w.artist.token));
      const rest = paths(await get(`${list}?after=${encodeURIComponent(first[0]!)}`, w.artist.token));
      expect([...first, ...rest], list).toEqual(all);
    }
  });

  it('refuses a bad page with a 422 naming the parameter', async () => {
    for (const [query, path] of [
      ['limit=0', '/limit'],
      [`limit=${limits.filePages.limitMax + 1}`, '/limit'],
      ['limit=x', '/limit'],
      ['limit=1.5', '/limit'],
      ['after=', '/after'],
      [`after=${'a'.repeat(limits.gameFilePathMax + 1)}`, '/after'],
    ]) {
      for (const list of [lists.files, lists.usage, lists.versionFiles]) {
        const refused = await get(`${list}?${query}`, w.artist.token);
        expect(refused.statusCode, `${list}?${query}`).toBe(422);
        expect(errorOf(refused).details?.[0]?.path, query).toBe(path);
      }
    }
  });

  it('answers each list with a weak ETag, private and revalidated, and a 304 without the body when it is unchanged', async () => {
    for (const list of Object.values(lists)) {
      const first = await get(list, w.artist.token);
      expect(first.statusCode, first.body).toBe(200);
      expect(etagOf(first), list).toMatch(/^W\/".+"$/);
      expect(first.headers['cache-control'], list).toBe('private, no-cache');
      const again = await get(list, w.artist.token, etagOf(first));
      expect(again.statusCode, list).toBe(304);
      expect(again.body, list).toBe('');
      expect(etagOf(again), list).toBe(etagOf(first));
      expect(again.headers['cache-control'], list).toBe('private, no-cache');
      // A page is an answer of its own.
      if (list !== lists.notes) {
        const page = await get(`${list}?limit=1`, w.artist.token, etagOf(first));
        expect(page.statusCode, list).toBe(200);
        expect(etagOf(page), list).not.toBe(etagOf(first));
      }
    }
    // Other reads keep no-store.
    expect((await get('/api/user/me', w.artist.token)).headers['cache-control']).toBe('no-store');
  });

  it('gives a changed answer a new ETag: the old one gets the whole new answer', async () => {
    const before = Object.fromEntries(
      await Promise.all(
        Object.entries(lists).map(async ([name, list]) => [name, etagOf(await get(list, w.artist.token))]),
      ),
    ) as Record<keyof typeof lists, string>;
    // A new file of the game (its files and usage), a replacement (the version's files) and a note.
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${w.game.id}`,
      headers: { authorization: `Bearer ${w.admin.token}` },
      payload: filesForm([{ path: 'extra.png', content: await solidPng(8, 8, 'red') }]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    await replace(w.fileIds.bg, 'bg.png', await solidPng(16, 16, 'purple'));
    const noted = await call(t, 'POST', lists.notes, { token: w.admin.token, payload: { text: 'Darker.' } });
    expect(noted.statusCode, noted.body).toBe(201);

    for (const [name, list] of Object.entries(lists) as [keyof typeof lists, string][]) {
      const after = await get(list, w.artist.token, before[name]);
      expect(after.statusCode, name).toBe(200);
      expect(etagOf(after), name).not.toBe(before[name]);
      expect(after.body.length, name).toBeGreaterThan(0);
    }
    expect(paths(await get(lists.files, w.artist.token))).toContain('extra.png');
    expect(paths(await get(lists.usage, w.artist.token))).toContain('extra.png');
    expect((await get(lists.notes, w.artist.token)).json<{ text: string }[]>().at(-1)?.text).toBe('Darker.');
  });

  it("never confirms one user's answer to another: roles' answers differ, and a refusal is never a 304", async () => {
    // An admin's files show the originals' previews, an artist's the watermarked ones, each under their own grants.
    const adminFiles = await get(lists.files, w.admin.token);
    const artistFiles = await get(lists.files, w.artist.token);
    expect(adminFiles.json<GameFile[]>()).not.toEqual(artistFiles.json<GameFile[]>());
    expect(etagOf(adminFiles)).not.toBe(etagOf(artistFiles));
    const withAdminsTag = await get(lists.files, w.artist.token, etagOf(adminFiles));
    expect(withAdminsTag.statusCode).toBe(200);
    expect(withAdminsTag.json<GameFile[]>()).toEqual(artistFiles.json<GameFile[]>());

    // The reviewer's view of the version's files previews under the reviewer's own grants.
    const reviewerFiles = await get(lists.versionFiles, w.admin.token);
    const artistVersionFiles = await get(lists.versionFiles, w.artist.token);
    expect(etagOf(reviewerFiles)).not.toBe(etagOf(artistVersionFiles));
    expect(
      (await get(lists.versionFiles, w.artist.token, etagOf(reviewerFiles))).json<VersionFile[]>(),
    ).toEqual(artistVersionFiles.json<VersionFile[]>());

    // Someone without the game, or a demo account, is refused with the refusal's own headers, whatever tag they send.
    for (const [name, list] of Object.entries(lists)) {
      const tag = etagOf(await get(list, w.artist.token));
      for (const [who, user, status] of [
        ['another artist', w.other, 404],
        ...(name === 'usage' ? [['a demo account', w.demo, 403] as const] : []),
      ] as [string, TestUser, number][]) {
        const refused = await get(list, user.token, tag);
        expect(refused.statusCode, `${who}: ${name}`).toBe(status);
        expect(refused.headers['cache-control'], `${who}: ${name}`).toBe('no-store');
      }
    }
    // The usage record says nothing of its reader: the same answer, and so the same tag, for everyone who may see it.
    const adminUsage = await get(lists.usage, w.admin.token);
    expect(adminUsage.json<FileUsage[]>()).toEqual(
      (await get(lists.usage, w.artist.token)).json<FileUsage[]>(),
    );
  });
});
