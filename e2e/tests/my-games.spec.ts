import type { Browser, Locator, Page } from '@playwright/test';
import {
  RoleType,
  emptyTexts,
  gameReadinessMessages,
  limits,
  messages,
  validationMessages,
  versionRuleMessages,
  type GameVersion,
  type UserGame,
} from '@reskin/contract';
import {
  test,
  expect,
  content,
  decodeTokenPayload,
  dialog,
  errorToast,
  gameById,
  openWithToken,
  readyGame,
  successToast,
  type TestUser,
} from '../fixtures/games';
import {
  createUserGame,
  createVersion,
  deleteUserGame,
  sampleGame,
  sampleGameName,
  versionsOf,
} from '../fixtures/versions';

/** The play origin's port (the server's PLAY_PORT), set by playwright.config.ts for every worker. */
const playPort = process.env.E2E_PLAY_PORT ?? '';

/** Assigns a game to a user as admin (active, ReSkin); every assignment made this way is deleted afterwards. */
const it = test.extend<{ assign: (user: TestUser, gameId: number) => Promise<UserGame> }>({
  assign: async ({ api }, use) => {
    const made: number[] = [];
    await use(async (user, gameId) => {
      const userGame = await createUserGame(api, { userId: user.id, gameId });
      made.push(userGame.id);
      return userGame;
    });
    for (const id of made.reverse()) await deleteUserGame(api, id);
  },
});

// --- Screens -------------------------------------------------------------------------------------------

/** The My Games card of a game, by its title. */
function gameCard(page: Page, name: string): Locator {
  return content(page)
    .locator('.card')
    .filter({ has: page.getByRole('heading', { name, exact: true }) });
}

function allGameCards(page: Page): Locator {
  return content(page).locator('.card[data-user-game-id]');
}

/** A version card on the versions screen (a region named after the version). */
function versionCard(page: Page, name: string): Locator {
  return content(page).getByRole('region', { name, exact: true });
}

function allVersionCards(page: Page): Locator {
  return content(page).locator('[data-version-id]');
}

function addNewVersion(page: Page): Locator {
  return content(page).getByRole('link', { name: 'Add New Version', exact: true });
}

function nameField(page: Page): Locator {
  return page.getByLabel('Name', { exact: true });
}

function descriptionField(page: Page): Locator {
  return page.getByLabel('Description', { exact: true });
}

function saveButton(page: Page): Locator {
  return page.getByRole('button', { name: 'Save', exact: true });
}

function tab(page: Page, name: string): Locator {
  return page.getByRole('tab', { name, exact: true });
}

function backLink(page: Page): Locator {
  return content(page).getByRole('link', { name: 'Back', exact: true });
}

/** The workbench's Back, a link or (inside its tablist) a tab. */
function workbenchBack(page: Page): Locator {
  return backLink(page).or(content(page).getByRole('tab', { name: 'Back', exact: true }));
}

const versionsUrl = (userGame: { id: number }) =>
  new RegExp(`/my-games/versions\\?(gameId=\\d+&)?userGameId=${userGame.id}$`);

async function naturalSize(image: Locator): Promise<{ width: number; height: number }> {
  return image.evaluate((element) => {
    const img = element as HTMLImageElement;
    return { width: img.naturalWidth, height: img.naturalHeight };
  });
}

/** The play frame's src, checked to be a play URL on the play origin; returns it with its token's view. */
async function playSrc(page: Page, indexPath: RegExp): Promise<{ src: string; view: unknown }> {
  const frame = page.locator('iframe');
  await expect(frame).toHaveAttribute('src', /\/p\/[^/]+\//);
  const src = (await frame.getAttribute('src')) ?? '';
  const url = new URL(src);
  expect(url.port, 'the frame shows the play origin').toBe(playPort);
  expect(url.origin, 'the play origin is not the app origin').not.toBe(new URL(page.url()).origin);
  expect(url.pathname).toMatch(indexPath);
  const token = url.pathname.split('/')[2] ?? '';
  return { src, view: decodeTokenPayload(token).view };
}

async function activeTag(page: Page): Promise<string | undefined> {
  return page.evaluate(() => document.activeElement?.tagName);
}

const sampleIndex = /^\/p\/[^/]+\/star-catcher\/game\/index\.html$/;

// --- Tests ---------------------------------------------------------------------------------------------

test.describe('my games', () => {
  it('[MG-1] cards show each assigned game with description and image; a game without a splash shows the 360x240 placeholder', async ({
    page,
    api,
    makeUser,
    makeGame,
    assign,
  }) => {
    const user = await makeUser();
    const sample = await gameById(api, (await sampleGame(api)).id);
    const plain = await makeGame({ description: 'A game without a splash image', width: 320, height: 420 });
    // Ready, with an index but no splash: only the missing splash can explain the placeholder.
    await readyGame(api, plain);
    await assign(user, sample.id);
    await assign(user, plain.id);

    await openWithToken(page, user.token, '/my-games');
    await expect(page.getByRole('heading', { name: 'My Games', exact: true })).toBeVisible();
    await expect(allGameCards(page)).toHaveCount(2);
    await expect(page.getByText(emptyTexts.myGames)).toHaveCount(0);

    // The sample game: its description and its splash image, a small watermarked preview (WebP) from the
    // app's own origin (one host for every card, not the game's play origin), loaded lazily.
    const sampleCard = gameCard(page, sampleGameName);
    await expect(sampleCard).toContainText(sample.description);
    const splash = sampleCard.getByRole('img', { name: `${sampleGameName} splash` });
    await expect(splash).toBeVisible();
    await expect(splash).toHaveAttribute('loading', 'lazy');
    const splashUrl = new URL((await splash.getAttribute('src')) ?? '', page.url());
    expect(splashUrl.origin).toBe(new URL(page.url()).origin);
    expect(splashUrl.pathname).toMatch(/^\/api\/previews\/[^/]+\/[^/]+$/);
    await expect
      .poll(async () => (await naturalSize(splash)).width, { message: 'splash loaded' })
      .toBeGreaterThan(0);
    expect((await naturalSize(splash)).width).toBeLessThanOrEqual(limits.imagePreviews.previewPixels);

    // The game without a splash: its description and the 360x240 placeholder.
    const plainCard = gameCard(page, plain.name);
    await expect(plainCard).toContainText('A game without a splash image');
    const placeholder = plainCard.getByRole('img', { name: 'No image' });
    await expect(placeholder).toBeVisible();
    await expect(placeholder).toHaveAttribute('width', '360');
    await expect(placeholder).toHaveAttribute('height', '240');
    await expect.poll(() => naturalSize(placeholder)).toEqual(limits.placeholderImage);
    const box = await placeholder.boundingBox();
    expect((box?.width ?? 0) / (box?.height ?? 1)).toBeCloseTo(360 / 240, 1);
    await expect(plainCard.getByRole('img', { name: `${plain.name} splash` })).toHaveCount(0);
  });

  it("[MG-2] a user with no assigned game sees 'There is no game.'", async ({ page, makeUser }) => {
    const user = await makeUser();
    await openWithToken(page, user.token, '/my-games');
    await expect(page.getByRole('heading', { name: 'My Games', exact: true })).toBeVisible();
    await expect(content(page).getByText(emptyTexts.myGames, { exact: true })).toBeVisible();
    await expect(allGameCards(page)).toHaveCount(0);
  });

  it("[MG-3] only the user's own active assignments are listed", async ({
    page,
    api,
    makeUser,
    makeGame,
    assign,
  }) => {
    const user = await makeUser();
    const other = await makeUser();
    const sample = await sampleGame(api);
    const paused = await makeGame({ description: 'Assigned, but access removed' });
    const othersGame = await makeGame({ description: 'Assigned to someone else' });
    await assign(user, sample.id);
    const inactive = await assign(user, paused.id);
    await assign(other, othersGame.id);
    const toggle = async () => {
      const response = await api.delete(`/user-games/${inactive.id}/changeActivity`, await api.asAdmin());
      expect(response.status(), await response.text()).toBe(200);
    };
    await toggle(); // Remove Access

    await openWithToken(page, user.token, '/my-games');
    await expect(gameCard(page, sampleGameName)).toBeVisible();
    await expect(allGameCards(page)).toHaveCount(1);
    await expect(content(page)).not.toContainText(paused.name);
    await expect(content(page)).not.toContainText(othersGame.name);

    // Give Access again: the same assignment shows after a reload.
    await toggle();
    await page.reload();
    await expect(gameCard(page, paused.name)).toBeVisible();
    await expect(allGameCards(page)).toHaveCount(2);
    await expect(content(page)).not.toContainText(othersGame.name);

    // The other user sees only their own game.
    await openWithToken(page, other.token, '/my-games');
    await expect(gameCard(page, othersGame.name)).toBeVisible();
    await expect(allGameCards(page)).toHaveCount(1);
  });
  it('[MG-1] a game that is not Ready yet: its card says it is being prepared, with no play or finish anywhere, and never asks to generate', async ({
    page,
    api,
    makeUser,
    makeGame,
    assign,
  }) => {
    const user = await makeUser();
    const demo = await makeUser(RoleType.Demo);
    const draft = await makeGame({ description: 'Still being made' });
    const userGame = await assign(user, draft.id);
    await assign(demo, draft.id);
    const version = await createVersion(api, user.token, userGame, 'Early look');

    await openWithToken(page, user.token, '/my-games');
    const card = gameCard(page, draft.name);
    await expect(card).toContainText(gameReadinessMessages.preparing);
    // The artist can still open its versions: no Play there, and why.
    await card.getByRole('link', { name: draft.name }).click();
    await expect(content(page)).toContainText(gameReadinessMessages.preparingDetail);
    const versionCardOf = versionCard(page, version.name);
    await expect(versionCardOf.getByRole('link', { name: 'Open', exact: true })).toBeVisible();
    await expect(versionCardOf.getByRole('link', { name: 'Play', exact: true })).toHaveCount(0);
    // A pasted play link: the reason, no frame and no 'I Finished My Game'.
    await page.goto(
      `/my-games/versions/play?versionId=${version.id}&gameId=${draft.id}&userGameId=${userGame.id}`,
    );
    await expect(content(page)).toContainText(gameReadinessMessages.preparingDetail);
    await expect(page.locator('iframe')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'I Finished My Game' })).toHaveCount(0);
    await expect(page.getByText(/generat/i)).toHaveCount(0);

    // A demo account's card leads nowhere: its only screen plays the game.
    await openWithToken(page, demo.token, '/my-games');
    await expect(gameCard(page, draft.name)).toContainText(gameReadinessMessages.preparing);
    await expect(gameCard(page, draft.name).getByRole('link')).toHaveCount(0);
  });
});

test.describe('versions', () => {
  it('[VER-1] the versions screen lists the versions with an add-new card while fewer than 6; edit and delete (with confirmation)', async ({
    page,
    api,
    makeUser,
    assign,
  }) => {
    const user = await makeUser();
    const userGame = await assign(user, (await sampleGame(api)).id);

    await openWithToken(page, user.token, '/my-games');
    await gameCard(page, sampleGameName).getByRole('link', { name: sampleGameName }).click();
    await expect(page).toHaveURL(versionsUrl(userGame));
    await expect(page.getByRole('heading', { name: `${sampleGameName}: versions` })).toBeVisible();
    await expect(addNewVersion(page)).toBeVisible();
    await expect(content(page)).toContainText('0 of 6 versions used');
    await expect(allVersionCards(page)).toHaveCount(0);

    const made: GameVersion[] = [];
    for (let n = 1; n <= 5; n++) {
      made.push(await createVersion(api, user.token, userGame, `Version ${n}`, `Description ${n}`));
    }
    await page.reload();
    await expect(allVersionCards(page)).toHaveCount(5);
    for (const version of made) {
      const card = versionCard(page, version.name);
      await expect(card).toContainText(version.description);
      for (const link of ['Open', 'Play', 'Edit']) {
        await expect(card.getByRole('link', { name: link, exact: true })).toBeVisible();
      }
      await expect(card.getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
    }
    await expect(addNewVersion(page)).toBeVisible();
    await expect(content(page)).toContainText('5 of 6 versions used');

    // The 6th version: the add-new card goes.
    made.push(await createVersion(api, user.token, userGame, 'Version 6', 'Description 6'));
    await page.reload();
    await expect(allVersionCards(page)).toHaveCount(6);
    await expect(versionCard(page, 'Version 6')).toBeVisible();
    await expect(addNewVersion(page)).toHaveCount(0);
    await expect(content(page)).not.toContainText('versions used');

    // Edit: the form opens on the version and saves back to the list.
    await versionCard(page, 'Version 2').getByRole('link', { name: 'Edit', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/my-games/versions/add\\?versionId=${made[1]?.id}&`));
    await expect(page.getByRole('heading', { name: `Edit Version of ${sampleGameName}` })).toBeVisible();
    await expect(nameField(page)).toHaveValue('Version 2');
    await descriptionField(page).fill('New colours for the stars');
    await saveButton(page).click();
    await expect(successToast(page, messages.versionSaved)).toBeVisible();
    await expect(page).toHaveURL(versionsUrl(userGame));
    await expect(versionCard(page, 'Version 2')).toContainText('New colours for the stars');
    await expect(allVersionCards(page)).toHaveCount(6);

    // Delete asks first: Cancel keeps the version.
    const sixth = versionCard(page, 'Version 6');
    await sixth.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page)).toContainText('Are you sure you want to delete Version 6?');
    await dialog(page).getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(dialog(page)).toHaveCount(0);
    await expect(sixth).toBeVisible();
    expect(await versionsOf(api, userGame.id)).toHaveLength(6);

    // Confirm removes it, and the add-new card is back.
    await sixth.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(dialog(page)).toContainText('Are you sure you want to delete Version 6?');
    await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(successToast(page, messages.versionDeleted)).toBeVisible();
    await expect(sixth).toHaveCount(0);
    await expect(allVersionCards(page)).toHaveCount(5);
    await expect(addNewVersion(page)).toBeVisible();
    await expect(content(page)).toContainText('5 of 6 versions used');
    expect((await versionsOf(api, userGame.id)).map((v) => v.name)).not.toContain('Version 6');
  });

  it('[VER-3] the version form: name 2-250, description 2-500, letters, digits, underscore, hyphen and spaces', async ({
    page,
    api,
    makeUser,
    assign,
  }) => {
    const user = await makeUser();
    const userGame = await assign(user, (await sampleGame(api)).id);
    await openWithToken(page, user.token, `/my-games/versions?userGameId=${userGame.id}`);
    await addNewVersion(page).click();
    await expect(page).toHaveURL(/\/my-games\/versions\/add\?/);
    await expect(page.getByRole('heading', { name: `Add Version of ${sampleGameName}` })).toBeVisible();

    const name = nameField(page);
    const description = descriptionField(page);
    const nameMessage = page.getByText(validationMessages.versionName, { exact: true });
    const descriptionMessage = page.getByText(validationMessages.versionDescription, { exact: true });

    // Pristine: empty and invalid, but no message and no danger styling yet.
    await expect(name).toHaveValue('');
    await expect(saveButton(page)).toBeDisabled();
    await name.focus();
    await description.focus();
    await saveButton(page).focus();
    await expect(nameMessage).toHaveCount(0);
    await expect(descriptionMessage).toHaveCount(0);
    await expect(name).not.toHaveClass(/is-invalid/);
    await expect(description).not.toHaveClass(/is-invalid/);

    // Name: too short, then fine; the untouched description stays quiet.
    await name.fill('a');
    await expect(nameMessage).toBeVisible();
    await expect(name).toHaveClass(/is-invalid/);
    await expect(descriptionMessage).toHaveCount(0);
    await name.fill('ab');
    await expect(nameMessage).toHaveCount(0);
    await expect(name).not.toHaveClass(/is-invalid/);
    await expect(saveButton(page)).toBeDisabled();

    // Required: cleared again, the message shows.
    await name.fill('');
    await expect(nameMessage).toBeVisible();
    await name.fill('   ');
    await expect(nameMessage).toBeVisible();

    // Too long: 251 characters; 250 are fine.
    await name.fill('n'.repeat(251));
    await expect(nameMessage).toBeVisible();
    await name.fill('n'.repeat(250));
    await expect(nameMessage).toHaveCount(0);

    // A forbidden character.
    await name.fill('Night sky!');
    await expect(nameMessage).toBeVisible();
    await expect(name).toHaveClass(/is-invalid/);

    // Description: too short, too long (501; 500 are fine), forbidden characters.
    await description.fill('d');
    await expect(descriptionMessage).toBeVisible();
    await expect(description).toHaveClass(/is-invalid/);
    await description.fill('d'.repeat(501));
    await expect(descriptionMessage).toBeVisible();
    await description.fill('d'.repeat(500));
    await expect(descriptionMessage).toHaveCount(0);
    await description.fill('Stars & moons');
    await expect(descriptionMessage).toBeVisible();
    await description.fill('Why?');
    await expect(descriptionMessage).toBeVisible();
    await expect(saveButton(page)).toBeDisabled();

    // Valid: letters, digits, underscore, hyphen and spaces enable Save.
    await name.fill('Night_sky-2 final');
    await description.fill('Dark blue sky_3 with new-style stars');
    await expect(nameMessage).toHaveCount(0);
    await expect(descriptionMessage).toHaveCount(0);
    await expect(name).not.toHaveClass(/is-invalid/);
    await expect(description).not.toHaveClass(/is-invalid/);
    await expect(saveButton(page)).toBeEnabled();

    // One invalid field disables it again.
    await description.fill('x');
    await expect(saveButton(page)).toBeDisabled();
    await description.fill('xy');
    await expect(saveButton(page)).toBeEnabled();
  });

  it("[VER-4] save: 'You successfully created version!' on add and on edit (edit starts from the saved values); a refused save shows 'There was an error.'", async ({
    page,
    api,
    makeUser,
    assign,
  }) => {
    const user = await makeUser();
    const game = await sampleGame(api);
    const userGame = await assign(user, game.id);
    await openWithToken(page, user.token, `/my-games/versions?userGameId=${userGame.id}`);

    // Add.
    await addNewVersion(page).click();
    await expect(page.getByRole('heading', { name: `Add Version of ${sampleGameName}` })).toBeVisible();
    await nameField(page).fill('First look');
    await descriptionField(page).fill('Brighter stars');
    await saveButton(page).click();
    const saved = successToast(page, messages.versionSaved);
    await expect(saved).toBeVisible();
    await expect(page).toHaveURL(versionsUrl(userGame));
    await expect(versionCard(page, 'First look')).toContainText('Brighter stars');
    const [created] = await versionsOf(api, userGame.id);
    expect(created).toMatchObject({ name: 'First look', description: 'Brighter stars' });
    await saved.click(); // tap to dismiss, so the edit's toast is the only one
    await expect(saved).toHaveCount(0);

    // Edit: the form starts with the saved values; saving toasts the same message.
    await versionCard(page, 'First look').getByRole('link', { name: 'Edit', exact: true }).click();
    await expect(page.getByRole('heading', { name: `Edit Version of ${sampleGameName}` })).toBeVisible();
    await expect(nameField(page)).toHaveValue('First look');
    await expect(descriptionField(page)).toHaveValue('Brighter stars');
    await expect(saveButton(page)).toBeEnabled();
    await nameField(page).fill('Second look');
    await saveButton(page).click();
    await expect(successToast(page, messages.versionSaved)).toBeVisible();
    await expect(page).toHaveURL(versionsUrl(userGame));
    await expect(versionCard(page, 'Second look')).toContainText('Brighter stars');
    await expect(versionCard(page, 'First look')).toHaveCount(0);
    const afterEdit = await versionsOf(api, userGame.id);
    expect(afterEdit.map((v) => [v.id, v.name])).toEqual([[created?.id, 'Second look']]);

    // Refused: the add form opened at 5 versions cannot save once another tab made the 6th (the server says 409).
    for (let n = 2; n < limits.versionsPerUserGame; n++) {
      await createVersion(api, user.token, userGame, `Version ${n}`);
    }
    await page.goto(`/my-games/versions/add?userGameId=${userGame.id}&gameId=${game.id}`);
    await expect(page.getByRole('heading', { name: `Add Version of ${sampleGameName}` })).toBeVisible();
    await nameField(page).fill('Seventh');
    await descriptionField(page).fill('One too many');
    await createVersion(api, user.token, userGame, `Version ${limits.versionsPerUserGame}`);
    const answer = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith('/api/game-versions'),
    );
    await saveButton(page).click();
    expect((await answer).status()).toBe(409);
    await expect(errorToast(page, messages.versionSaveFailed)).toBeVisible();
    await expect(successToast(page, messages.versionSaved)).toHaveCount(0);
    await expect(page).toHaveURL(/\/my-games\/versions\/add\?/);
    // The form reads the versions again and gives way to the limit.
    await expect(content(page).getByText(versionRuleMessages.limit, { exact: true })).toBeVisible();
    await expect(saveButton(page)).toHaveCount(0);
    const final = await versionsOf(api, userGame.id);
    expect(final).toHaveLength(limits.versionsPerUserGame);
    expect(final.map((v) => v.name)).not.toContain('Seventh');
  });
});

test.describe('version routes opened directly', () => {
  it('[VER-1][RT-8] they offer only what the server allows: no form at 6 of 6, no Add New Version for a demo account, and a clear message without parameters', async ({
    page,
    api,
    makeUser,
    assign,
  }) => {
    const game = await sampleGame(api);
    const user = await makeUser();
    const demo = await makeUser(RoleType.Demo);
    const userGame = await assign(user, game.id);
    const demoGame = await assign(demo, game.id);

    // 6 of 6: the add route says why, with no form; the versions screen has no add-new card.
    for (let n = 1; n <= limits.versionsPerUserGame; n++)
      await createVersion(api, user.token, userGame, `Version ${n}`);
    await openWithToken(
      page,
      user.token,
      `/my-games/versions/add?userGameId=${userGame.id}&gameId=${game.id}`,
    );
    await expect(content(page).getByText(versionRuleMessages.limit, { exact: true })).toBeVisible();
    await expect(nameField(page)).toHaveCount(0);
    await expect(saveButton(page)).toHaveCount(0);
    await page.goto(`/my-games/versions?userGameId=${userGame.id}`);
    await expect(allVersionCards(page)).toHaveCount(limits.versionsPerUserGame);
    await expect(addNewVersion(page)).toHaveCount(0);

    // A demo account on the versions and add routes: why, and no Add New Version or form.
    await openWithToken(page, demo.token, `/my-games/versions?userGameId=${demoGame.id}&gameId=${game.id}`);
    await expect(page.getByRole('heading', { name: `${sampleGameName}: versions` })).toBeVisible();
    await expect(content(page).getByText(versionRuleMessages.demo, { exact: true })).toBeVisible();
    await expect(addNewVersion(page)).toHaveCount(0);
    await page.goto(`/my-games/versions/add?userGameId=${demoGame.id}&gameId=${game.id}`);
    await expect(content(page).getByText(versionRuleMessages.demo, { exact: true })).toBeVisible();
    await expect(saveButton(page)).toHaveCount(0);

    // No parameters: which game is missing, not "not assigned to you"; a way back to My Games.
    for (const route of [
      '/my-games/versions',
      '/my-games/versions/add',
      '/my-games/versions/workbench',
      '/my-games/demo',
    ]) {
      await openWithToken(page, user.token, route);
      await expect(
        content(page).getByText('No game is chosen: open one of your games from My Games.'),
        route,
      ).toBeVisible();
      await expect(content(page)).not.toContainText('not assigned to you');
      await expect(content(page).getByRole('link', { name: 'My Games', exact: true }), route).toBeVisible();
    }
  });
});

test.describe('demo play', () => {
  it('[DEM-1] demo play: tabs Back (to my-games), Play Original (default) and Play Skeleton in a frame of width+50 by height+50', async ({
    page,
    api,
    makeUser,
    assign,
  }) => {
    const demo = await makeUser(RoleType.Demo);
    const game = await sampleGame(api);
    const userGame = await assign(demo, game.id);

    await openWithToken(page, demo.token, '/my-games');
    await gameCard(page, sampleGameName).getByRole('link', { name: sampleGameName }).click();
    await expect(page).toHaveURL(new RegExp(`/my-games/demo\\?gameId=${game.id}&userGameId=${userGame.id}$`));
    await expect(backLink(page)).toBeVisible();
    await expect(page.getByRole('tab')).toHaveText(['Play Original', 'Play Skeleton']);
    await expect(tab(page, 'Play Original')).toHaveAttribute('aria-selected', 'true');
    await expect(tab(page, 'Play Skeleton')).toHaveAttribute('aria-selected', 'false');

    const frame = page.locator('iframe');
    const checkFrame = async (title: string) => {
      await expect(frame).toHaveAttribute('title', `${sampleGameName}: ${title}`);
      await expect(frame).toHaveAttribute('width', String(game.width + 50));
      await expect(frame).toHaveAttribute('height', String(game.height + 50));
      const box = await frame.boundingBox();
      expect(Math.round(box?.width ?? 0)).toBe(game.width + 50);
      expect(Math.round(box?.height ?? 0)).toBe(game.height + 50);
      // The game really runs in it, and has the keyboard once loaded.
      await expect(page.frameLocator('iframe').locator('canvas')).toBeVisible();
      await expect.poll(() => activeTag(page), { message: 'the frame is focused on load' }).toBe('IFRAME');
    };

    // Play Original: the watermarked original (a demo user never receives the unwatermarked one).
    await checkFrame('Play Original');
    const original = await playSrc(page, sampleIndex);
    expect(original.view).toBe('watermark');

    await tab(page, 'Play Skeleton').click();
    await expect(tab(page, 'Play Skeleton')).toHaveAttribute('aria-selected', 'true');
    await expect(tab(page, 'Play Original')).toHaveAttribute('aria-selected', 'false');
    await expect(frame).not.toHaveAttribute('src', original.src);
    await checkFrame('Play Skeleton');
    const skeleton = await playSrc(page, sampleIndex);
    expect(skeleton.view).toBe('skeleton');

    await tab(page, 'Play Original').click();
    await expect(tab(page, 'Play Original')).toHaveAttribute('aria-selected', 'true');
    await expect(frame).not.toHaveAttribute('src', skeleton.src);
    await checkFrame('Play Original');
    expect((await playSrc(page, sampleIndex)).view).toBe('watermark');

    // Keyboard: Back and the selected tab are in the tab order; the arrow keys switch the view.
    await tab(page, 'Play Original').focus();
    await page.keyboard.press('Shift+Tab');
    await expect(backLink(page)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(tab(page, 'Play Original')).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(tab(page, 'Play Skeleton')).toHaveAttribute('aria-selected', 'true');
    await expect(frame).toHaveAttribute('title', `${sampleGameName}: Play Skeleton`);
    await expect.poll(() => activeTag(page)).toBe('IFRAME'); // the new view loaded and took the keyboard
    await tab(page, 'Play Skeleton').focus();
    await page.keyboard.press('ArrowLeft');
    await expect(tab(page, 'Play Original')).toHaveAttribute('aria-selected', 'true');
    await expect(frame).toHaveAttribute('title', `${sampleGameName}: Play Original`);

    await backLink(page).click();
    await expect(page).toHaveURL(/\/my-games$/);
    await expect(gameCard(page, sampleGameName)).toBeVisible();
  });
});

test.describe('my-games routes', () => {
  it('[RT-3] anonymous visitors of my-games and every my-games route go to login', async ({ page }) => {
    const routes = [
      '/my-games',
      '/my-games/versions?userGameId=1',
      '/my-games/versions/add',
      '/my-games/versions/add?userGameId=1&gameId=1',
      '/my-games/versions/workbench',
      '/my-games/versions/workbench?versionId=1&gameId=1&userGameId=1',
      '/my-games/versions/play',
      '/my-games/demo',
      '/my-games/demo?gameId=1&userGameId=1',
    ];
    for (const route of routes) {
      await page.goto(route);
      await expect(page, route).toHaveURL(/\/login$/);
      await expect(page.getByRole('button', { name: 'Login', exact: true }), route).toBeVisible();
    }
  });

  it('[RT-7] a demo user choosing a game goes to my-games/demo, a regular user to my-games/versions', async ({
    page,
    api,
    makeUser,
    assign,
  }) => {
    const game = await sampleGame(api);
    const demo = await makeUser(RoleType.Demo);
    const regular = await makeUser();
    const demoGame = await assign(demo, game.id);
    const regularGame = await assign(regular, game.id);

    await openWithToken(page, demo.token, '/my-games');
    await gameCard(page, sampleGameName).getByRole('link', { name: sampleGameName }).click();
    await expect(page).toHaveURL(new RegExp(`/my-games/demo\\?gameId=${game.id}&userGameId=${demoGame.id}$`));
    await expect(tab(page, 'Play Original')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('link', { name: 'Add New Version' })).toHaveCount(0);

    await openWithToken(page, regular.token, '/my-games');
    await gameCard(page, sampleGameName).getByRole('link', { name: sampleGameName }).click();
    await expect(page).toHaveURL(
      new RegExp(`/my-games/versions\\?gameId=${game.id}&userGameId=${regularGame.id}$`),
    );
    await expect(page.getByRole('heading', { name: `${sampleGameName}: versions` })).toBeVisible();
    await expect(addNewVersion(page)).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Play Original' })).toHaveCount(0);
  });

  it('[RT-8] versions, add/edit, workbench, play and demo still work after a reload and from a pasted URL in a fresh page', async ({
    page,
    api,
    browser,
    baseURL,
    makeUser,
    assign,
  }) => {
    // Six screens, each checked three times (as reached, after a reload, in a fresh page): minutes on a loaded CI machine.
    test.setTimeout(240_000);
    const game = await sampleGame(api);
    const user = await makeUser();
    const demo = await makeUser(RoleType.Demo);
    const userGame = await assign(user, game.id);
    await assign(demo, game.id);
    const version = await createVersion(api, user.token, userGame, 'Reload proof', 'Survives a reload');

    /** Checks the screen, reloads and checks again, then pastes the URL into a fresh page and checks there. */
    const survives = async (token: string, check: (p: Page) => Promise<void>) => {
      const url = page.url();
      await check(page);
      await page.reload();
      await expect(page).toHaveURL(url);
      await check(page);
      await pasteInFreshPage(browser, baseURL, token, url, check);
    };

    const versionsScreen = async (p: Page) => {
      await expect(p.getByRole('heading', { name: `${sampleGameName}: versions` })).toBeVisible();
      await expect(versionCard(p, version.name)).toContainText(version.description);
      await expect(addNewVersion(p)).toBeVisible();
    };
    const addScreen = async (p: Page) => {
      await expect(p.getByRole('heading', { name: `Add Version of ${sampleGameName}` })).toBeVisible();
      await expect(nameField(p)).toHaveValue('');
      await expect(saveButton(p)).toBeDisabled();
    };
    const editScreen = async (p: Page) => {
      await expect(p.getByRole('heading', { name: `Edit Version of ${sampleGameName}` })).toBeVisible();
      await expect(nameField(p)).toHaveValue(version.name);
      await expect(descriptionField(p)).toHaveValue(version.description);
      await expect(saveButton(p)).toBeEnabled();
    };
    const workbenchScreen = async (p: Page) => {
      await expect(p.getByRole('heading', { name: `${sampleGameName}: ${version.name}` })).toBeVisible();
      await expect(tab(p, 'Files')).toHaveAttribute('aria-selected', 'true');
      await expect(p.getByText(/cannot be opened/)).toHaveCount(0);
    };
    const playScreen = async (p: Page) => {
      await expect(p.getByRole('heading', { name: `${sampleGameName}: ${version.name}` })).toBeVisible();
      await expect(tab(p, 'Play Your Version')).toHaveAttribute('aria-selected', 'true');
      await expect(p.locator('iframe')).toHaveAttribute('title', `${sampleGameName}: Play Your Version`);
      expect((await playSrc(p, sampleIndex)).view).toBe('version');
    };
    const demoScreen = async (p: Page) => {
      await expect(tab(p, 'Play Original')).toHaveAttribute('aria-selected', 'true');
      await expect(p.locator('iframe')).toHaveAttribute('title', `${sampleGameName}: Play Original`);
      expect((await playSrc(p, sampleIndex)).view).toBe('watermark');
    };

    // Every stop is reached by clicking through the app, so the URLs are the ones it makes.
    await openWithToken(page, user.token, '/my-games');
    await gameCard(page, sampleGameName).getByRole('link', { name: sampleGameName }).click();
    await expect(page).toHaveURL(versionsUrl(userGame));
    await survives(user.token, versionsScreen);

    await addNewVersion(page).click();
    await expect(page).toHaveURL(/\/my-games\/versions\/add\?/);
    await survives(user.token, addScreen);

    await page.getByRole('link', { name: 'Cancel', exact: true }).click();
    await expect(page).toHaveURL(versionsUrl(userGame));
    await versionCard(page, version.name).getByRole('link', { name: 'Edit', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/my-games/versions/add\\?versionId=${version.id}&`));
    await survives(user.token, editScreen);

    await page.getByRole('link', { name: 'Cancel', exact: true }).click();
    await versionCard(page, version.name).getByRole('link', { name: 'Open', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/my-games/versions/workbench\\?versionId=${version.id}&`));
    await survives(user.token, workbenchScreen);

    await workbenchBack(page).click();
    await expect(page).toHaveURL(versionsUrl(userGame));
    await versionCard(page, version.name).getByRole('link', { name: 'Play', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/my-games/versions/play\\?versionId=${version.id}&`));
    await survives(user.token, playScreen);

    await openWithToken(page, demo.token, '/my-games');
    await gameCard(page, sampleGameName).getByRole('link', { name: sampleGameName }).click();
    await expect(page).toHaveURL(/\/my-games\/demo\?/);
    await survives(demo.token, demoScreen);
  });
});

/** Opens `url` in a new browser context (its own storage) already holding `token`, as a pasted link would. */
async function pasteInFreshPage(
  browser: Browser,
  baseURL: string | undefined,
  token: string,
  url: string,
  check: (p: Page) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext({ baseURL });
  try {
    const fresh = await context.newPage();
    await openWithToken(fresh, token, url);
    await expect(fresh).toHaveURL(url);
    await check(fresh);
  } finally {
    await context.close();
  }
}
