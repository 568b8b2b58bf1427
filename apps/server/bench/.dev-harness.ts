// Dev harness (not committed): prepare once, serve, visit repeatedly.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import type { GameFile, GameVersion } from '@reskin/contract';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { Preparation, artistPassword, benchAdmin, cachedArt, loginOver } from './browser-support';
import { launchChromium, signedInPage, usableMs, scrollThrough } from './browser-measures';
import { visitScreen } from './screen-visit';
import { profileLine } from './scroll-profile';
import { bigGameSpecs, replaceEveryImage, seedStudioNotes, sheetDescriptors, sheetsOfGame } from './studio-version';

const dataDir = '/tmp/scroll-harness-data';
const idsFile = `${dataDir}/ids.json`;
const env = {
  DATA_DIR: dataDir,
  SEED_DEMO: 'true',
  LOG_LEVEL: 'warn',
  JWT_SECRET: 'reskin-browser-bench-secret-0001',
  ADMIN_EMAIL: benchAdmin.email,
  ADMIN_PASSWORD: benchAdmin.password,
  AUTH_RATE_LIMIT_MAX: '100000',
};
const port = Number(process.env.HARNESS_PORT ?? 3730);
const origin = `http://127.0.0.1:${port}`;

async function prepare() {
  mkdirSync(dataDir, { recursive: true });
  const specs = bigGameSpecs(1500);
  const art = await cachedArt('workbench-v1', specs);
  const built = await buildApp(loadConfig(env));
  const p = new Preparation(built);
  await p.loginAdmin();
  const files = [
    { path: 'big-game/index.html', content: Buffer.from('<!doctype html><title>Big game</title><canvas></canvas>') },
    ...art,
    ...sheetDescriptors(specs),
  ];
  const big = await p.uploadedGame('Big game', files, 'big-game/index.html', art[0]!.path);
  await p.generate([big.id]);
  console.log('generated');
  const gameFiles = await p.request<GameFile[]>('GET', `/games/${big.id}/files`);
  const [created] = await p.createArtists(1, 'hvartist');
  const token = await p.login('hvartist0@example.com', artistPassword);
  const ug = await p.assign(created!.id, big.id);
  const wb = await p.createVersion(token, ug, 'Big look');
  const rv = await p.createVersion(token, ug, 'Reviewed look');
  const sheets = sheetsOfGame(specs, gameFiles);
  const imagePaths = new Set(art.map((image) => image.path));
  const fileIds = gameFiles.filter((file) => imagePaths.has(file.path)).map((file) => file.fileId);
  const reviewerId = await p.adminId();
  await seedStudioNotes(p, { versionId: wb.id, fileIds, sheets, reviewerId, artistId: created!.id, count: 2000 });
  await replaceEveryImage(p, token, rv, gameFiles, art, sheets);
  console.log('replaced');
  await seedStudioNotes(p, { versionId: rv.id, fileIds, sheets, reviewerId, artistId: created!.id, count: 2000 });
  await p.request('POST', '/game-versions/done', { token, payload: { id: rv.id } });
  await p.request('PUT', `/game-versions/${rv.id}/verdict`, {
    payload: { verdict: 'changes_requested', note: 'See the notes.' },
  });
  await p.request('POST', '/game-versions/done', { token, payload: { id: rv.id } });
  await built.app.close();
  writeFileSync(idsFile, JSON.stringify({ wb, rv }));
}

function serve() {
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), PLAY_PORT: String(port + 100), ...env, SEED_DEMO: 'false', ...(process.env.WEB_DIST_DIR && { WEB_DIST_DIR: process.env.WEB_DIST_DIR }) },
    stdio: 'inherit',
  });
  console.log('server pid', child.pid);
}

async function visit(which: string, profile: boolean, times: number) {
  const { wb, rv } = JSON.parse(readFileSync(idsFile, 'utf8')) as { wb: GameVersion; rv: GameVersion };
  const browser = await launchChromium();
  try {
    const token =
      which === 'review'
        ? await loginOver(origin, benchAdmin.email, benchAdmin.password)
        : await loginOver(origin, 'hvartist0@example.com', artistPassword);
    const v = which === 'review' ? rv : wb;
    const url =
      which === 'review'
        ? `/user-game-list/game-versions/files?versionId=${v.id}&gameId=${v.gameId}&userGameId=${v.userGamesId}`
        : `/my-games/versions/workbench?versionId=${v.id}&gameId=${v.gameId}&userGameId=${v.userGamesId}&tab=files`;
    const selector = which === 'review' ? '[data-file-id] img' : '[role="tabpanel"] img, [data-file-id] img';
    for (let i = 0; i < times; i++) {
      const { run, profile: prof } = await visitScreen(browser, origin, token, url, selector, which, profile);
      console.log(JSON.stringify(run));
      if (prof) console.log(profileLine(prof), 'frames', prof.frames, 'seconds', prof.seconds);
    }
  } finally {
    await browser.close();
  }
}

async function cpu(which: string) {
  const { wb, rv } = JSON.parse(readFileSync(idsFile, 'utf8')) as { wb: GameVersion; rv: GameVersion };
  const browser = await launchChromium();
  try {
    const token =
      which === 'review'
        ? await loginOver(origin, benchAdmin.email, benchAdmin.password)
        : await loginOver(origin, 'hvartist0@example.com', artistPassword);
    const v = which === 'review' ? rv : wb;
    const url =
      which === 'review'
        ? `/user-game-list/game-versions/files?versionId=${v.id}&gameId=${v.gameId}&userGameId=${v.userGamesId}`
        : `/my-games/versions/workbench?versionId=${v.id}&gameId=${v.gameId}&userGameId=${v.userGamesId}&tab=files`;
    const { context, page } = await signedInPage(browser, origin, token);
    await page.goto(url, { waitUntil: 'commit' });
    await usableMs(page, '[data-file-id] img');
    if (process.env.CPU_LIMIT) await page.evaluate('0');
    const session = await context.newCDPSession(page);
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 200 });
    await session.send('Profiler.start');
    const scroll = await scrollThrough(page, 100, Number(process.env.CPU_LIMIT ?? Infinity));
    const { profile } = await session.send('Profiler.stop');
    console.log('fps', scroll.fps, 'p95', scroll.p95FrameMs, 'seconds', scroll.seconds);
    const self = new Map<string, number>();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const counts = new Map<number, number>();
    for (const id of profile.samples ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
    const dt = (profile.endTime - profile.startTime) / (profile.samples?.length ?? 1) / 1000;
    for (const [id, c] of counts) {
      const n = byId.get(id)!;
      const f = n.callFrame;
      const key = `${f.functionName || '(anon)'} ${f.url.split('/').at(-1)}:${f.lineNumber}`;
      self.set(key, (self.get(key) ?? 0) + c * dt);
    }
    // inclusive by function name
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const incl = new Map<string, number>();
    for (const [id, c] of counts) {
      const seen = new Set<string>();
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const f = byId.get(cur)!.callFrame;
        const key = `${f.functionName || '(anon)'} ${f.url.split('/').at(-1)}:${f.lineNumber}`;
        if (seen.has(key)) continue;
        seen.add(key);
        incl.set(key, (incl.get(key) ?? 0) + c * dt);
      }
    }
    const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, v]) => `${v.toFixed(0).padStart(6)} ms  ${k}`).join('\n');
    console.log('SELF\n' + top(self));
    console.log('INCLUSIVE\n' + top(incl));
    await context.close();
  } finally {
    await browser.close();
  }
}

async function quick(which: string, px: number, times: number) {
  const { wb, rv } = JSON.parse(readFileSync(idsFile, 'utf8')) as { wb: GameVersion; rv: GameVersion };
  const browser = await launchChromium();
  try {
    const token =
      which === 'review'
        ? await loginOver(origin, benchAdmin.email, benchAdmin.password)
        : await loginOver(origin, 'hvartist0@example.com', artistPassword);
    const v = which === 'review' ? rv : wb;
    const url =
      which === 'review'
        ? `/user-game-list/game-versions/files?versionId=${v.id}&gameId=${v.gameId}&userGameId=${v.userGamesId}`
        : `/my-games/versions/workbench?versionId=${v.id}&gameId=${v.gameId}&userGameId=${v.userGamesId}&tab=files`;
    for (let i = 0; i < times; i++) {
      const { context, page } = await signedInPage(browser, origin, token);
      await page.goto(url, { waitUntil: 'commit' });
      await usableMs(page, '[data-file-id] img');
      const r = await scrollThrough(page, 100, px);
      console.log(`${which} fps ${r.fps.toFixed(1)} p95 ${r.p95FrameMs.toFixed(1)} max ${r.maxFrameMs.toFixed(1)} px ${r.distance} load ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

async function tracePx(which: string, px: number, file: string) {
  const { profileScroll } = await import('./scroll-profile');
  const { wb, rv } = JSON.parse(readFileSync(idsFile, 'utf8')) as { wb: GameVersion; rv: GameVersion };
  const browser = await launchChromium();
  try {
    const token =
      which === 'review'
        ? await loginOver(origin, benchAdmin.email, benchAdmin.password)
        : await loginOver(origin, 'hvartist0@example.com', artistPassword);
    const v = which === 'review' ? rv : wb;
    const url =
      which === 'review'
        ? `/user-game-list/game-versions/files?versionId=${v.id}&gameId=${v.gameId}&userGameId=${v.userGamesId}`
        : `/my-games/versions/workbench?versionId=${v.id}&gameId=${v.gameId}&userGameId=${v.userGamesId}&tab=files`;
    const { context, page } = await signedInPage(browser, origin, token);
    await page.goto(url, { waitUntil: 'commit' });
    await usableMs(page, '[data-file-id] img');
    if (process.env.START_PX) {
      await page.evaluate(`scrollTo({ top: ${process.env.START_PX}, behavior: 'instant' })`);
      await new Promise((r) => setTimeout(r, 3000));
    }
    process.env.BENCH_TRACE_FILE = file;
    const { result, profile } = await profileScroll(page, () => scrollThrough(page, 100, px + Number(process.env.START_PX ?? 0)));
    console.log('fps', result.fps.toFixed(1), profileLine(profile));
    await context.close();
  } finally {
    await browser.close();
  }
}

async function heights(which: string) {
  const { wb, rv } = JSON.parse(readFileSync(idsFile, 'utf8')) as { wb: GameVersion; rv: GameVersion };
  const browser = await launchChromium();
  const token = which === 'review' ? await loginOver(origin, benchAdmin.email, benchAdmin.password) : await loginOver(origin, 'hvartist0@example.com', artistPassword);
  const v = which === 'review' ? rv : wb;
  const url = which === 'review'
    ? `/user-game-list/game-versions/files?versionId=${v.id}&gameId=${v.gameId}&userGameId=${v.userGamesId}`
    : `/my-games/versions/workbench?versionId=${v.id}&gameId=${v.gameId}&userGameId=${v.userGamesId}&tab=files`;
  const { context, page } = await signedInPage(browser, origin, token);
  await page.goto(url, { waitUntil: 'commit' });
  await usableMs(page, '[data-file-id] img');
  const out: number[] = [];
  for (let y = 0; y < 60000; y += 3000) {
    await page.evaluate(`scrollTo({ top: ${y}, behavior: 'instant' })`);
    await new Promise((r) => setTimeout(r, 1500));
    out.push(...(await page.evaluate<number[]>(`[...document.querySelectorAll('[data-index]')].map((e) => Math.round(e.getBoundingClientRect().height))`)));
  }
  const counts = new Map<number, number>();
  for (const h of out) counts.set(h, (counts.get(h) ?? 0) + 1);
  console.log([...counts].sort((a, b) => b[1] - a[1]).slice(0, 15));
  console.log('docHeight', await page.evaluate('document.documentElement.scrollHeight'), 'listTop', await page.evaluate(`document.querySelector('[data-index]')?.closest('table, .image-cards')?.getBoundingClientRect().top + scrollY`));
  await context.close();
  await browser.close();
}

const [command, which = "workbench", flag = "", times = "1"] = process.argv.slice(2) as [string, string, string, string];
if (command === 'prepare') {
  if (existsSync(idsFile)) console.log('already prepared');
  else await prepare();
} else if (command === 'serve') serve();
else if (command === 'cpu') await cpu(which);
else if (command === 'summarise') {}
else if (command === 'heights') await heights(which);
else if (command === 'trace') await tracePx(which, Number(flag), times);
else if (command === 'quick') await quick(which, Number(flag || 30000), Number(times));
else await visit(which, flag === 'profile', Number(times));
if (command === 'summarise') {
  const { summariseTrace } = await import('./scroll-profile');
  const events = JSON.parse(readFileSync(which, 'utf8')).traceEvents;
  console.log(profileLine(summariseTrace(events, Number(flag || 300))));
}
