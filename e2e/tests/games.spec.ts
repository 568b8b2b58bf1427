import type { Page } from '@playwright/test';
import {
  GameStatus,
  RoleType,
  emptyTexts,
  gameValidationMessages,
  messages,
  totalCountHeader,
  type Game,
} from '@reskin/contract';
import {
  test,
  expect,
  cardTitle,
  dialog,
  errorToast,
  gameById,
  gameRow,
  openWithToken,
  readyGame,
  rowButton,
  successToast,
  tinyGameFiles,
  uniqueGameName,
  uploadFiles,
  warningToast,
  markIndex,
  fileByPath,
  type TestUser,
} from '../fixtures/games';

/** The seeded sample game (SEED_DEMO=true). Read only: never edited, generated or deleted here. */
const seededGameName = 'Star Catcher';

/**
 * Opens the games list, searched by `search` through the URL as a pasted link would (parallel tests add games,
 * so a game is not always on the first page); with a game, waits for its row.
 */
async function openGames(page: Page, admin: TestUser, game?: { name: string }, search = game?.name ?? '') {
  await openWithToken(page, admin.token, `/games?q=${encodeURIComponent(search)}`);
  await expect(cardTitle(page, /^\s*Games \(\d+\)\s*$/)).toBeVisible();
  if (game) await expect(gameRow(page, game.name)).toBeVisible();
}

/** Searches the games list by name; the list follows once the typing pauses. */
async function searchGames(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search by name' }).fill(text);
}

/** The row in inline edit: the one with a Save button. */
const editRow = (page: Page) =>
  page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Save', exact: true }) });

const addButton = (page: Page) => page.getByRole('button', { name: 'Add', exact: true });

test.describe('admin games', () => {
  test('[GAM-1] the list with its columns and status words, and the add form rules', async ({
    page,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    await openGames(page, admin, { name: seededGameName });
    for (const column of ['Name', 'Description', 'Width', 'Height', 'Status', 'Active', 'Actions']) {
      await expect(page.getByRole('columnheader', { name: column, exact: true }), column).toBeVisible();
    }
    const seeded = gameRow(page, seededGameName);
    await expect(seeded.getByRole('cell', { name: 'Ready', exact: true })).toBeVisible();
    await expect(seeded.getByRole('cell', { name: '640', exact: true })).toBeVisible();
    await expect(seeded.getByRole('cell', { name: '480', exact: true })).toBeVisible();

    // Pristine: disabled, but nothing shown as invalid yet.
    await expect(addButton(page)).toBeDisabled();
    await expect(page.locator('form .is-invalid')).toHaveCount(0);

    await page.locator('#name').fill('A game');
    await page.locator('#description').fill('Its description');
    await page.locator('#width').fill('299');
    await page.locator('#height').fill('400');
    await expect(page.getByText(gameValidationMessages.width)).toBeVisible();
    await expect(page.locator('#width')).toHaveClass(/is-invalid/);
    await expect(addButton(page)).toBeDisabled();

    await page.locator('#width').fill('300');
    await page.locator('#height').fill('399');
    await expect(page.getByText(gameValidationMessages.width)).toHaveCount(0);
    await expect(page.getByText(gameValidationMessages.height)).toBeVisible();
    await expect(addButton(page)).toBeDisabled();

    await page.locator('#height').fill('400');
    await expect(page.locator('form .is-invalid')).toHaveCount(0);
    await expect(addButton(page)).toBeEnabled();

    // Every field is required: clearing one makes the form invalid again.
    for (const id of ['name', 'description', 'width', 'height'] as const) {
      const field = page.locator(`#${id}`);
      const value = await field.inputValue();
      await field.fill('');
      await expect(field, id).toHaveClass(/is-invalid/);
      await expect(page.getByText(gameValidationMessages[id]), id).toBeVisible();
      await expect(addButton(page), id).toBeDisabled();
      await field.fill(value);
      await expect(addButton(page), id).toBeEnabled();
    }
  });

  test('[GAM-7][GAM-1] Add posts the game, toasts Game added successfully. and the list shows it', async ({
    page,
    api,
    makeUser,
    cleanupGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    await openGames(page, admin);
    const name = uniqueGameName('added');
    await page.locator('#name').fill(name);
    await page.locator('#description').fill('Added through the form');
    await page.locator('#width').fill('320');
    await page.locator('#height').fill('480');
    const response = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith('/api/games'),
    );
    await addButton(page).click();
    const answer = await response;
    expect(answer.status()).toBe(201);
    const created = (await answer.json()) as Game;
    cleanupGame(created.id);
    expect(answer.request().postDataJSON()).toEqual({
      name,
      description: 'Added through the form',
      width: 320,
      height: 480,
    });
    await expect(successToast(page, messages.gameAdded)).toBeVisible();
    await searchGames(page, name);
    const row = gameRow(page, name);
    await expect(row).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Draft', exact: true })).toBeVisible();
    // A fresh, pristine form for the next game.
    await expect(page.locator('#name')).toHaveValue('');
    await expect(addButton(page)).toBeDisabled();
    await expect(page.locator('form .is-invalid')).toHaveCount(0);
    expect((await gameById(api, created.id)).name).toBe(name);
  });

  test('[GAM-2] inline edit: Save sends the game and toasts item edited successfully.', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await openGames(page, admin, game);
    await rowButton(gameRow(page, game.name), 'Edit').click();
    const name = editRow(page).getByRole('textbox', { name: 'Name', exact: true });
    await expect(name).toHaveValue(game.name);
    const status = editRow(page).getByRole('combobox', { name: 'Status' });
    await expect(status.locator('option')).toHaveText(['Draft', 'Ready', 'Generating', 'Failed']);
    await expect(status).toHaveValue(String(GameStatus.Draft));

    // Edit rules: width min 300 (height min 400 alike), name required; Save waits for a valid row.
    const width = editRow(page).getByRole('spinbutton', { name: 'Width' });
    await width.fill('299');
    await expect(page.getByText(gameValidationMessages.width)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
    await width.fill('350');
    await editRow(page).getByRole('spinbutton', { name: 'Height' }).fill('399');
    await expect(page.getByText(gameValidationMessages.height)).toBeVisible();
    await editRow(page).getByRole('spinbutton', { name: 'Height' }).fill('450');
    await name.fill('');
    await expect(page.getByText(gameValidationMessages.name)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();

    // Still matching the list's search for the game's old name.
    const newName = `${game.name} edited`;
    await name.fill(newName);
    await editRow(page).getByRole('textbox', { name: 'Description' }).fill('Edited inline');
    await editRow(page).getByRole('checkbox', { name: 'Active' }).uncheck();
    const request = page.waitForRequest(
      (r) => r.method() === 'PATCH' && r.url().endsWith(`/api/games/${game.id}`),
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect((await request).postDataJSON()).toEqual({
      name: newName,
      description: 'Edited inline',
      width: 350,
      height: 450,
      gameStatusTypeId: GameStatus.Draft,
      isActive: false,
      imagePath: '',
      rootPath: '',
    });
    await expect(successToast(page, messages.itemEdited)).toBeVisible();
    const row = gameRow(page, newName);
    await expect(row.getByRole('cell', { name: '350', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'No', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
    expect(await gameById(api, game.id)).toMatchObject({
      name: newName,
      width: 350,
      height: 450,
      isActive: false,
    });
  });

  test('[GAM-2] inline edit: Cancel warns Game editing cancelled., reloads, and keeps the game', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await openGames(page, admin, game);
    await rowButton(gameRow(page, game.name), 'Edit').click();
    await editRow(page).getByRole('textbox', { name: 'Name', exact: true }).fill('never saved');
    const patches: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PATCH') patches.push(r.url());
    });
    const reload = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/games/filter'));
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(warningToast(page, messages.gameEditingCancelled)).toBeVisible();
    await reload;
    await expect(gameRow(page, game.name)).toBeVisible();
    await expect(page.getByText('never saved')).toHaveCount(0);
    expect(patches).toEqual([]);
    expect((await gameById(api, game.id)).name).toBe(game.name);
  });

  test('[GAM-3] Play is enabled only at status 2 (Ready) and opens games/game-play with the game', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const pair = uniqueGameName('pair');
    const draft = await makeGame({ name: `${pair} draft` });
    const ready = await makeGame({ name: `${pair} ready` });
    await readyGame(api, ready);
    await openGames(page, admin, draft, pair);
    await expect(gameRow(page, draft.name).getByRole('cell', { name: 'Draft', exact: true })).toBeVisible();
    await expect(rowButton(gameRow(page, draft.name), 'Play')).toBeDisabled();
    const readyRow = gameRow(page, ready.name);
    await expect(readyRow.getByRole('cell', { name: 'Ready', exact: true })).toBeVisible();
    await expect(rowButton(readyRow, 'Play')).toBeEnabled();
    await rowButton(readyRow, 'Play').click();
    await expect(page).toHaveURL(new RegExp(`/games/game-play\\?gameId=${ready.id}$`));
    await expect(page.getByRole('heading', { name: ready.name })).toBeVisible();
    await expect(page.locator('iframe')).toHaveAttribute('src', /\/p\/[^/]+\/tiny\/index\.html$/);

    // Files opens that game's files screen.
    await page.goBack();
    await rowButton(gameRow(page, draft.name), 'Files').click();
    await expect(page).toHaveURL(new RegExp(`/games/game-files\\?gameId=${draft.id}$`));
    await expect(page.getByRole('heading', { name: `Game files of ${draft.name}` })).toBeVisible();
  });

  test('[GAM-4] Gen. toasts Game files are generating..., reloads 2 s later, and the status goes Generating -> Ready', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await uploadFiles(api, game.id, tinyGameFiles());
    await markIndex(api, game.id, (await fileByPath(api, game.id, 'tiny/index.html')).fileId);
    await openGames(page, admin, game);
    const row = gameRow(page, game.name);
    await expect(rowButton(row, 'Play')).toBeDisabled();

    const generated = page.waitForResponse((r) => r.url().endsWith(`/api/games/${game.id}/generate`));
    await rowButton(row, 'Gen.').click();
    const answer = await generated;
    expect(answer.request().method()).toBe('GET');
    expect(answer.status()).toBe(200);
    await expect(successToast(page, messages.gameFilesGenerating)).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Generating', exact: true })).toBeVisible();
    await expect(rowButton(row, 'Play')).toBeDisabled();
    // The list reloads 2 s after the answer, timed in the page (the test's own clock lags under load).
    await expect
      .poll(() =>
        page.evaluate((id) => {
          const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
          const generate = entries.find((e) => e.name.endsWith(`/api/games/${id}/generate`));
          const reload = entries.find(
            (e) => e.name.endsWith('/api/games/filter') && generate && e.startTime > generate.responseEnd,
          );
          return generate && reload ? reload.startTime - generate.responseEnd : -1;
        }, game.id),
      )
      .toBeGreaterThanOrEqual(1950);
    await expect(row.getByRole('cell', { name: 'Ready', exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(rowButton(row, 'Play')).toBeEnabled();
    expect((await gameById(api, game.id)).gameStatusTypeId).toBe(GameStatus.Ready);
  });

  test('[GAM-4] Gen. without an index file shows the server reason and the game stays a Draft', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await openGames(page, admin, game);
    const answer = page.waitForResponse((r) => r.url().endsWith(`/api/games/${game.id}/generate`));
    await rowButton(gameRow(page, game.name), 'Gen.').click();
    expect((await answer).status()).toBe(422);
    await expect(page.locator('.Toastify__toast--error')).toBeVisible();
    await expect(successToast(page, messages.gameFilesGenerating)).toHaveCount(0);
    await expect(gameRow(page, game.name).getByRole('cell', { name: 'Draft', exact: true })).toBeVisible();
    expect((await gameById(api, game.id)).gameStatusTypeId).toBe(GameStatus.Draft);
  });

  test('[GAM-5] Delete asks to confirm, deletes, and toasts item deleted successfully.', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await openGames(page, admin, game);
    const row = gameRow(page, game.name);

    await rowButton(row, 'Delete').click();
    await expect(dialog(page)).toContainText(messages.confirmDeleteItem);
    await dialog(page).getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(dialog(page)).toHaveCount(0);
    await expect(row).toBeVisible();
    expect((await api.get(`/games/${game.id}`, await api.asAdmin())).status()).toBe(200);

    await rowButton(row, 'Delete').click();
    await expect(dialog(page)).toContainText(messages.confirmDeleteItem);
    await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(successToast(page, messages.itemDeleted)).toBeVisible();
    await expect(row).toHaveCount(0);
    expect((await api.get(`/games/${game.id}`, await api.asAdmin())).status()).toBe(404);
    await expect(errorToast(page, /./)).toHaveCount(0);
  });

  test('[GAM-1] the list shows each splash as a small preview from the app itself: no call per row', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const prefix = uniqueGameName('thumbs');
    const count = 12;
    const games = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const game = await makeGame({ name: `${prefix} ${String(i).padStart(2, '0')}` });
        await uploadFiles(api, game.id, tinyGameFiles());
        const splash = await fileByPath(api, game.id, 'tiny/img/dot.png');
        const marked = await api.patch(
          `/games/${game.id}/files/${splash.fileId}/splash`,
          undefined,
          await api.asAdmin(),
        );
        expect(marked.status(), await marked.text()).toBe(200);
        return game;
      }),
    );
    const requests: URL[] = [];
    page.on('request', (request) => requests.push(new URL(request.url())));
    await openGames(page, admin, games[0], prefix);
    await expect(cardTitle(page, `Games (${count})`)).toBeVisible();
    const thumbnails = page.locator('tbody img.game-image-thumb');
    await expect(thumbnails).toHaveCount(count);
    // Each a thumbnail (at most 96 px) made from the upload, loaded from the app's own origin.
    for (const game of games) {
      const img = gameRow(page, game.name).locator('img');
      await expect(img).toHaveAttribute('src', /^\/api\/previews\/[^/]+\/thumb\.webp$/);
      await expect
        .poll(() => img.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
        .toBeGreaterThan(0);
      expect(
        await img.evaluate((element: HTMLImageElement) =>
          Math.max(element.naturalWidth, element.naturalHeight),
        ),
      ).toBeLessThanOrEqual(96);
    }
    const appHost = new URL(page.url()).host;
    const images = requests.filter((url) => url.pathname.startsWith('/api/previews/'));
    expect(images.length).toBeGreaterThanOrEqual(count);
    expect(new Set(images.map((url) => url.host))).toEqual(new Set([appHost]));
    // The page's thumbnails came with the list: no files-root (or any other) call per row.
    const calls = requests.filter(
      (url) =>
        url.host === appHost &&
        url.pathname.startsWith('/api/') &&
        !url.pathname.startsWith('/api/previews/'),
    );
    expect(calls.filter((url) => url.pathname.includes('/files-root'))).toEqual([]);
    expect(calls.filter((url) => /^\/api\/games\/\d+/.test(url.pathname))).toEqual([]);
  });

  test('[GAM-6] empty state: There are no game in the DB. Add a new game below.', async ({
    page,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    // The seeded sample game always exists and parallel tests add games of their own, so an empty list cannot
    // be had for real. This one test answers POST /api/games/filter with [] to show the empty state; nothing
    // else is intercepted here or in the other games tests.
    await page.route('**/api/games/filter', async (route) => {
      if (route.request().method() === 'POST')
        await route.fulfill({ json: [], headers: { [totalCountHeader]: '0' } });
      else await route.continue();
    });
    await openWithToken(page, admin.token, '/games');
    await expect(page.getByText(emptyTexts.games, { exact: true })).toBeVisible();
    await expect(cardTitle(page, 'Games (0)')).toBeVisible();
    await expect(page.getByRole('columnheader')).toHaveCount(0);
    // The add form is still there below.
    await expect(page.locator('#name')).toBeVisible();
  });
});

test.describe('games routes', () => {
  const routes = (gameId: number) => [
    '/games',
    `/games/game-files?gameId=${gameId}`,
    `/games/game-play?gameId=${gameId}`,
  ];

  test('[RT-4] the games routes send anonymous visitors to login and users home', async ({
    page,
    makeUser,
    makeGame,
  }) => {
    const game = await makeGame();
    for (const path of routes(game.id)) {
      await page.goto(path);
      await expect(page, `anonymous on ${path}`).toHaveURL(/\/login$/);
    }
    const user = await makeUser();
    await openWithToken(page, user.token, '/account');
    await expect(page.locator('#username')).toHaveValue(user.username);
    for (const path of routes(game.id)) {
      await page.goto(path);
      await expect(page, `user on ${path}`).toHaveURL(/\/$/);
    }
  });

  test('[RT-4][RT-8] an administrator is admitted, and a reload or a pasted link keeps each screen', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await readyGame(api, game);
    // A pasted link, straight into each screen.
    await openWithToken(page, admin.token, `/games/game-files?gameId=${game.id}`);
    const filesHeading = page.getByRole('heading', { name: `Game files of ${game.name}` });
    await expect(filesHeading).toBeVisible();
    await expect(page.getByText('tiny/index.html', { exact: true })).toBeVisible();
    await page.reload();
    await expect(filesHeading).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/games/game-files\\?gameId=${game.id}$`));

    await page.goto(`/games/game-play?gameId=${game.id}`);
    await expect(page.getByRole('heading', { name: game.name })).toBeVisible();
    await expect(page.locator('iframe')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: game.name })).toBeVisible();
    await expect(page.locator('iframe')).toBeVisible();

    await page.goto(`/games?q=${encodeURIComponent(game.name)}`);
    await expect(gameRow(page, game.name)).toBeVisible();
    await page.reload();
    await expect(gameRow(page, game.name)).toBeVisible();
  });
});
