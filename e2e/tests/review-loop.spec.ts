import {
  RoleType,
  containsPattern,
  messages,
  type GameFile,
  type GameVersion,
  type UserGame,
} from '@reskin/contract';
import type { Locator, Page } from '@playwright/test';
import {
  test,
  expect,
  cardTitle,
  errorToast,
  escapeRegExp,
  nav,
  navLink,
  openWithToken,
  successToast,
  type Api,
  type TestUser,
} from '../fixtures/games';
import {
  createUserGame,
  createVersion,
  deleteUserGame,
  pngFiles,
  sampleGame,
  sampleGameName,
  solidPng,
  userGameById,
  versionsOf,
} from '../fixtures/versions';
import { toggleLock, workbenchUrl } from '../fixtures/workbench';
import { historyEntries, openFileHistory, restoreHistoryEntry } from '../fixtures/history';

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

/** The image the loop works on: the sample game's splash (a PNG of known size). */
async function splashOf(api: Api, gameId: number): Promise<GameFile> {
  const splash = (await pngFiles(api, gameId)).find((file) => file.path.endsWith('/splash.png'));
  if (!splash) throw new Error('the sample game has no splash.png');
  return splash;
}

/** The inbox bell in the nav bar: its name says the unread count ('Inbox: 2 unread'). */
const bell = (page: Page) => nav(page).getByTestId('inbox-bell');
const inboxDialog = (page: Page) => page.getByRole('dialog', { name: /^Inbox/ });
/** The workbench's or review screen's notes button of a file (its name: 'Notes', the count, then 'on <path>'). */
const notesButton = (scope: Page | Locator, path: string) =>
  scope.getByRole('button', { name: new RegExp(`^Notes (.+ )?on ${escapeRegExp(path)}$`) });
const notesDialog = (page: Page, path: string) => page.getByRole('dialog', { name: `Notes on ${path}` });

/** Replaces an image on the artist's workbench through its card's drop area (a one-colour PNG of its size). */
async function replaceOnWorkbench(
  page: Page,
  image: GameFile,
  colour: [number, number, number],
): Promise<void> {
  await page.locator(`input[type="file"][aria-label="Replace ${image.path}"]`).setInputFiles({
    name: 'splash.png',
    mimeType: 'image/png',
    buffer: solidPng(image.width ?? 1, image.height ?? 1, colour),
  });
  await expect(successToast(page, messages.uploaded).first()).toBeVisible();
}

/** 'I Finished My Game' on the workbench's Play Your Version tab, confirmed. */
async function finishOnWorkbench(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Play Your Version', exact: true }).click();
  await page.getByRole('button', { name: 'I Finished My Game', exact: true }).click();
  await page
    .getByRole('dialog')
    .filter({ hasText: messages.confirmFinishVersion })
    .getByRole('button', { name: 'Confirm' })
    .click();
  await expect(successToast(page, messages.informed).first()).toBeVisible();
}

async function reviewStateOf(api: Api, userGameId: number, versionId: number) {
  const version = (await versionsOf(api, userGameId)).find((v) => v.id === versionId) as
    (GameVersion & { reviewState?: string; verdict?: string | null }) | undefined;
  return { state: version?.reviewState, verdict: version?.verdict, locked: version?.isLocked };
}

interface LoopSeed {
  admin: TestUser;
  artist: TestUser;
  userGame: UserGame;
  version: GameVersion;
  splash: GameFile;
}

/** A fresh reviewer and artist, the sample game assigned to the artist with one version; removed afterwards. */
const loop = test.extend<{ loopSeed: LoopSeed }>({
  loopSeed: async ({ api, makeUser }, use) => {
    const admin = await makeUser(RoleType.Admin);
    const artist = await makeUser();
    const star = await sampleGame(api);
    const userGame = await createUserGame(api, { userId: artist.id, gameId: star.id });
    try {
      const version = await createVersion(api, artist.token, userGame, 'Review take');
      await use({ admin, artist, userGame, version, splash: await splashOf(api, star.id) });
    } finally {
      await deleteUserGame(api, userGame.id);
    }
  },
});

test.describe('the review loop in the browser', () => {
  loop(
    'finish, To Review and the inbox, a note on an image and changes requested, the artist answers and finishes again, approve and lock; the history of the image lists both replacements and restores the first',
    async ({ page, browser, baseURL, api, loopSeed }) => {
      test.setTimeout(240_000);
      const { admin, artist, userGame, version, splash } = loopSeed;
      const workbench = workbenchUrl(version);
      const reviewScreen = `/user-game-list/game-versions/files?versionId=${version.id}&gameId=${version.gameId}&userGameId=${userGame.id}`;
      // The reviewer in a browser of their own (its own local storage), beside the artist's.
      const adminPage = await (await browser.newContext({ baseURL })).newPage();

      // 1. The artist replaces the splash and finishes.
      await openWithToken(page, artist.token, workbench);
      await replaceOnWorkbench(page, splash, [200, 40, 90]);
      await finishOnWorkbench(page);
      expect((await reviewStateOf(api, userGame.id, version.id)).state).toBe('to_review');

      // 2. The reviewer sees it in To Review (oldest first, linking to the review screen) and in the inbox.
      await openWithToken(adminPage, admin.token, '/');
      await expect(bell(adminPage)).toHaveAccessibleName(/^Inbox: \d+ unread$/);
      await navLink(adminPage, 'To Review').click();
      await expect(adminPage).toHaveURL(/\/to-review$/);
      await expect(adminPage).toHaveTitle('To Review · Reskin Studio');
      const toReviewRow = adminPage.locator(`tbody tr[data-version-id="${version.id}"]`);
      await expect(toReviewRow).toContainText(artist.username);
      await expect(toReviewRow).toContainText('Review take');
      await bell(adminPage).click();
      const finishedEvent = inboxDialog(adminPage)
        .getByRole('link')
        .filter({ hasText: `${artist.username} finished a version of ${sampleGameName}.` });
      await expect(finishedEvent).toHaveCount(1);
      // The event opens the version's review screen and is read from then on.
      const read = adminPage.waitForRequest(
        (r) => r.method() === 'POST' && r.url().endsWith('/api/inbox/read'),
      );
      await finishedEvent.click();
      expect((await read).postDataJSON()).toEqual({ ids: [expect.any(Number)] });
      await expect(adminPage).toHaveURL(new RegExp(escapeRegExp(reviewScreen.split('?')[1] ?? '')));
      await expect(adminPage.getByRole('heading', { name: 'Review of Review take' })).toBeVisible();

      // 3. A note on the splash, from its row of the review screen, then "Changes requested" with a note.
      const row = adminPage.locator(`tbody tr[data-file-id="${splash.fileId}"]`);
      await notesButton(row, splash.path).click();
      const adminNotes = notesDialog(adminPage, splash.path);
      await adminNotes.getByLabel(`New note on ${splash.path}`).fill('The sky should be darker.');
      await adminNotes.getByRole('button', { name: 'Add note', exact: true }).click();
      await expect(successToast(adminPage, 'Note added.')).toBeVisible();
      await expect(adminNotes.getByText('The sky should be darker.')).toBeVisible();
      await expect(adminNotes.getByText('Open', { exact: true })).toBeVisible();
      await adminNotes.getByRole('button', { name: 'Close' }).click();
      await expect(notesButton(row, splash.path)).toHaveAccessibleName(`Notes 1 open on ${splash.path}`);

      const verdictPanel = adminPage.getByRole('region', { name: 'Verdict' });
      await verdictPanel.getByLabel('Changes requested').check();
      await verdictPanel
        .getByLabel('Note to the artist (optional)')
        .fill('Nearly there: see the note on the splash.');
      await verdictPanel.getByRole('button', { name: 'Give verdict', exact: true }).click();
      await expect(successToast(adminPage, 'Verdict given: Changes requested.')).toBeVisible();
      await expect(verdictPanel.getByTestId('verdict')).toContainText('Changes requested');
      expect(await reviewStateOf(api, userGame.id, version.id)).toMatchObject({
        state: 'changes_requested',
        verdict: 'changes_requested',
      });

      // 4. The artist: the inbox counts the news, the version card and the workbench show the verdict and its note,
      // and the splash's card its note.
      await page.goto(`/my-games/versions?userGameId=${userGame.id}&gameId=${version.gameId}`);
      const card = page.locator(`[data-version-id="${version.id}"]`);
      await expect(card.getByTestId('verdict')).toContainText('Changes requested');
      await expect(card.getByTestId('verdict')).toContainText('Nearly there: see the note on the splash.');
      await expect(card.getByTestId('open-notes')).toHaveText('1 open note');
      await expect(bell(page)).toHaveAccessibleName(/^Inbox: \d+ unread$/);
      await bell(page).click();
      await expect(
        inboxDialog(page).getByText(`${admin.username} reviewed your version of ${sampleGameName}.`),
      ).toBeVisible();
      // The note's event opens the workbench at the splash's card, its notes open.
      await inboxDialog(page)
        .getByRole('link')
        .filter({ hasText: `${admin.username} wrote a note on a file of your version of ${sampleGameName}.` })
        .click();
      await expect(page).toHaveURL(new RegExp(`/my-games/versions/workbench\\?.*fileId=${splash.fileId}`));
      const artistNotes = notesDialog(page, splash.path);
      await expect(artistNotes.getByText('The sky should be darker.')).toBeVisible();
      await artistNotes.getByRole('button', { name: 'Close' }).click();
      await expect(page.getByTestId('verdict')).toContainText('Nearly there: see the note on the splash.');
      const imageCard = page.getByRole('region', { name: splash.path, exact: true });
      await expect(notesButton(imageCard, splash.path)).toHaveAccessibleName(
        `Notes 1 open on ${splash.path}`,
      );

      // 5. The artist replaces the image, answers the note and finishes again.
      await replaceOnWorkbench(page, splash, [20, 40, 160]);
      // The replacement resolves the notes on its file (the server's rule); the card's count follows.
      await expect(notesButton(imageCard, splash.path)).toHaveAccessibleName(`Notes 1 on ${splash.path}`);
      await notesButton(imageCard, splash.path).click();
      await expect(artistNotes.getByText('The sky should be darker.')).toBeVisible();
      await expect(
        artistNotes.getByText(`Resolved by a replacement of the file (${artist.username})`),
      ).toBeVisible();
      await artistNotes.getByRole('button', { name: 'Answer', exact: true }).click();
      await artistNotes.getByLabel(`Your answer to ${admin.username}`).fill('Darker now, with a night sky.');
      await artistNotes.getByRole('button', { name: 'Send answer', exact: true }).click();
      await expect(successToast(page, 'Answer sent.')).toBeVisible();
      await expect(artistNotes.getByText('Darker now, with a night sky.')).toBeVisible();
      await expect(artistNotes.getByText('Resolved', { exact: true })).toBeVisible();
      await artistNotes.getByRole('button', { name: 'Close' }).click();
      await expect(notesButton(imageCard, splash.path)).toHaveAccessibleName(`Notes 1 on ${splash.path}`);
      await finishOnWorkbench(page);
      expect((await reviewStateOf(api, userGame.id, version.id)).state).toBe('to_review');

      // 6. The reviewer reads the answer, finds the version in To Review again, and approves and locks it at once.
      await adminPage.goto('/to-review');
      await expect(adminPage.locator(`tbody tr[data-version-id="${version.id}"]`)).toBeVisible();
      await bell(adminPage).click();
      // (The replacement may have resolved the note before the answer did: each is told.)
      await expect(
        inboxDialog(adminPage)
          .getByText(`${artist.username} answered your note on ${sampleGameName}.`)
          .first(),
      ).toBeVisible();
      await inboxDialog(adminPage).getByRole('button', { name: 'Mark all read', exact: true }).click();
      await expect(bell(adminPage)).toHaveAccessibleName('Inbox');
      await inboxDialog(adminPage).getByRole('button', { name: 'Close' }).click();
      await adminPage
        .locator(`tbody tr[data-version-id="${version.id}"]`)
        .getByRole('link', { name: /^Review / })
        .click();
      await expect(adminPage.getByRole('heading', { name: 'Review of Review take' })).toBeVisible();
      await adminPage
        .getByRole('region', { name: 'Verdict' })
        .getByRole('button', { name: 'Approve and lock', exact: true })
        .click();
      await expect(successToast(adminPage, 'Approved and locked.')).toBeVisible();
      expect(await reviewStateOf(api, userGame.id, version.id)).toMatchObject({
        state: 'approved',
        verdict: 'approved',
        locked: true,
      });
      await adminPage.goto('/to-review');
      await expect(adminPage.getByRole('heading', { name: /^To Review/ })).toBeVisible();
      await expect(adminPage.locator(`tbody tr[data-version-id="${version.id}"]`)).toHaveCount(0);

      // The artist sees it approved, and the version locked.
      await page.goto(`/my-games/versions?userGameId=${userGame.id}&gameId=${version.gameId}`);
      await expect(card.getByTestId('verdict')).toContainText('Approved');
      await expect(card.getByText('Locked', { exact: true })).toBeVisible();

      // 7. The history of the splash lists both replacements (newest first, by the artist, the newest current); the
      // reviewer unlocks the version and restores the first one, which is the version's splash again.
      await adminPage.goto(reviewScreen);
      const splashRow = adminPage.locator('tbody tr').filter({ hasText: splash.path });
      const history = await openFileHistory(adminPage, splash.path, splashRow);
      const entries = historyEntries(history);
      await expect(entries).toHaveCount(2);
      for (const row of [entries.nth(0), entries.nth(1)]) await expect(row).toContainText(artist.username);
      await expect(entries.nth(0)).toContainText('Current');
      // Locked: the history offers no restore, and says why (decision 0052).
      await expect(history.getByRole('button', { name: 'Restore this' })).toHaveCount(0);
      await expect(history.getByTestId('history-no-restore')).toBeVisible();
      await history.getByRole('button', { name: 'Close' }).click();
      await toggleLock(api, version.id);
      // Unlocked elsewhere (through the API): the screen learns it on its next load.
      await adminPage.reload();
      await restoreHistoryEntry(adminPage, splash.path, 1, splashRow);
      const afterRestore = await openFileHistory(adminPage, splash.path, splashRow);
      await expect(historyEntries(afterRestore)).toHaveCount(3);
      await historyEntries(afterRestore).nth(0).getByRole('button', { name: 'View', exact: true }).click();
      const shown = afterRestore
        .getByTestId('history-compare')
        .getByRole('img', { name: /^History entry \d+ of / });
      const restoredBytes = await adminPage.request.get((await shown.getAttribute('src')) ?? '');
      expect(
        Buffer.from(await restoredBytes.body()).equals(
          solidPng(splash.width ?? 1, splash.height ?? 1, [200, 40, 90]),
        ),
      ).toBe(true);
      await adminPage.context().close();
    },
  );

  loop(
    'a verdict given meanwhile by another reviewer is told, and replaced only when asked',
    async ({ page, api, makeUser, loopSeed }) => {
      const { admin, artist, userGame, version } = loopSeed;
      const done = await api.post('/game-versions/done', { id: version.id }, artist.token);
      expect(done.status(), await done.text()).toBe(200);
      await openWithToken(
        page,
        admin.token,
        `/user-game-list/game-versions/files?versionId=${version.id}&gameId=${version.gameId}&userGameId=${userGame.id}`,
      );
      const verdictPanel = page.getByRole('region', { name: 'Verdict' });
      await expect(verdictPanel.getByRole('button', { name: 'Give verdict', exact: true })).toBeVisible();

      // Another reviewer approves while this page still shows no verdict.
      const other = await makeUser(RoleType.Admin);
      const first = await api.put(
        `/game-versions/${version.id}/verdict`,
        { verdict: 'approved' },
        other.token,
      );
      expect(first.status(), await first.text()).toBe(200);

      await verdictPanel.getByLabel('Changes requested').check();
      await verdictPanel.getByRole('button', { name: 'Give verdict', exact: true }).click();
      await expect(errorToast(page, /already has a verdict/)).toBeVisible();
      const replace = page.getByRole('dialog').filter({ hasText: 'Replace it with "Changes requested"' });
      // Cancel keeps the other reviewer's verdict.
      await replace.getByRole('button', { name: 'Cancel', exact: true }).click();
      expect((await reviewStateOf(api, userGame.id, version.id)).verdict).toBe('approved');
      // The panel now shows their verdict, and giving another asks first.
      await expect(verdictPanel.getByTestId('verdict')).toContainText(`Approved by ${other.username}`);
      await verdictPanel.getByRole('button', { name: 'Replace verdict', exact: true }).click();
      await replace.getByRole('button', { name: 'Confirm', exact: true }).click();
      await expect(successToast(page, 'Verdict given: Changes requested.')).toBeVisible();
      expect((await reviewStateOf(api, userGame.id, version.id)).verdict).toBe('changes_requested');
    },
  );
});
