import { GameStatus, type GamePath } from '@reskin/contract';
import { test, expect, fileByPath, markIndex, uploadFiles, waitForStatus } from '../fixtures/games';

/**
 * An SVG that the old upload check let through (a script under a prefix bound to the SVG namespace, an
 * onload handler) opened by URL on the play origin, as the admin's version-files screen used to open artists'
 * files in a new tab. The play origin now answers every SVG with a policy of its own that allows no script, so
 * nothing in it runs and it fetches nothing.
 *
 * Artists' uploads now refuse such a file, so it is placed the way that still can: an admin's game upload, whose
 * files are not checked (the admin uploads the game's own scripts anyway, decision 0006). The original view serves
 * it exactly as stored, as a version's view serves an artist's replacement; the headers are the same in every view
 * (apps/server/test/file-kinds.test.ts checks each).
 */

const beacon = 'svg-beacon';
const unsafeSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" viewBox="0 0 40 30"
  onload="document.documentElement.setAttribute('data-ran', 'onload'); fetch('${beacon}-onload')">
  <title>harmless drawing</title>
  <rect width="40" height="30" fill="#3a7"/>
  <image href="${beacon}-image.png" width="1" height="1"/>
  <a.b:script xmlns:a.b="http://www.w3.org/2000/svg">
    document.documentElement.setAttribute('data-ran', 'script');
    document.title = 'script ran';
    fetch('${beacon}-script');
  </a.b:script>
</svg>`;

test.describe('artist SVGs on the play origin', () => {
  test('an SVG with a script, opened by URL on the play origin, runs nothing and fetches nothing', async ({
    page,
    api,
    makeGame,
    cspViolations,
  }) => {
    const game = await makeGame();
    await uploadFiles(api, game.id, [
      {
        path: 'svgtest/index.html',
        mimeType: 'text/html',
        buffer: Buffer.from('<!doctype html><title>svg test</title>'),
      },
      { path: 'svgtest/drawing.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(unsafeSvg) },
    ]);
    await markIndex(api, game.id, (await fileByPath(api, game.id, 'svgtest/index.html')).fileId);
    const generated = await api.get(`/games/${game.id}/generate`, await api.asAdmin());
    expect(generated.status(), await generated.text()).toBe(200);
    await waitForStatus(api, game.id, GameStatus.Ready);
    const paths = (await (await api.get(`/games/${game.id}/path/`, await api.asAdmin())).json()) as GamePath;
    const url = paths.orjFile.replace(/index\.html$/, 'drawing.svg');

    // What reached a server: a request the policy blocks gets no response.
    const beacons: string[] = [];
    page.on('response', (answer) => {
      if (answer.url().includes(beacon)) beacons.push(answer.url());
    });

    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
    );
    // The drawing is there, as an SVG document of its own...
    await expect.poll(() => page.evaluate(() => document.documentElement.localName)).toBe('svg');
    expect(await page.evaluate(() => document.documentElement.namespaceURI)).toBe(
      'http://www.w3.org/2000/svg',
    );
    // ...and the browser reported refusing what it holds: the script, the handler and the image.
    await expect.poll(() => cspViolations.length, { message: 'the browser reports what it blocked' }).toBe(3);
    expect(cspViolations.join('\n')).toContain('Executing inline script violates');
    expect(cspViolations.join('\n')).toContain('Executing inline event handler violates');
    expect(cspViolations.join('\n')).toContain(`${beacon}-image.png' violates`);
    // Nothing ran: the document is untouched and nothing was fetched.
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-ran'))).toBeNull();
    expect(await page.title()).toBe('harmless drawing');
    expect(beacons).toEqual([]);
    // These reports are this test's evidence, not a fault of the app's own pages (the fixture fails on any).
    cspViolations.splice(0);
  });
});
