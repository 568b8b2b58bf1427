import { limits } from '@reskin/contract';
import { test, expect, filesOf, errorToast, openWithToken, png, readyGame } from '../fixtures/games';
import { createUserGame, createVersion, deleteUserGame } from '../fixtures/versions';
import { workbenchUrl } from '../fixtures/workbench';

/** Enough images that their cards are many screens high (rows of three cards of about 470 px). */
const extraImages = 60;

test.describe('the virtualised workbench (decision 0041)', () => {
  test('a bigger game: only the cards in view are in the page, scrolling reaches the last one with the notes asked for once (every page of them), and an inbox link scrolls to its card and opens its notes', async ({
    page,
    api,
    makeGame,
    makeUser,
  }) => {
    const game = await makeGame();
    const pictures = Array.from({ length: extraImages }, (_, index) => ({
      path: `tiny/img/pic-${String(index).padStart(2, '0')}.png`,
      mimeType: 'image/png',
      buffer: png(40, 30, index + 1),
    }));
    await readyGame(api, game, pictures);

    const owner = await makeUser();
    const userGame = await createUserGame(api, { userId: owner.id, gameId: game.id });
    try {
      const version = await createVersion(api, owner.token, userGame, 'A big version');
      const images = (await filesOf(api, game.id))
        .filter((file) => file.contentType.startsWith('image/'))
        .sort((a, b) => a.path.localeCompare(b.path));
      expect(images).toHaveLength(extraImages + 1);
      const first = images[0]!;
      const last = images[images.length - 1]!;
      const card = (path: string) => page.getByRole('region', { name: path, exact: true });

      // More notes than one answer holds (limits.review.notesListMax): a thousand on the first file, then two on the
      // last, which only the second page brings.
      const admin = await api.asAdmin();
      const texts = Array.from({ length: limits.review.notesListMax }, (_, index) => `Note ${index + 1}`);
      for (let start = 0; start < texts.length; start += 25) {
        await Promise.all(
          texts.slice(start, start + 25).map(async (text) => {
            const written = await api.post(
              `/game-versions/${version.id}/notes`,
              { text, fileId: first.fileId },
              admin,
            );
            expect(written.status(), await written.text()).toBe(201);
          }),
        );
      }
      for (const text of ['Too pale.', 'Outline missing.']) {
        const written = await api.post(
          `/game-versions/${version.id}/notes`,
          { text, fileId: last.fileId },
          admin,
        );
        expect(written.status(), await written.text()).toBe(201);
      }
      const notesAsked: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === `/api/game-versions/${version.id}/notes`)
          notesAsked.push(request.url());
      });

      await openWithToken(page, owner.token, workbenchUrl(version));
      await expect(card(first.path)).toBeVisible();
      const mounted = await page.getByRole('tabpanel').getByRole('region').count();
      expect(mounted).toBeGreaterThan(0);
      expect(mounted).toBeLessThan(images.length);
      await expect(card(last.path)).toHaveCount(0);

      // The card's pictures load lazily, with the image's size known before they arrive.
      const original = card(first.path).getByRole('img', { name: `Original ${first.path}`, exact: true });
      await expect(original).toHaveAttribute('loading', 'lazy');
      await expect(original).toHaveAttribute('decoding', 'async');
      await expect(original).toHaveAttribute('width', '40');
      await expect(original).toHaveAttribute('height', '30');

      // Scrolled down as a person would, the last card comes into the page and the first leaves it.
      await expect(async () => {
        await page.mouse.wheel(0, 3000);
        await expect(card(last.path)).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 30_000 });
      await expect(card(first.path)).toHaveCount(0);
      // Every note reached the screen, and the cards mounted on the way asked for none: one page, then the short last.
      await expect(
        card(last.path).getByRole('button', { name: `Notes 2 open on ${last.path}`, exact: true }),
      ).toBeVisible();
      expect(notesAsked.map((url) => new URL(url).searchParams.get('after'))).toEqual([
        '0',
        expect.stringMatching(/^\d+$/),
      ]);

      // A link from the inbox to the last file: its card is scrolled to and its notes open, once.
      await openWithToken(page, owner.token, `${workbenchUrl(version)}&fileId=${last.fileId}`);
      const notes = page.getByRole('dialog', { name: `Notes on ${last.path}` });
      await expect(notes).toBeVisible();
      await notes.getByRole('button', { name: 'Close' }).click();
      await expect(notes).toHaveCount(0);
      await expect(card(last.path)).toBeInViewport();
      // Scrolled away (the card leaves the page) and back (it is mounted again): the notes stay closed.
      await expect(async () => {
        await page.mouse.wheel(0, -3000);
        await expect(card(first.path)).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 30_000 });
      await expect(card(last.path)).toHaveCount(0);
      await expect(async () => {
        await page.mouse.wheel(0, 3000);
        await expect(card(last.path)).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 30_000 });
      await expect(notes).toHaveCount(0);
    } finally {
      await deleteUserGame(api, userGame.id);
    }
  });
  test("the files are asked for with the link's ids at once; a link to another artist's version says it cannot be opened, with no error toast", async ({
    page,
    api,
    makeGame,
    makeUser,
  }) => {
    const game = await makeGame();
    await readyGame(api, game);
    const owner = await makeUser();
    const other = await makeUser();
    const userGame = await createUserGame(api, { userId: owner.id, gameId: game.id });
    try {
      const version = await createVersion(api, owner.token, userGame, 'Not yours');
      // The owner's page: the files' request is sent before the assignments' answer has arrived (not after it).
      // Events in the order Playwright saw them, no clock.
      const events: string[] = [];
      const files = `/api/games/${game.id}/files`;
      page.on('request', (request) => events.push(`sent ${new URL(request.url()).pathname}`));
      page.on('requestfinished', (request) => events.push(`done ${new URL(request.url()).pathname}`));
      await openWithToken(page, owner.token, workbenchUrl(version));
      await expect(page.getByRole('region').first()).toBeVisible();
      expect(events).toContain(`sent ${files}`);
      expect(events).toContain('done /api/user-games/my-games');
      expect(events.indexOf(`sent ${files}`)).toBeLessThan(events.indexOf('done /api/user-games/my-games'));

      // Another artist with the same link: the page says so, and the refused reads show no error toast.
      const refused = page.waitForResponse((response) => new URL(response.url()).pathname === files);
      await openWithToken(page, other.token, workbenchUrl(version));
      expect((await refused).status()).toBeGreaterThanOrEqual(400);
      await expect(
        page.getByText('This version cannot be opened: it is not one of your versions.'),
      ).toBeVisible();
      await expect(errorToast(page, /./)).toHaveCount(0);
    } finally {
      await deleteUserGame(api, userGame.id);
    }
  });
});
