// The browser and startup benchmarks of npm run bench (index.ts): workbench, review, my games, startup.
import { availableParallelism, loadavg } from 'node:os';
import { benchMyGames } from './my-games.bench';
import { benchReview } from './review.bench';
import { benchStartup, startupTargets } from './startup.bench';
import { benchWorkbench } from './workbench.bench';
import { benchWorkbenchOpen, workbenchLists } from './workbench-open.bench';
import { buildProduction } from './browser-support';
import { databaseUrl, fixed, postgresUp } from './run-support';
import { profiledScrollPx, type ScreenRun } from './screen-visit';
import { profileLine, profileTop, type ScrollProfile } from './scroll-profile';

/** A scroll as the eye sees it: 60 frames a second (58 allows for the odd late frame), none much over a frame. */
const scrollTargets = { fps: 58, p95FrameMs: 17 };

/** The scroll's and the notes' checks of a long screen, and the profile of its traced scroll. */
function scrollChecks(run: ScreenRun) {
  return [
    [`scroll ${fixed(run.fps, 1)} fps`, run.fps >= scrollTargets.fps, `>= ${scrollTargets.fps} fps (60)`],
    [
      `p95 frame ${fixed(run.p95FrameMs, 1)} ms`,
      run.p95FrameMs <= scrollTargets.p95FrameMs,
      `<= ${scrollTargets.p95FrameMs} ms`,
    ],
    [
      `notes read ${fixed(run.notesReads, 0)} times, ${fixed(run.notesRequestsScrolling, 0)} notes requests while scrolling`,
      run.notesReads <= 1 && run.notesRequestsScrolling === 0,
      'one read per screen opened, none while scrolling',
    ],
  ] as const;
}

/** The traced scroll's profile; when the scroll missed its targets, why (its top) and the next-best figure. */
function printProfile(profile: ScrollProfile, run: ScreenRun): void {
  console.log(
    `  profile of one more scroll (Chromium trace of ${profile.frames} frames, ${profiledScrollPx} px; not counted in the figures):`,
  );
  console.log(`    ${profileLine(profile)}`);
  if (run.fps < scrollTargets.fps || run.p95FrameMs > scrollTargets.p95FrameMs)
    console.log(`    scroll targets missed; ${profileTop(profile)}`);
}

export const browserRuns: Record<string, () => Promise<void>> = {
  async workbench() {
    buildProduction();
    const r = await benchWorkbench();
    const { big, sample } = r;
    console.log(
      `Workbench in Chromium (headless, no GPU, 1280x800, a fresh context per visit): a generated game of ${r.images} PNG/JPEG images`,
    );
    console.log(
      `of 34 to 2,048 px a side (${fixed(r.megabytes, 0)} MB; drawing, upload and generation ${fixed(r.prepareSeconds, 0)} s) against the 7-image sample game`,
    );
    console.log(
      `(Star Catcher), an artist's version of each on the production server; medians of ${r.rounds} rounds, the games' order alternating.`,
    );
    console.log(
      'Usable = navigation to the first card image loaded and laid out, then 1 s without a long task; the scroll moves the page',
    );
    console.log(
      `${100} px per animation frame to the end; bytes on the wire from the DevTools protocol (encodedDataLength);`,
    );
    console.log(
      `the big version has ${r.notes} notes (answers, resolved ones, notes on sprite sheets' frames: studio-version.ts):`,
    );
    for (const [label, run] of [
      [`${r.images} images`, big],
      ['sample (7)', sample],
    ] as const) {
      console.log(
        `  ${label.padEnd(12)} usable ${fixed(run.usableMs, 0).padStart(5)} ms (first image ${fixed(run.firstImageMs, 0)} ms), longest task ${fixed(run.maxLongTaskMs, 0)} ms (${fixed(run.longTasksOver200, 0)} over 200 ms),` +
          ` ${fixed(run.domNodes, 0)} DOM nodes (most while scrolling ${fixed(run.maxDomNodes, 0)}), ${fixed(run.images, 0)} <img>`,
      );
      console.log(
        `  ${''.padEnd(12)} scroll ${fixed(run.scrolledPx, 0)} px in ${fixed(run.scrollSeconds, 1)} s at ${fixed(run.fps, 1)} fps, p95 frame ${fixed(run.p95FrameMs, 1)} ms;` +
          ` ${fixed(run.loadMb, 1)} MB to usable (${fixed(run.requests, 0)} requests), ${fixed(run.scrollMb, 1)} MB while scrolling;` +
          ` notes: ${fixed(run.notesRequests, 0)} requests to usable, ${fixed(run.notesRequestsScrolling, 0)} while scrolling`,
      );
    }
    const fullScrollMb = big.loadMb + big.scrollMb;
    const checks = [
      [`usable ${r.images} / sample ${fixed(r.usableRatio)}`, r.usableRatio <= 1.3, '<= 1.3'],
      [`longest task ${fixed(big.maxLongTaskMs, 0)} ms`, big.maxLongTaskMs <= 200, 'none over 200 ms'],
      [`DOM nodes ${fixed(big.maxDomNodes, 0)}`, big.maxDomNodes <= 5000, '<= 5,000'],
      ...scrollChecks(big),
      [`load + full scroll ${fixed(fullScrollMb, 1)} MB`, fullScrollMb < 100, '< 100 MB'],
    ] as const;
    for (const [figure, met, target] of checks)
      console.log(`  ${figure} (target ${target}: ${met ? 'met' : 'MISSED'})`);
    printProfile(r.profile, big);
    console.log(`  machine load (1-minute average) at the end: ${fixed(loadavg()[0]!)}\n`);
    if (checks.some(([, met]) => !met)) process.exitCode = 1;
  },

  async workbenchOpen() {
    buildProduction();
    const r = await benchWorkbenchOpen();
    const mb = (bytes: number) => fixed(bytes / 1024 / 1024, 2);
    const kb = (bytes: number) => fixed(bytes / 1024, 0);
    console.log(
      `Opening the workbench in Chromium (headless, no GPU, 1280x800): the generated game of ${r.images} images (preparation ${fixed(r.prepareSeconds, 0)} s),`,
    );
    console.log(
      `its artist's version, in a fresh context (cold cache), then opened again in the same context; medians of ${r.rounds} rounds.`,
    );
    console.log(
      'Parsed = decoded bodies of the API answers (Resource Timing) that had arrived when the first card image was painted:',
    );
    const { cold, reopened } = r;
    for (const [label, run] of [
      ['first open', cold],
      ['reopened', reopened],
    ] as const) {
      console.log(
        `  ${label.padEnd(10)} first image ${fixed(run.firstImageMs, 0)} ms; JSON parsed before it ${mb(run.parsedBeforePaintBytes)} MB of ${mb(run.parsedBytes)} MB in all;` +
          ` ${fixed(run.apiAnswers, 0)} API answers, ${fixed(run.notModified, 0)} of them 304; ${kb(run.wireBytes)} KB of API answers on the wire`,
      );
    }
    const lists = Object.keys(workbenchLists).map((name) => [name, r.reopenedLists[name] ?? []] as const);
    console.log(
      `  reopened lists: ${lists.map(([name, statuses]) => `${name} ${statuses.join(', ') || 'not asked'}`).join('; ')}`,
    );
    const checks = [
      [
        `JSON parsed before the first card image ${mb(cold.parsedBeforePaintBytes)} MB`,
        cold.parsedBeforePaintBytes <= 0.5 * 1024 * 1024,
        '<= 0.5 MB',
      ],
      [
        `reopened, the big lists revalidated (${lists.flatMap(([, statuses]) => statuses).filter((status) => status === 304).length} answers 304)`,
        lists.every(([, statuses]) => statuses.length > 0 && statuses.every((status) => status === 304)),
        'every answer of each a 304',
      ],
    ] as const;
    for (const [figure, met, target] of checks)
      console.log(`  ${figure} (target ${target}: ${met ? 'met' : 'MISSED'})`);
    console.log(`  machine load (1-minute average) at the end: ${fixed(loadavg()[0]!)}\n`);
    if (checks.some(([, met]) => !met)) process.exitCode = 1;
  },

  async review() {
    buildProduction();
    const loadBefore = loadavg()[0]!;
    const r = await benchReview();
    const { run } = r;
    console.log(
      `Review screen in Chromium (headless, no GPU, 1280x800, a fresh context per visit): the admin reviews an artist's version`,
    );
    console.log(
      `of the ${r.files}-image game with every image replaced (six frames of each of its 3 sprite sheets), ${r.notes} notes (answers,`,
    );
    console.log(
      `resolved ones, frames') and a verdict history (preparation ${fixed(r.prepareSeconds, 0)} s); medians of ${r.rounds} rounds; the scroll moves`,
    );
    console.log(`the page 100 px per animation frame to the end:`);
    console.log(
      `  usable ${fixed(run.usableMs, 0)} ms (first image ${fixed(run.firstImageMs, 0)} ms), longest task ${fixed(run.maxLongTaskMs, 0)} ms, ${fixed(run.domNodes, 0)} DOM nodes` +
        ` (most while scrolling ${fixed(run.maxDomNodes, 0)}), ${fixed(run.images, 0)} <img>; ${fixed(run.loadMb, 1)} MB to usable, ${fixed(run.scrollMb, 1)} MB while scrolling`,
    );
    console.log(
      `  scroll ${fixed(run.scrolledPx, 0)} px in ${fixed(run.scrollSeconds, 1)} s at ${fixed(run.fps, 1)} fps, p95 frame ${fixed(run.p95FrameMs, 1)} ms;` +
        ` notes: ${fixed(run.notesRequests, 0)} requests to usable, ${fixed(run.notesRequestsScrolling, 0)} while scrolling`,
    );
    const checks = [
      ...scrollChecks(run),
      [`DOM nodes ${fixed(run.maxDomNodes, 0)}`, run.maxDomNodes <= 5000, '<= 5,000'],
    ] as const;
    for (const [figure, met, target] of checks)
      console.log(`  ${figure} (target ${target}: ${met ? 'met' : 'MISSED'})`);
    printProfile(r.profile, run);
    console.log(
      `  machine load (1-minute average) at the start ${fixed(loadBefore)}, at the end ${fixed(loadavg()[0]!)} (${availableParallelism()} CPUs)\n`,
    );
    if (checks.some(([, met]) => !met)) process.exitCode = 1;
  },

  async myGames() {
    buildProduction();
    const r = await benchMyGames();
    console.log(
      `My Games in Chromium (headless, no GPU, 1280x800, a fresh context per visit, no scroll): an artist with ${r.games}`,
    );
    console.log(
      `Ready games (a 1280x720 JPEG splash each; preparation ${fixed(r.prepareSeconds, 0)} s) against one with a single game, on the production server;`,
    );
    console.log(
      `medians of ${r.rounds} rounds, alternating; network done = the last request's end once no request has run for 500 ms after load:`,
    );
    for (const [label, run] of [
      [`${r.games} cards`, r.many],
      ['1 card', r.one],
    ] as const) {
      console.log(
        `  ${label.padEnd(10)} ${fixed(run.cards, 0)} cards; images ${fixed(run.imageMb, 2)} MB in ${fixed(run.imageRequests, 0)} requests from ${fixed(run.imageHosts, 0)} hosts;` +
          ` network done ${fixed(run.networkDoneMs, 0)} ms; ${fixed(run.apiCalls, 0)} API calls; ${fixed(run.totalMb, 2)} MB in all`,
      );
    }
    const checks = [
      [`images before scrolling ${fixed(r.many.imageMb, 2)} MB`, r.many.imageMb <= 3, '<= 3 MB'],
      [`network done ${r.games} / 1 ${fixed(r.networkDoneRatio)}`, r.networkDoneRatio <= 1.5, '<= 1.5'],
      [
        `API calls ${fixed(r.many.apiCalls, 0)}`,
        r.many.apiCalls <= 2 + r.one.apiCalls,
        `at most 2 for the thumbnails beyond the page's own (${fixed(r.one.apiCalls, 0)} with one card)`,
      ],
      [`image hosts ${fixed(r.many.imageHosts, 0)}`, r.many.imageHosts <= 1, '1'],
    ] as const;
    for (const [figure, met, target] of checks)
      console.log(`  ${figure} (target ${target}: ${met ? 'met' : 'MISSED'})`);
    console.log(`  machine load (1-minute average) at the end: ${fixed(loadavg()[0]!)}\n`);
    if (checks.some(([, met]) => !met)) process.exitCode = 1;
  },

  async startup() {
    const up = await postgresUp();
    const loadBefore = loadavg()[0]!;
    const results = await benchStartup({ runs: 5, databaseUrl: up ? databaseUrl : undefined });
    if (!up) console.log(`(PostgreSQL at ${databaseUrl} is unreachable: its start-up runs are skipped)\n`);
    const [target] = results;
    const load = Math.max(loadBefore, loadavg()[0]!);
    console.log(
      'Start-up of the production server (node apps/server/dist/server.js, fresh build), a new process each run',
    );
    console.log(
      `on an empty DATA_DIR, SEED_DEMO=false, NODE_ENV=production, LOG_LEVEL=info. Ready = spawn to the first 200`,
    );
    console.log(
      `of GET ${target!.probe} (what a load balancer sees); log line = spawn to "Reskin Studio on ...";`,
    );
    console.log(
      'CPU = user + system time the process used until ready; idle RSS 2 s after ready; after requests = 1 s',
    );
    console.log(
      'after 500 light GETs (probe, /api/config, /), 10 at a time; the demo variant seeds the demo accounts and sample game:',
    );
    for (const r of results) {
      const logLine = r.logLineMedianMs === undefined ? '' : `, log line ${fixed(r.logLineMedianMs, 0)} ms`;
      console.log(
        `  ${r.label.padEnd(26)} ${r.runs.length} runs: ready median ${fixed(r.readyMedianMs, 0).padStart(5)} ms, max ${fixed(r.readyMaxMs, 0).padStart(5)} ms, CPU ${fixed(r.readyCpuMedianMs, 0).padStart(4)} ms${logLine}`,
      );
      console.log(
        `  ${''.padEnd(26)} RSS idle median ${fixed(r.idleRssMedianMb, 0)} MB, max ${fixed(r.idleRssMaxMb, 0)} MB; after requests ${fixed(r.afterRequestsRssMedianMb, 0)} MB; peak ${fixed(r.peakRssMaxMb, 0)} MB`,
      );
      if (r.settledRssMaxMb !== undefined) {
        console.log(
          `  ${''.padEnd(26)} RSS settled (15 s after ready) median ${fixed(r.settledRssMedianMb!, 0)} MB, max ${fixed(r.settledRssMaxMb, 0)} MB`,
        );
      }
    }
    // Idle RSS with the demo seed, once settled.
    const demo = results.find((r) => r.settledRssMaxMb !== undefined);
    const demoMet = demo ? demo.settledRssMaxMb! < startupTargets.idleRssMb : true;
    if (demo)
      console.log(
        `  ${demo.label}: settled idle RSS max ${fixed(demo.settledRssMaxMb!, 0)} MB (target < ${startupTargets.idleRssMb} MB: ${demoMet ? 'met' : 'MISSED'}), peak ${fixed(demo.peakRssMaxMb, 0)} MB`,
      );
    const readyMet = target!.readyMedianMs < startupTargets.readyMs;
    const rssMet = target!.idleRssMaxMb < startupTargets.idleRssMb;
    console.log(
      `  ${target!.label}: ready median ${fixed(target!.readyMedianMs, 0)} ms (target < ${startupTargets.readyMs} ms: ${readyMet ? 'met' : 'MISSED'}),`,
    );
    console.log(
      `  idle RSS max ${fixed(target!.idleRssMaxMb, 0)} MB (target < ${startupTargets.idleRssMb} MB: ${rssMet ? 'met' : 'MISSED'})`,
    );
    if (load > availableParallelism()) {
      console.log(
        `  (load average ${fixed(load, 1)} on ${availableParallelism()} CPUs during these runs: other work shared the machine, so`,
      );
      console.log('  the times are inflated; the CPU column is the less disturbed measure)');
    }
    console.log();
    if (!readyMet || !rssMet || !demoMet) process.exitCode = 1;
  },
};
