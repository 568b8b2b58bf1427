import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { RoleType, type Game, type User } from '@reskin/contract';
import {
  test,
  expect,
  Api,
  cardTitle,
  createGame,
  deleteGame,
  gameRow,
  newSignupBody,
  openWithToken,
  type TestUser,
} from '../fixtures/games';

/**
 * The admin lists at scale: past 100 rows every user and game stays reachable, by search and by
 * paging, and the card titles give the true totals. The rows are seeded once, through the API, under names
 * of this run only; the other tests find their own rows by searching, so these extra rows do not disturb them.
 */
const run = randomBytes(3).toString('hex');
const userCount = 150;
const gameCount = 120;
const seededGameName = 'Star Catcher';

/** The n-th seeded user's name (1-based, zero-padded so no name contains another). */
const bulkUsername = (n: number) => `bulk${run}-${String(n).padStart(3, '0')}`;
const bulkGamePrefix = `bulk game ${run}`;
const bulkGameName = (n: number) => `${bulkGamePrefix} ${String(n).padStart(3, '0')}`;

const users: User[] = [];
const games: Game[] = [];

/** Runs `task` on every item, `size` of them at a time. */
async function inBatches<T, R>(items: T[], size: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size)
    results.push(...(await Promise.all(items.slice(i, i + size).map(task))));
  return results;
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({
    baseURL: `http://127.0.0.1:${process.env.E2E_PORT}`,
  });
  const api = new Api(request);
  const token = await api.asAdmin();
  const addUser = async (n: number) => {
    // POST /user/create: the admin's add user, not counted against the public signup limit.
    const response = await api.post('/user/create', newSignupBody({ username: bulkUsername(n) }), token);
    expect(response.status(), `create ${bulkUsername(n)}: ${await response.text()}`).toBe(201);
    return (await response.json()) as User;
  };
  const numbers = (count: number) => Array.from({ length: count }, (_, i) => i + 1);
  // A few at a time: each new user costs the server a password hash, and the other tests' logins wait behind them.
  const [addedUsers, addedGames] = await Promise.all([
    inBatches(numbers(userCount), 4, addUser),
    inBatches(numbers(gameCount), 10, (n) => createGame(api, { name: bulkGameName(n) })),
  ]);
  users.push(...addedUsers);
  games.push(...addedGames);
  await request.dispose();
});

test.afterAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({
    baseURL: `http://127.0.0.1:${process.env.E2E_PORT}`,
  });
  const api = new Api(request);
  await api.asAdmin(); // once, before the deletes run in parallel
  await Promise.all([
    ...users.map((user) => api.deleteUser(user.id)),
    ...games.map((game) => deleteGame(api, game.id)),
  ]);
  await request.dispose();
});

const search = (page: Page, label: string) => page.getByRole('searchbox', { name: label });
const pageLabel = (page: Page) => page.getByText(/^Page \d+ of \d+$/);
/** Waits until the list shows the answer to its current search, sort and page (it is aria-busy until then). */
const settled = (page: Page) =>
  expect(page.locator('.card-body[aria-busy]').first()).toHaveAttribute('aria-busy', 'false');
const userRow = (page: Page, username: string) =>
  page.getByRole('row').filter({ has: page.getByRole('cell', { name: username, exact: true }) });

/** The number in a card title such as 'Registered users (153)', once the list has loaded. */
async function titleCount(page: Page, title: RegExp): Promise<number> {
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await settled(page);
  const text = await cardTitle(page, title).innerText();
  return Number(text.match(/\((\d+)\)/)?.[1]);
}

/** Every name in the first column the pager's pages show, turning pages with Next from page 1 to the last. */
async function namesOnAllPages(page: Page, column: number): Promise<string[]> {
  const names: string[] = [];
  const [, pageCount] = ((await pageLabel(page).innerText()).match(/of (\d+)/) ?? []).map(Number);
  for (let n = 1; n <= (pageCount ?? 1); n += 1) {
    await expect(pageLabel(page)).toHaveText(`Page ${n} of ${pageCount}`);
    await settled(page);
    names.push(...(await page.locator(`tbody tr td:nth-child(${column})`).allInnerTexts()));
    if (n < (pageCount ?? 1)) await page.getByRole('button', { name: 'Next' }).click();
  }
  return names;
}

test.describe('admin lists at scale', () => {
  let admin: TestUser;
  test.beforeEach(async ({ makeUser }) => {
    admin = await makeUser(RoleType.Admin);
  });

  test('[ADM-1] 150+ users: the title has the true total, and user number 150 is found by searching and by paging', async ({
    page,
  }) => {
    const target = bulkUsername(userCount);
    await openWithToken(page, admin.token, '/admin');
    const total = await titleCount(page, /^\s*Registered users \(\d+\)\s*$/);
    // The seeded accounts, this run's 150, and this test's admin at least.
    expect(total).toBeGreaterThan(userCount + 3);
    await expect(page.getByText(`${total} items`, { exact: true })).toBeVisible();
    await expect(page.locator('tbody tr')).toHaveCount(25);

    // By searching.
    await search(page, 'Search by username or email').fill(target);
    await expect(cardTitle(page, 'Registered users (1)')).toBeVisible();
    await expect(userRow(page, target)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`[?&]q=${target}`));

    // By paging: from page 1, Next until the page that holds it (oldest first; other tests add and remove users
    // meanwhile, so the page is looked for rather than computed).
    await search(page, 'Search by username or email').fill('');
    // The search applies after a pause: until then the one matching row is still shown (and would be "found").
    await expect(page).not.toHaveURL(/[?&]q=/);
    await expect(pageLabel(page)).toHaveText(/^Page 1 of ([2-9]|\d{2,})$/);
    for (let turns = 0; ; turns += 1) {
      await settled(page);
      if (await userRow(page, target).isVisible()) break;
      expect(turns, `${target} on no page`).toBeLessThan(50);
      await page.getByRole('button', { name: 'Next' }).click();
    }
    await expect(userRow(page, target)).toBeVisible();
    // The page stays on reload: the same page number, with its rows. (Not necessarily the same rows: a test that
    // deletes an older user meanwhile moves every later one up a place, and the target may cross to the page before.)
    const url = page.url();
    const pageNumber = /^Page (\d+) of/.exec((await pageLabel(page).textContent()) ?? '')?.[1];
    await page.reload();
    await expect(pageLabel(page)).toHaveText(new RegExp(`^Page ${pageNumber} of \\d+$`));
    await settled(page);
    await expect(page.locator('tbody tr').first()).toBeVisible();
    expect(page.url()).toBe(url);
  });

  test('[ADM-1] every one of the 150 users is listed exactly once across the pages, at each page size', async ({
    page,
  }) => {
    const expected = Array.from({ length: userCount }, (_, i) => bulkUsername(i + 1));
    // A pasted link: this run's users, sorted by username.
    await openWithToken(page, admin.token, `/admin?q=bulk${run}-&sort=username.asc`);
    await expect(cardTitle(page, `Registered users (${userCount})`)).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Username' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await expect(pageLabel(page)).toHaveText('Page 1 of 6');
    expect(await namesOnAllPages(page, 1)).toEqual(expected);

    await page.getByLabel('Page size').selectOption('100');
    await expect(pageLabel(page)).toHaveText('Page 1 of 2');
    await expect(page.locator('tbody tr')).toHaveCount(100);
    expect(await namesOnAllPages(page, 1)).toEqual(expected);

    // A second click sorts descending: user 150 first.
    const header = page.getByRole('columnheader', { name: 'Username' });
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect(page.locator('tbody tr').first()).toContainText(bulkUsername(userCount));
  });

  test('[GAM-1] 120+ games: the seeded sample game is found by searching, and every game is on a page', async ({
    page,
  }) => {
    await openWithToken(page, admin.token, '/games');
    const total = await titleCount(page, /^\s*Games \(\d+\)\s*$/);
    expect(total).toBeGreaterThan(gameCount);
    await expect(page.getByText(`${total} items`, { exact: true })).toBeVisible();

    await search(page, 'Search by name').fill(seededGameName);
    await expect(cardTitle(page, 'Games (1)')).toBeVisible();
    await expect(gameRow(page, seededGameName)).toBeVisible();
    await search(page, 'Search by name').fill(`${seededGameName} no such`);
    await expect(
      page.getByText(`No results for "${seededGameName} no such".`, { exact: true }),
    ).toBeVisible();

    // This run's games, newest first, 50 a page.
    await search(page, 'Search by name').fill(bulkGamePrefix);
    await expect(cardTitle(page, `Games (${gameCount})`)).toBeVisible();
    await page.getByLabel('Page size').selectOption('50');
    await expect(pageLabel(page)).toHaveText('Page 1 of 3');
    const names = await namesOnAllPages(page, 2);
    expect([...names].sort()).toEqual(Array.from({ length: gameCount }, (_, i) => bulkGameName(i + 1)));

    // Sorted by name, ascending: number 1 first.
    const header = page.getByRole('columnheader', { name: 'Name' });
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect(pageLabel(page)).toHaveText('Page 1 of 3');
    await expect(page.locator('tbody tr').first()).toContainText(bulkGameName(1));
  });
});
