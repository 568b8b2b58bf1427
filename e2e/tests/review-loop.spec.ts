import { RoleType, containsPattern, type UserGame } from '@reskin/contract';
import type { Locator, Page } from '@playwright/test';
import { test, expect, cardTitle, openWithToken, type Api, type TestUser } from '../fixtures/games';
import {
  createUserGame,
  createVersion,
  deleteUserGame,
  sampleGame,
  sampleGameName,
  userGameById,
} from '../fixtures/versions';

const listPath = '/user-game-list';

/** The list's columns, in order (SPEC's six plus the review loop's three). */
const column = { user: 0, game: 1, versions: 5, finished: 6, lastFinished: 7 } as const;

function cell(row: Locator, index: number): Locator {
  return row.getByRole('cell').nth(index);
}

function userGameRow(page: Page, userGame: { id: number }): Locator {
  return page.locator(`tbody tr[data-user-game-id="${userGame.id}"]`);
}

function searchBox(page: Page): Locator {
  return page.getByRole('searchbox', { name: 'Search by username or game name' });
}

function finishedFilter(page: Page): Locator {
  return page.getByRole('switch', { name: 'Has finished versions' });
}

/** The artist's "I Finished My Game" (POST /game-versions/done as the version's owner). */
async function finish(api: Api, artist: TestUser, versionId: number): Promise<void> {
  const response = await api.post('/game-versions/done', { id: versionId }, artist.token);
  expect(response.status(), await response.text()).toBe(200);
}

interface Seed {
  admin: TestUser;
  artist: TestUser;
  otherGameName: string;
  /** The sample game: 3 versions, the last 2 Finished. */
  reviewed: UserGame;
  /** A fresh game: 1 version, none Finished. */
  waiting: UserGame;
}

/** One artist with two assignments seeded through the API as the artist works; both deleted afterwards. */
const it = test.extend<{ seed: Seed }>({
  seed: async ({ api, makeUser, makeGame }, use) => {
    const admin = await makeUser(RoleType.Admin);
    const artist = await makeUser();
    const otherGame = await makeGame();
    const reviewed = await createUserGame(api, { userId: artist.id, gameId: (await sampleGame(api)).id });
    const waiting = await createUserGame(api, { userId: artist.id, gameId: otherGame.id });
    try {
      const takes = [];
      for (const name of ['First take', 'Second take', 'Third take'])
        takes.push(await createVersion(api, artist.token, reviewed, name));
      for (const take of takes.slice(1)) await finish(api, artist, take.id);
      await createVersion(api, artist.token, waiting, 'Still working');
      await use({ admin, artist, otherGameName: otherGame.name, reviewed, waiting });
    } finally {
      await deleteUserGame(api, reviewed.id);
      await deleteUserGame(api, waiting.id);
    }
  },
});

test.describe('the review loop on the user-games list', () => {
  it("[AUG-5] counts each assignment's versions and finished ones with the newest finish time, filters to finished work and opens it", async ({
    page,
    api,
    seed,
  }) => {
    const { admin, artist, reviewed, waiting } = seed;
    const lastFinishedAt = (await userGameById(api, reviewed.id))?.lastFinishedAt;
    expect(lastFinishedAt, 'the server keeps the newest finish time').toBeTruthy();

    await openWithToken(page, admin.token, listPath);
    for (const name of ['Versions', 'Finished', 'Last Finished'])
      await expect(page.getByRole('columnheader', { name, exact: true }), name).toBeVisible();

    // Search by username: the artist's two assignments, with the true total.
    await searchBox(page).fill(artist.username);
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(2);
    await expect(page).toHaveURL(new RegExp(`[?&]q=${artist.username}`));
    await expect(cardTitle(page, 'User Games (2)')).toBeVisible();
    await expect(page.getByText('2 items', { exact: true })).toBeVisible();

    const done = userGameRow(page, reviewed);
    await expect(cell(done, column.game)).toHaveText(sampleGameName);
    await expect(cell(done, column.versions)).toHaveText('3');
    await expect(cell(done, column.finished)).toHaveText('2');
    // The newest finish time, readable, with the exact moment in the time element.
    const time = cell(done, column.lastFinished).locator('time');
    await expect(time).toHaveAttribute('datetime', lastFinishedAt ?? '');
    await expect(time).toHaveText(/\d{4}/);

    const open = userGameRow(page, waiting);
    await expect(cell(open, column.versions)).toHaveText('1');
    await expect(cell(open, column.finished)).toHaveText('0');
    await expect(cell(open, column.lastFinished)).toHaveText('—');

    // "Has finished versions" asks the server for finishedCount > 0 beside the search.
    const filtered = page.waitForRequest(
      (r) =>
        r.method() === 'POST' &&
        r.url().endsWith('/api/user-games/filter') &&
        JSON.stringify(r.postDataJSON()).includes('finishedCount'),
    );
    // A click, not check(): the switch follows the URL, which the router updates in a transition after the click.
    await finishedFilter(page).click();
    await expect(finishedFilter(page)).toBeChecked();
    expect((await filtered).postDataJSON().where).toEqual({
      and: [
        {
          or: [
            { username: { like: containsPattern(artist.username) } },
            { gameName: { like: containsPattern(artist.username) } },
          ],
        },
        { finishedCount: { gt: 0 } },
      ],
    });
    await expect(rows).toHaveCount(1);
    await expect(done).toBeVisible();
    await expect(page).toHaveURL(/[?&]finished=1/);

    // The filter lives in the URL: a reload keeps it.
    await page.reload();
    await expect(finishedFilter(page)).toBeChecked();
    await expect(searchBox(page)).toHaveValue(artist.username);
    await expect(rows).toHaveCount(1);

    // From there to its versions: the Finished ones are marked with their time.
    await done.getByRole('link', { name: 'Versions', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/user-game-list/game-versions\\?userGameId=${reviewed.id}$`));
    await expect(cardTitle(page, `Versions of ${sampleGameName} for ${artist.username}`)).toBeVisible();
    await expect(page.locator('tbody tr')).toHaveCount(3);
    await expect(page.getByText('3 items', { exact: true })).toBeVisible();
    const versionRow = (name: string) => page.getByRole('row').filter({ hasText: name });
    for (const name of ['Second take', 'Third take']) {
      await expect(versionRow(name).getByText('Finished', { exact: true }), name).toBeVisible();
      await expect(versionRow(name).locator('time'), name).toHaveAttribute('datetime', /^\d{4}-/);
    }
    await expect(versionRow('Third take').locator('time')).toHaveAttribute('datetime', lastFinishedAt ?? '');
    await expect(versionRow('First take').getByText('Finished', { exact: true })).toHaveCount(0);

    // Back to the list: the filter is off again when unchecked.
    await page.goBack();
    await expect(finishedFilter(page)).toBeChecked();
    await finishedFilter(page).click();
    await expect(finishedFilter(page)).not.toBeChecked();
    await expect(rows).toHaveCount(2);
    await expect(page).not.toHaveURL(/finished=/);
  });

  it('[AUG-5] the list searches by game name and sorts by the finished count', async ({ page, seed }) => {
    const { admin, artist, otherGameName, reviewed, waiting } = seed;
    await openWithToken(page, admin.token, listPath);

    await searchBox(page).fill(otherGameName);
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(cell(userGameRow(page, waiting), column.user)).toHaveText(artist.username);

    // A search that matches nothing says so (the spec's empty text is for a list without any rows).
    await searchBox(page).fill(`${otherGameName}-none`);
    await expect(page.getByText(`No results for "${otherGameName}-none".`, { exact: true })).toBeVisible();

    await searchBox(page).fill(artist.username);
    await expect(rows).toHaveCount(2);
    const header = page.getByRole('columnheader', { name: 'Finished', exact: true });
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect(rows.nth(0)).toHaveAttribute('data-user-game-id', String(waiting.id));
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect(rows.nth(0)).toHaveAttribute('data-user-game-id', String(reviewed.id));
  });
});
