import { limits } from '@reskin/contract';
import { test, expect, filesOf, openWithToken, png, readyGame } from '../fixtures/games';
import { createUserGame, createVersion, deleteUserGame } from '../fixtures/versions';
import { workbenchUrl } from '../fixtures/workbench';

/** More images than the first page holds, so the last ones come only with the rest. */
const imageCount = limits.filePages.firstPage + 20;

test.describe('the workbench reads its lists first page first (decision 0063)', () => {
  test('a game of more files than the first page: the first page is asked first, every card is reached by scrolling, and a reopened workbench revalidates its lists (304)', async ({
    page,
    api,
    makeGame,
    makeUser,
  }) => {
    test.slow();
    const game = await makeGame();
    const pictures = Array.from({ length: imageCount }, (_, index) => ({
      path: `tiny/img/pic-${String(index).padStart(3, '0')}.png`,
      mimeType: 'image/png',
      buffer: png(24, 16, index + 1),
    }));
    await readyGame(api, game, pictures);

    const owner = await makeUser();
    const userGame = await createUserGame(api, { userId: owner.id, gameId: game.id });
    try {
      const version = await createVersion(api, owner.token, userGame, 'Paged');
      const images = (await filesOf(api, game.id))
        .filter((file) => file.contentType.startsWith('image/'))
        .map((file) => file.path)
        .sort();
      expect(images).toHaveLength(imageCount + 1);
      const lists = [`/api/games/${game.id}/files`, `/api/games/${game.id}/usage`];
      const asked: { id: string; list: string; query: string }[] = [];
      // The server's own status of each answer (the DevTools protocol's raw one): the page, and Playwright, see a
      // revalidated answer as the 200 it confirms.
      const statuses = new Map<string, number>();
      const devtools = await page.context().newCDPSession(page);
      await devtools.send('Network.enable');
      devtools.on('Network.requestWillBeSent', (event) => {
        const url = new URL(event.request.url);
        if (lists.includes(url.pathname))
          asked.push({ id: event.requestId, list: url.pathname, query: url.search });
      });
      devtools.on('Network.responseReceivedExtraInfo', (event) =>
        statuses.set(event.requestId, event.statusCode),
      );

      await openWithToken(page, owner.token, workbenchUrl(version));
      const panel = page.getByRole('tabpanel');
      await expect(panel.getByRole('region', { name: images[0], exact: true })).toBeVisible();
      // Once the rest has come, the usage filter counts every image.
      await expect(page.getByRole('combobox', { name: 'Usage in play' })).toContainText(
        `All files (${images.length})`,
      );
      for (const list of lists) {
        expect(asked.filter((answer) => answer.list === list).map((answer) => answer.query)).toEqual([
          `?limit=${limits.filePages.firstPage}`,
          expect.stringMatching(/^\?after=/),
        ]);
      }

      // Scrolled through as a person would, every image's card comes into the page (the cards are the regions that
      // carry a file id).
      const seen = new Set<string>();
      await expect(async () => {
        for (const name of await panel
          .locator('[role="region"][data-file-id]')
          .evaluateAll((cards) => cards.map((card) => card.getAttribute('aria-label') ?? '')))
          seen.add(name);
        await page.mouse.wheel(0, 600);
        expect(images.filter((path) => !seen.has(path))).toEqual([]);
      }).toPass({ timeout: 60_000 });

      // Opened again in the same browser: each list is revalidated, and nothing has changed.
      asked.length = 0;
      await openWithToken(page, owner.token, workbenchUrl(version));
      await expect(page.getByRole('combobox', { name: 'Usage in play' })).toContainText(
        `All files (${images.length})`,
      );
      expect(asked.length).toBeGreaterThanOrEqual(4);
      await expect.poll(() => asked.map((answer) => statuses.get(answer.id))).toEqual(asked.map(() => 304));
    } finally {
      await deleteUserGame(api, userGame.id);
    }
  });
});
