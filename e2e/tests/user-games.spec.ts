import {
  RoleType,
  emptyTexts,
  gameSearchFilter,
  limits,
  messages,
  totalCountHeader,
  userSearchFilter,
  type User,
} from '@reskin/contract';
import type { Locator, Page } from '@playwright/test';
import { pauseClock } from '../fixtures/clock';
import {
  test,
  expect,
  cardTitle,
  dialog,
  errorToast,
  newSignupBody,
  uniqueUsername,
  openWithToken,
  successToast,
  type Api,
} from '../fixtures/test';
import {
  createUserGame,
  deleteUserGame,
  sampleGame,
  sampleGameName,
  userGameById,
} from '../fixtures/versions';
import { createGame, deleteGame, warningToast } from '../fixtures/games';

const listPath = '/user-game-list';

function row(page: Page, text: string): Locator {
  return page.getByRole('row').filter({ hasText: text });
}

function rowButton(r: Locator, name: string): Locator {
  return r.getByRole('button', { name, exact: true });
}

function combobox(page: Page, label: 'User' | 'Game'): Locator {
  return page.getByRole('combobox', { name: label, exact: true });
}

function status(page: Page, field: 'userId' | 'gameId'): Locator {
  return page.getByTestId(`${field}-status`);
}

/** The user-games of `userId` (to clean up what the UI created). */
async function userGamesOf(api: Api, userId: number): Promise<number[]> {
  const response = await api.post('/user-games/filter', { where: { userId } }, await api.asAdmin());
  return ((await response.json()) as { id: number }[]).map((ug) => ug.id);
}

test.describe('admin user-games', () => {
  test('[AUG-1] list plus add form; Add needs user, game, job type and budget and stays disabled while invalid', async ({
    page,
    api,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const assignee = await makeUser();
    try {
      await openWithToken(page, admin.token, listPath);
      for (const column of ['User', 'Game', 'Job Type', 'Budget', 'Active', 'Actions']) {
        await expect(page.getByRole('columnheader', { name: column, exact: true }), column).toBeVisible();
      }
      // The seeded assignments of the sample game are listed.
      await expect(row(page, 'demo').filter({ hasText: sampleGameName }).first()).toBeVisible();

      const add = page.getByRole('button', { name: 'Add', exact: true });
      await expect(add).toBeDisabled();
      await combobox(page, 'User').fill(assignee.username);
      await page.getByRole('option', { name: assignee.username, exact: true }).click();
      await expect(combobox(page, 'User')).toHaveValue(assignee.username);
      await expect(add).toBeDisabled();
      await combobox(page, 'Game').fill(sampleGameName);
      await page.getByRole('option', { name: sampleGameName, exact: true }).click();
      await expect(add).toBeDisabled(); // no budget yet
      await expect(page.getByLabel('Job Type')).toHaveValue('1');
      await page.getByLabel('Job Type').selectOption({ label: 'Sound Replace' });
      await page.getByLabel('Budget (USD)').fill('-1');
      await expect(add).toBeDisabled();
      await page.getByLabel('Budget (USD)').fill('1250');
      await expect(add).toBeEnabled();
      // Changing the chosen user's text drops the choice: invalid again.
      await combobox(page, 'User').fill(`${assignee.username}x`);
      await expect(add).toBeDisabled();
      await combobox(page, 'User').fill(assignee.username);
      await page.getByRole('option', { name: assignee.username, exact: true }).click();
      await expect(add).toBeEnabled();

      const created = page.waitForResponse(
        (r) => r.request().method() === 'POST' && r.url().endsWith('/api/user-games'),
      );
      const reload = page.waitForRequest(
        (r) => r.method() === 'POST' && r.url().endsWith('/api/user-games/filter'),
      );
      await add.click();
      const response = await created;
      expect(response.status()).toBe(201);
      expect(response.request().postDataJSON()).toEqual({
        userId: assignee.id,
        gameId: (await sampleGame(api)).id,
        userGameTypeId: 2,
        jobPrice: 1250,
      });
      await reload;
      await expect(successToast(page, 'User game added successfully.')).toBeVisible();
      const added = row(page, assignee.username);
      await expect(added).toContainText(sampleGameName);
      await expect(added).toContainText('Sound Replace');
      await expect(added).toContainText('$1,250.00');
      await expect(added).toContainText('Yes');
      // The form is empty again.
      await expect(combobox(page, 'User')).toHaveValue('');
      await expect(add).toBeDisabled();
    } finally {
      for (const id of await userGamesOf(api, assignee.id)) await deleteUserGame(api, id);
    }
  });

  test('[AUG-1] the form names a duplicate assignment under Game before submitting, and asks before assigning a game that is not Ready', async ({
    page,
    api,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const assignee = await makeUser();
    const draft = await createGame(api, { description: 'Not generated yet' });
    const sample = await sampleGame(api);
    try {
      await createUserGame(api, { userId: assignee.id, gameId: sample.id });
      await openWithToken(page, admin.token, listPath);
      const add = page.getByRole('button', { name: 'Add', exact: true });
      const chooseGame = async (name: string) => {
        await combobox(page, 'Game').fill(name);
        await page.getByRole('option', { name, exact: true }).click();
      };
      await combobox(page, 'User').fill(assignee.username);
      await page.getByRole('option', { name: assignee.username, exact: true }).click();
      await chooseGame(sampleGameName);
      await page.getByLabel('Budget (USD)').fill('10');

      // The same user, game and job type: said under the field, and Add stays disabled (the server says 409 too).
      const duplicate = page.getByText(messages.assignmentExists, { exact: true });
      await expect(duplicate).toBeVisible();
      await expect(combobox(page, 'Game')).toHaveClass(/is-invalid/);
      await expect(add).toBeDisabled();
      // Another job type is another assignment.
      await page.getByLabel('Job Type').selectOption({ label: 'Sound Replace' });
      await expect(duplicate).toHaveCount(0);
      await expect(add).toBeEnabled();
      await page.getByLabel('Job Type').selectOption({ label: 'ReSkin' });
      await expect(duplicate).toBeVisible();

      // A Draft game: Add asks first; Cancel assigns nothing.
      await chooseGame(draft.name);
      await expect(duplicate).toHaveCount(0);
      await add.click();
      await expect(dialog(page)).toContainText(messages.confirmAssignNotReady(draft.name, 'Draft'));
      await dialog(page).getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog(page)).toHaveCount(0);
      expect(await userGamesOf(api, assignee.id)).toHaveLength(1);
      // Confirm assigns it.
      const created = page.waitForResponse(
        (r) => r.request().method() === 'POST' && r.url().endsWith('/api/user-games'),
      );
      await add.click();
      await dialog(page).getByRole('button', { name: 'Confirm' }).click();
      expect((await created).status()).toBe(201);
      await expect(successToast(page, messages.userGameAdded)).toBeVisible();
      expect(await userGamesOf(api, assignee.id)).toHaveLength(2);
    } finally {
      for (const id of await userGamesOf(api, assignee.id)) await deleteUserGame(api, id);
      await deleteGame(api, draft.id);
    }
  });

  test('[AUG-2] typeaheads search after 500 ms for names containing the text, at most 10, ids and names only', async ({
    page,
    api,
    makeUser,
    cleanupUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    // Eleven users sharing a unique prefix: one more than the typeahead shows.
    const prefix = uniqueUsername('ta');
    for (let i = 0; i < 11; i++) {
      const response = await api.signup(newSignupBody({ username: `${prefix}_${i}` }));
      expect(response.status()).toBe(201);
      cleanupUser(((await response.json()) as User).id);
    }
    // The debounce is measured on the page's own clock: installed before the page loads, paused once it has.
    await page.clock.install();
    await openWithToken(page, admin.token, listPath);
    await expect(page.getByRole('columnheader', { name: 'User', exact: true })).toBeVisible();
    await pauseClock(page);

    const searches: unknown[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/user/list')) searches.push(r.postDataJSON());
    });
    const input = combobox(page, 'User');
    // Typing with a pause just shorter than the debounce, then the same pause again: nothing is searched yet.
    await input.pressSequentially(prefix.slice(0, 4));
    await page.clock.runFor(limits.typeaheadDebounceMs - 1);
    await input.pressSequentially(prefix.slice(4));
    await page.clock.runFor(limits.typeaheadDebounceMs - 1);
    expect(searches).toHaveLength(0);
    // The debounce's last millisecond: one search, for the whole text.
    await page.clock.runFor(1);
    await expect.poll(() => searches).toEqual([userSearchFilter(prefix)]);
    expect(searches[0]).toMatchObject({ fields: { id: true, username: true }, limit: 10, skip: 0 });
    // The rest runs on a moving clock again (react-query's notifications wait for a timer too).
    await page.clock.resume();
    await expect(status(page, 'userId')).toHaveText(messages.typeaheadCount(10));
    expect(searches).toHaveLength(1);
    const options = page.getByRole('listbox', { name: 'User suggestions' }).getByRole('option');
    await expect(options).toHaveCount(10);
    for (const text of await options.allInnerTexts()) expect(text).toContain(prefix);

    // Narrower text: only the names containing it (_1 and _10).
    await input.fill(`${prefix}_1`);
    await expect(status(page, 'userId')).toHaveText(messages.typeaheadCount(2));
    await expect(options).toHaveCount(2);
    expect((await options.allInnerTexts()).sort()).toEqual([`${prefix}_1`, `${prefix}_10`]);

    // The game typeahead searches game names the same way.
    const gameSearch = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith('/api/games/filter'),
    );
    await combobox(page, 'Game').fill('Star Catch');
    expect((await gameSearch).postDataJSON()).toEqual(gameSearchFilter('Star Catch'));
    await expect(page.getByRole('option', { name: sampleGameName, exact: true })).toBeVisible();
    await expect(status(page, 'gameId')).toHaveText(/^\d+ results available$/);
    await combobox(page, 'Game').press('ArrowDown');
    await combobox(page, 'Game').press('Enter');
    await expect(combobox(page, 'Game')).toHaveValue(/Star Catch/);
  });

  test("[AUG-3] typeahead says 'No results available' for nonsense", async ({ page, makeUser }) => {
    const admin = await makeUser(RoleType.Admin);
    await openWithToken(page, admin.token, listPath);
    await combobox(page, 'User').fill('zz-no-such-user-qq');
    await expect(status(page, 'userId')).toHaveText(messages.typeaheadNone);
    await expect(page.getByRole('listbox')).toHaveCount(0);
    await combobox(page, 'Game').fill('zz-no-such-game-qq');
    await expect(status(page, 'gameId')).toHaveText(messages.typeaheadNone);
  });

  test("[AUG-3] typeahead says 'Sorry, suggestions could not be loaded.' when the search fails", async ({
    page,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    // A failing search cannot be caused from outside, so this ONE test answers the user search with a 500.
    // Nothing else is intercepted here.
    await page.route('**/api/user/list', async (route) => {
      if (route.request().method() === 'POST')
        await route.fulfill({
          status: 500,
          json: { error: { statusCode: 500, name: 'InternalServerError', message: 'boom' } },
        });
      else await route.continue();
    });
    await openWithToken(page, admin.token, listPath);
    await combobox(page, 'User').fill('adm');
    await expect(status(page, 'userId')).toHaveText(messages.typeaheadFailed);
    await expect(page.getByRole('listbox')).toHaveCount(0);
  });

  test('[AUG-3] a typeahead search that cannot reach the server shows one "No connection" toast, not one per try (decision 0052)', async ({
    page,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    await openWithToken(page, admin.token, listPath);
    // The server goes away for the user search only (the list itself has loaded).
    await page.route('**/api/user/list', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      return route.abort('connectionrefused');
    });
    const failures: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' && message.text().startsWith('POST /api/user/list failed'))
        failures.push(message.text());
    });
    const user = combobox(page, 'User');
    await user.fill('adm');
    await expect(status(page, 'userId')).toHaveText(messages.typeaheadFailed);
    // Typing on asks again, and fails again: the same failure, so still one toast.
    await user.fill('admi');
    await expect.poll(() => failures.length).toBe(2);
    // The client logs a failure just before its toast; two frames later React has drawn any toast it asked for.
    await page.evaluate(
      () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
    );
    // Counted now, not waited for: the toasts close by themselves after a while (SPEC §9).
    expect(await page.locator('.Toastify__toast--error .toast-title').allTextContents()).toEqual([
      'No connection',
    ]);
  });

  test('[AUG-4] Edit saves job type and budget; Remove Access / Give Access toggle; Delete asks first', async ({
    page,
    api,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const assignee = await makeUser();
    const game = await sampleGame(api);
    const userGame = await createUserGame(api, { userId: assignee.id, gameId: game.id, jobPrice: 10 });
    try {
      await openWithToken(page, admin.token, listPath);
      const r = row(page, assignee.username);
      await expect(r).toContainText('ReSkin');
      await expect(r).toContainText('$10.00');

      // Edit
      await rowButton(r, 'Edit').click();
      const editor = dialog(page);
      await editor.getByLabel('Job Type').selectOption({ label: 'Sound Replace' });
      await editor.getByLabel('Budget (USD)').fill('');
      await expect(editor.getByRole('button', { name: 'Save' })).toBeDisabled();
      await editor.getByLabel('Budget (USD)').fill('99.5');
      await editor.getByRole('button', { name: 'Save' }).click();
      await expect(successToast(page, messages.itemEdited)).toBeVisible();
      await expect(r).toContainText('Sound Replace');
      await expect(r).toContainText('$99.50');
      expect(await userGameById(api, userGame.id)).toMatchObject({ userGameTypeId: 2, jobPrice: 99.5 });

      // Remove Access / Give Access
      await rowButton(r, 'Remove Access').click();
      await expect(successToast(page, messages.itemActivity)).toBeVisible();
      await expect(rowButton(r, 'Give Access')).toBeVisible();
      expect((await userGameById(api, userGame.id))?.isActive).toBe(false);
      await rowButton(r, 'Give Access').click();
      await expect(rowButton(r, 'Remove Access')).toBeVisible();
      expect((await userGameById(api, userGame.id))?.isActive).toBe(true);

      // Delete: Cancel keeps the row, Confirm deletes it.
      await rowButton(r, 'Delete').click();
      await expect(dialog(page)).toContainText(messages.confirmDeleteItem);
      await dialog(page).getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog(page)).toBeHidden();
      await expect(r).toBeVisible();
      await rowButton(r, 'Delete').click();
      await dialog(page).getByRole('button', { name: 'Confirm' }).click();
      await expect(successToast(page, messages.itemDeleted)).toBeVisible();
      await expect(r).toHaveCount(0);
      expect(await userGameById(api, userGame.id)).toBeUndefined();
      await expect(errorToast(page, /./)).toHaveCount(0);
    } finally {
      await deleteUserGame(api, userGame.id);
    }
  });

  test('[ERR-3][AUG-4] Cancel in the edit dialog warns item editing cancelled. and changes nothing', async ({
    page,
    api,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const assignee = await makeUser();
    const game = await sampleGame(api);
    const userGame = await createUserGame(api, { userId: assignee.id, gameId: game.id, jobPrice: 10 });
    try {
      await openWithToken(page, admin.token, listPath);
      const r = row(page, assignee.username);
      await rowButton(r, 'Edit').click();
      const editor = dialog(page);
      await editor.getByLabel('Budget (USD)').fill('77');
      await editor.getByRole('button', { name: 'Cancel' }).click();
      await expect(editor).toBeHidden();
      await expect(warningToast(page, messages.itemEditingCancelled)).toHaveText(
        messages.itemEditingCancelled,
      );
      await expect(r).toContainText('$10.00');
      expect(await userGameById(api, userGame.id)).toMatchObject({ jobPrice: 10 });
    } finally {
      await deleteUserGame(api, userGame.id);
    }
  });

  test("[AUG-5] a row leads to that user-game's versions", async ({ page, api, makeUser }) => {
    const admin = await makeUser(RoleType.Admin);
    const assignee = await makeUser();
    const game = await sampleGame(api);
    const userGame = await createUserGame(api, { userId: assignee.id, gameId: game.id });
    try {
      await openWithToken(page, admin.token, listPath);
      await row(page, assignee.username).getByRole('link', { name: 'Versions' }).click();
      await expect(page).toHaveURL(new RegExp(`/user-game-list/game-versions\\?userGameId=${userGame.id}$`));
      await expect(cardTitle(page, `Versions of ${sampleGameName} for ${assignee.username}`)).toBeVisible();
      await expect(page.getByText(emptyTexts.versions, { exact: true })).toBeVisible();
    } finally {
      await deleteUserGame(api, userGame.id);
    }
  });

  test('[AUG-6] empty state', async ({ page, makeUser }) => {
    const admin = await makeUser(RoleType.Admin);
    // The seeded assignments always exist (and must not be touched), so this ONE test answers the list call
    // with [] to show the empty state; nothing else is intercepted.
    await page.route('**/api/user-games/filter', (route) =>
      route.fulfill({ json: [], headers: { [totalCountHeader]: '0' } }),
    );
    await openWithToken(page, admin.token, listPath);
    await expect(page.getByText(emptyTexts.userGames, { exact: true })).toBeVisible();
    // The add form is still there below.
    await expect(combobox(page, 'User')).toBeVisible();
  });
});
