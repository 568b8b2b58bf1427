// The browser and startup benchmarks of npm run bench (index.ts): workbench, my games, play frame, startup.
import { availableParallelism, loadavg } from 'node:os';
import { benchMyGames } from './my-games.bench';
import { benchPlayFrame, type PlayFrameVisit } from './play-frame.bench';
import { benchStartup, startupTargets } from './startup.bench';
import { benchWorkbench } from './workbench.bench';
import { benchWorkbenchOpen, workbenchLists } from './workbench-open.bench';
import { buildProduction } from './browser-support';
import { databaseUrl, fixed, postgresUp } from './run-support';

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
      `${100} px per animation frame to the end; bytes on the wire from the DevTools protocol (encodedDataLength):`,
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
          ` ${fixed(run.loadMb, 1)} MB to usable (${fixed(run.requests, 0)} requests), ${fixed(run.scrollMb, 1)} MB while scrolling`,
      );
    }
    const fullScrollMb = big.loadMb + big.scrollMb;
    const checks = [
      [`usable ${r.images} / sample ${fixed(r.usableRatio)}`, r.usableRatio <= 1.3, '<= 1.3'],
      [`longest task ${fixed(big.maxLongTaskMs, 0)} ms`, big.maxLongTaskMs <= 200, 'none over 200 ms'],
      [`DOM nodes ${fixed(big.maxDomNodes, 0)}`, big.maxDomNodes <= 5000, '<= 5,000'],
      [`scroll ${fixed(big.fps, 1)} fps`, big.fps >= 55, '>= 55 fps'],
      [`p95 frame ${fixed(big.p95FrameMs, 1)} ms`, big.p95FrameMs <= 20, '<= 20 ms'],
      [`load + full scroll ${fixed(fullScrollMb, 1)} MB`, fullScrollMb < 100, '< 100 MB'],
    ] as const;
    for (const [figure, met, target] of checks)
      console.log(`  ${figure} (target ${target}: ${met ? 'met' : 'MISSED'})`);
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

  async playFrame() {
    buildProduction();
    const r = await benchPlayFrame();
    console.log(
      `Play Your Version in Chromium (headless, no GPU, a fresh context per round): a Unity-like WebGL build of ${fixed(r.buildMb, 1)} MB`,
    );
    console.log(
      '(the template page, its style sheet and 5 images, a loader script, a framework script, a .wasm compiled and a .data',
    );
    console.log(
      "file, then a WebGL draw); click on the version's Play -> the game's message a frame after its first draw. Against the",
    );
    console.log(
      'same build from a bare Node static server with gzip (nginx is not installed here; each file gzipped once and kept, as',
    );
    console.log(
      `gzip_static; the same no-cache and ETag) in the same sandboxed cross-site frame, set at the click; each click once the`,
    );
    console.log(
      `page has been quiet for 0.5 s (a person reads first); the second visit goes back and clicks again; medians of ${r.rounds} rounds:`,
    );
    const line = (label: string, visit: PlayFrameVisit) =>
      console.log(
        `  ${label.padEnd(26)} first frame ${fixed(visit.firstFrameMs, 0).padStart(5)} ms, frame set ${fixed(visit.frameStartMs, 0).padStart(4)} ms after the click;` +
          ` ${fixed(visit.requests, 0)} answers of the game's host (${fixed(visit.redirects, 0)} redirects, ${fixed(visit.keptRedirects, 0)} of them kept by the browser), ${fixed(visit.bodyMb, 2)} MB of bodies`,
      );
    line('app, first visit', r.app.first);
    line('bare server, first visit', r.bare.first);
    line('app, second visit', r.app.second);
    line('bare server, second visit', r.bare.second);
    const checks = [
      [`first visit app / bare ${fixed(r.firstRatio)}`, r.firstRatio <= 1.1, '<= 1.1'],
      [`second visit app / bare ${fixed(r.secondRatio)}`, r.secondRatio <= 1.1, '<= 1.1'],
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
      'Start-up of the production server (node apps/server/dist/server.js, fresh build; also through npm start), a new process each run',
    );
    console.log(
      `on an empty DATA_DIR, SEED_DEMO=false, NODE_ENV=production, LOG_LEVEL=info. Ready = spawn to the first 200`,
    );
    console.log(
      `of GET ${target!.probe} (what a load balancer sees); log line = spawn to "Reskin Studio on ...";`,
    );
    console.log(
      'CPU = user + system time the processes used until ready (npm start: npm and node); idle RSS 2 s after ready; after requests = 1 s',
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
    // What a person typing `npm start` waits for: npm, the build check, then the same server.
    const npmStart = results.find((r) => r.label.startsWith('npm start'))!;
    const npmMet = npmStart.readyMedianMs <= startupTargets.readyMs;
    console.log(
      `  ${npmStart.label}: ready median ${fixed(npmStart.readyMedianMs, 0)} ms, ${fixed(npmStart.readyMedianMs - target!.readyMedianMs, 0)} ms more than the bundle alone (target <= ${startupTargets.readyMs} ms: ${npmMet ? 'met' : 'MISSED'})`,
    );
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
    if (!readyMet || !npmMet || !rssMet || !demoMet) process.exitCode = 1;
  },
};
