import { errorCodes, xsrf } from '@reskin/contract';
import { test, expect } from '../fixtures/games';
import type { Locator, Page } from '@playwright/test';

/** Errors the browser logs for anything the page's Content-Security-Policy blocked, and uncaught script errors. */
function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Uses the app first, as a person would, so the browser holds the XSRF-TOKEN cookie; then opens the API docs. */
async function openDocsAfterTheApp(page: Page): Promise<void> {
  await page.goto('/');
  await expect
    .poll(async () => (await page.context().cookies()).some((cookie) => cookie.name === xsrf.cookie))
    .toBe(true);
  await page.goto('/api/docs');
}

/** One operation of Swagger UI, opened, with "Try it out" switched on. */
async function tryOperation(page: Page, method: string, path: string): Promise<Locator> {
  const operation = page
    .locator(`.opblock-${method.toLowerCase()}`)
    .filter({ has: page.locator(`[data-path="${path}"]`) });
  await operation.locator('.opblock-summary').click();
  await operation.getByRole('button', { name: 'Try it out' }).click();
  return operation;
}

async function execute(operation: Locator): Promise<{ status: Locator; body: Locator }> {
  await operation.getByRole('button', { name: 'Execute' }).click();
  const response = operation.locator('.live-responses-table tbody .response');
  return { status: response.locator('.response-col_status'), body: response.locator('.microlight').first() };
}

/** The "Authorize" dialog with the bearer scheme: every operation that needs the token then sends it. */
async function authorize(page: Page, token: string): Promise<void> {
  await page.locator('.scheme-container').getByRole('button', { name: 'Authorize' }).click();
  const dialog = page.locator('.dialog-ux');
  await dialog.getByRole('textbox').fill(token);
  await dialog.getByRole('button', { name: 'Apply credentials' }).click();
  await dialog.getByRole('button', { name: 'Close' }).click();
}

test.describe('API docs', () => {
  // Swagger UI renders the whole document in the browser, and each opened operation lists all its answers.
  test.beforeEach(() => test.setTimeout(90_000));

  test('[API-1] after using the app, Try it out answers as the API does: 401 for a wrong password, and POST and DELETE with the bearer token pass the XSRF check', async ({
    page,
    makeUser,
  }) => {
    const pageErrors = watchPageErrors(page);
    const user = await makeUser();
    await openDocsAfterTheApp(page);

    const login = await tryOperation(page, 'POST', '/api/user/login');
    await login
      .locator('textarea.body-param__text')
      .fill(JSON.stringify({ email: user.email, password: 'wrong-password' }));
    const failed = await execute(login);
    await expect(failed.status).toHaveText('401');
    await expect(failed.body).toContainText(errorCodes.invalidCredentials);

    await authorize(page, user.token);
    const me = await execute(await tryOperation(page, 'GET', '/api/user/me'));
    await expect(me.status).toHaveText('200');
    await expect(me.body).toContainText(user.username);
    const disable = await execute(await tryOperation(page, 'DELETE', '/api/user/disable'));
    await expect(disable.status).toHaveText('204');

    expect(pageErrors).toEqual([]);
  });

  test('[API-5] Try it out uploads a helper file as multipart/form-data, its fullPath before the file', async ({
    page,
    api,
    makeGame,
  }) => {
    const pageErrors = watchPageErrors(page);
    const game = await makeGame();
    const adminToken = await api.asAdmin();
    await openDocsAfterTheApp(page);
    await authorize(page, adminToken);

    const upload = await tryOperation(page, 'POST', '/api/games/{id}/psd-files');
    await upload.locator('tr[data-param-name="id"] input').fill(String(game.id));
    const fullPath = upload.locator('tr[data-property-name="fullPath"] input[type="text"]');
    // Swagger UI puts in its example value first; typing before that would be overwritten.
    await expect(fullPath).toHaveValue('string');
    await fullPath.fill('guides/read-me.txt');
    await expect(fullPath).toHaveValue('guides/read-me.txt');
    await upload.locator('tr[data-property-name="file"] input[type="file"]').setInputFiles({
      name: 'read-me.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Replace the birds.'),
    });
    const uploaded = await execute(upload);
    await expect(uploaded.status).toHaveText('200');
    await expect(uploaded.body).toContainText('"uploaded": 1');

    const list = await api.get(`/games/${game.id}/psd-files`, adminToken);
    expect(JSON.stringify(await list.json())).toContain('guides/read-me.txt');
    expect(pageErrors).toEqual([]);
  });
});
