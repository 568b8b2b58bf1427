import type { Page } from '@playwright/test';
import { versionRuleMessages, type GameVersion, type UserGame } from '@reskin/contract';
import { test, expect, content, openWithToken, type Api, type TestUser } from '../fixtures/games';
import { createUserGame, createVersion, deleteUserGame, sampleGame } from '../fixtures/versions';
import { dropAreas, toggleLock, workbenchUrl } from '../fixtures/workbench';

/**
 * Version rules: a version the reviewer locked or disabled is read-only for its artist, and the
 * artist sees why: a badge on the versions screen and the workbench, no Edit or Delete, no drop area that
 * takes a file, no 'I Finished My Game', and the reason (versionRuleMessages) where the controls were.
 */
const it = test.extend<{ owner: TestUser; userGame: UserGame }>({
  owner: async ({ makeUser }, use) => {
    await use(await makeUser());
  },
  userGame: async ({ api, owner }, use) => {
    const star = await sampleGame(api);
    const userGame = await createUserGame(api, { userId: owner.id, gameId: star.id });
    await use(userGame);
    await deleteUserGame(api, userGame.id);
  },
});

/** Enable / Disable as the seeded admin (DELETE /game-versions/{id}/changeActivity). */
async function toggleActivity(api: Api, versionId: number): Promise<void> {
  const response = await api.delete(`/game-versions/${versionId}/changeActivity`, await api.asAdmin());
  expect(response.status(), `activity ${versionId}: ${await response.text()}`).toBe(200);
}

const versionCard = (page: Page, name: string) => content(page).getByRole('region', { name, exact: true });

/** The artist's versions screen, the workbench and the edit form of a version the reviewer froze. */
async function expectReadOnly(
  page: Page,
  owner: TestUser,
  userGame: UserGame,
  frozen: GameVersion,
  badge: string,
  reason: string,
) {
  await openWithToken(page, owner.token, `/my-games/versions?userGameId=${userGame.id}`);
  const card = versionCard(page, frozen.name);
  await expect(card.getByText(badge, { exact: true })).toBeVisible();
  await expect(card).toContainText(reason);
  await expect(card.getByRole('link', { name: 'Edit', exact: true })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
  // Opening and playing it still work.
  await expect(card.getByRole('link', { name: 'Open', exact: true })).toBeVisible();
  await expect(card.getByRole('link', { name: 'Play', exact: true })).toBeVisible();

  // The workbench: the badge and the reason; every drop area disabled with it; no Restore, no Finish.
  await openWithToken(page, owner.token, workbenchUrl(frozen));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(frozen.name);
  await expect(content(page).getByText(badge, { exact: true })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: reason }).first()).toBeVisible();
  const areas = dropAreas(page);
  await expect(areas.first()).toBeVisible();
  for (const area of await areas.all()) {
    await expect(area).toHaveAttribute('aria-disabled', 'true');
    await expect(area).toContainText(reason);
  }
  await expect(page.getByRole('button', { name: 'Restore original' })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Play Your Version', exact: true }).click();
  await expect(page.locator('iframe')).toBeVisible();
  await expect(page.getByRole('button', { name: 'I Finished My Game' })).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: reason })).toBeVisible();

  // A pasted edit link shows the reason instead of the form.
  await openWithToken(
    page,
    owner.token,
    `/my-games/versions/add?versionId=${frozen.id}&gameId=${frozen.gameId}&userGameId=${userGame.id}`,
  );
  await expect(content(page)).toContainText(reason);
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
}

test.describe('version rules: locked and disabled versions are read-only for their artist', () => {
  it('[API-7] a locked version shows the Locked badge and the reason, and offers no working change control', async ({
    page,
    api,
    owner,
    userGame,
  }) => {
    const open = await createVersion(api, owner.token, userGame, 'Still open');
    const locked = await createVersion(api, owner.token, userGame, 'Locked by reviewer');
    await toggleLock(api, locked.id);
    await expectReadOnly(page, owner, userGame, locked, 'Locked', versionRuleMessages.locked);

    // The other version keeps its controls and shows no badge.
    await openWithToken(page, owner.token, `/my-games/versions?userGameId=${userGame.id}`);
    const card = versionCard(page, open.name);
    await expect(card.getByRole('link', { name: 'Edit', exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
    await expect(card.getByText('Locked', { exact: true })).toHaveCount(0);
    await expect(card.getByText('Disabled', { exact: true })).toHaveCount(0);
  });

  it('[API-7] a disabled version shows the Disabled badge and is read-only; enabled again, its controls return', async ({
    page,
    api,
    owner,
    userGame,
  }) => {
    const disabled = await createVersion(api, owner.token, userGame, 'Disabled by reviewer');
    await toggleActivity(api, disabled.id);
    await expectReadOnly(page, owner, userGame, disabled, 'Disabled', versionRuleMessages.disabled);

    await toggleActivity(api, disabled.id);
    await openWithToken(page, owner.token, `/my-games/versions?userGameId=${userGame.id}`);
    const card = versionCard(page, disabled.name);
    await expect(card.getByRole('link', { name: 'Edit', exact: true })).toBeVisible();
    await expect(card.getByText('Disabled', { exact: true })).toHaveCount(0);
    await expect(card).not.toContainText(versionRuleMessages.disabled);
  });
});
