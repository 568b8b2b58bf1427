// Measures what Chromium lets a game in the play frame do under each play-origin design (decision 0017):
// `node scripts/measure-play-isolation.mjs [raw|playwright]`. raw: /usr/bin/chromium as a user starts it, over
// CDP; playwright: the same binary under Playwright's launcher (which turns third-party storage partitioning
// off). Two throwaway HTTP servers on 127.0.0.1:38100 (the app) and :38101 (the game page); other host names
// are mapped to 127.0.0.1 with --host-resolver-rules.
import http from 'node:http';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright';

const APP_PORT = 38100,
  PLAY_PORT = 38101;
const appServer = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/echo') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ cookie: req.headers.cookie ?? '', len: (req.headers.cookie ?? '').length }));
    return;
  }
  const play = url.searchParams.get('play');
  res.setHeader('set-cookie', [
    'XSRF-TOKEN=abc; Path=/; SameSite=Strict',
    'session=s1; Path=/; HttpOnly; SameSite=Strict',
    '__Host-x=1; Path=/; Secure',
  ]);
  res.setHeader('content-type', 'text/html');
  res.end(`<!doctype html><body><iframe id=f sandbox="allow-scripts allow-same-origin" src="${play}"></iframe><script>
    window.result = new Promise(r => addEventListener('message', e => r(e.data)));</script></body>`);
});
const playServer = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const parent = url.searchParams.get('parent') ?? '';
  res.setHeader('content-type', 'text/html');
  res.setHeader('content-security-policy', 'sandbox allow-scripts allow-same-origin');
  res.end(`<!doctype html><script>
  const out = { origin: location.origin };
  try { out.readCookie = document.cookie; } catch (e) { out.readCookie = 'ERR ' + e.name; }
  const big = 'x'.repeat(3500);
  const tries = ['plain=1', 'dom=1; domain=${parent}', 'ss=1; SameSite=None; Secure', 'part=1; SameSite=None; Secure; Partitioned'];
  for (let i = 0; i < 6; i++) tries.push('bomb' + i + '=' + big + '; domain=${parent}; path=/');
  try { for (const c of tries) document.cookie = c; out.cookieAfter = document.cookie.slice(0, 120); } catch (e) { out.cookieAfter = 'ERR ' + e.name; }
  try { const before = localStorage.getItem('k'); localStorage.setItem('k', location.host); out.localStorage = 'ok, before=' + before + ', now=' + localStorage.getItem('k'); } catch (e) { out.localStorage = 'ERR ' + e.name + ': ' + e.message.slice(0, 80); }
  try { sessionStorage.setItem('k', '1'); out.sessionStorage = 'ok'; } catch (e) { out.sessionStorage = 'ERR ' + e.name; }
  try { const r = indexedDB.open('t'); r.onsuccess = () => { out.indexedDB = 'ok'; parent.postMessage(out, '*'); }; r.onerror = () => { out.indexedDB = 'ERR'; parent.postMessage(out, '*'); }; } catch (e) { out.indexedDB = 'ERR ' + e.name; parent.postMessage(out, '*'); }
  </script>`);
});
await new Promise((r) => appServer.listen(APP_PORT, '127.0.0.1', r));
await new Promise((r) => playServer.listen(PLAY_PORT, '127.0.0.1', r));

const designs = [
  {
    name: 'today: same host, other port',
    app: 'localhost',
    play: ['localhost', 'localhost'],
    parent: 'localhost',
  },
  {
    name: 'separate site: localhost vs 127.0.0.1',
    app: 'localhost',
    play: ['127.0.0.1', '127.0.0.1'],
    parent: '127.0.0.1',
  },
  {
    name: 'per-game *.localhost: app localhost, g1/g2.localhost',
    app: 'localhost',
    play: ['g1.localhost', 'g2.localhost'],
    parent: 'localhost',
  },
  {
    name: 'per-game under play.localhost: app localhost, g1/g2.play.localhost',
    app: 'localhost',
    play: ['g1.play.localhost', 'g2.play.localhost'],
    parent: 'localhost',
  },
  {
    name: 'prod same-site sub-domains: studio.example.test, g1.play.example.test',
    app: 'studio.example.test',
    play: ['g1.play.example.test', 'g2.play.example.test'],
    parent: 'example.test',
  },
  {
    name: 'prod separate site: studio.example.test, g1.example-games.test',
    app: 'studio.example.test',
    play: ['g1.example-games.test', 'g2.example-games.test'],
    parent: 'example-games.test',
  },
];
const args = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP *.example.test 127.0.0.1, MAP *.example-games.test 127.0.0.1',
];
const modes = process.argv[2] ? [process.argv[2]] : ['raw', 'playwright'];

/** A browser with a fresh profile: Chromium started as a user starts it (over CDP), or by Playwright. */
async function openBrowser(mode) {
  if (mode === 'playwright') {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args });
    return { browser, context: await browser.newContext(), stop: () => browser.close() };
  }
  const profile = mkdtempSync(join(tmpdir(), 'reskin-isolation-'));
  const proc = spawn(
    '/usr/bin/chromium',
    [...args, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: 'ignore' },
  );
  const portFile = join(profile, 'DevToolsActivePort');
  while (!existsSync(portFile) || !readFileSync(portFile, 'utf8').includes('\n'))
    await new Promise((r) => setTimeout(r, 100));
  const browser = await chromium.connectOverCDP(
    `http://127.0.0.1:${readFileSync(portFile, 'utf8').split('\n')[0]}`,
  );
  return {
    browser,
    context: browser.contexts()[0],
    stop: async () => {
      await browser.close().catch(() => undefined);
      proc.kill('SIGKILL');
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

for (const mode of modes) {
  for (const d of designs) {
    const { browser, context, stop } = await openBrowser(mode);
    if (d === designs[0])
      console.log(
        `\n##### Chromium ${browser.version()}, ${mode === 'raw' ? 'started as a user starts it (CDP)' : "under Playwright's launcher"}`,
      );
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const results = [];
    for (const playHost of [d.play[0], d.play[0], d.play[1]]) {
      try {
        await page.goto(
          `http://${d.app}:${APP_PORT}/?play=${encodeURIComponent(`http://${playHost}:${PLAY_PORT}/game.html?parent=${d.parent}`)}`,
        );
        results.push(await page.evaluate(() => globalThis.result));
      } catch (e) {
        results.push({ localStorage: 'APP PAGE FAILED: ' + e.message.split('\n')[0].slice(0, 60) });
      }
    }
    const echoRes = await page.goto(`http://${d.app}:${APP_PORT}/echo`).catch(() => null);
    const echo =
      echoRes && echoRes.status() === 200
        ? await echoRes.json()
        : { len: 'HTTP ' + (echoRes ? echoRes.status() : 'failed (431)'), cookie: '' };
    const short = (r) => JSON.stringify({ ...r, cookieAfter: r.cookieAfter?.slice(0, 60) }).slice(0, 400);
    console.log(`\n== ${d.name}`);
    console.log('  game 1 first :', short(results[0]));
    console.log('  game 1 again :', results[1].localStorage);
    console.log(
      '  game 2       :',
      results[2].origin,
      results[2].localStorage,
      '| reads cookie:',
      JSON.stringify(results[2].readCookie),
    );
    console.log('  app receives :', echo.len, 'bytes of cookies:', echo.cookie.slice(0, 100));
    await stop();
  }
}
appServer.close();
playServer.close();
