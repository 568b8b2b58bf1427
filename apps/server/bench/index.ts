// npm run bench: speed and memory targets, measured on this machine (never asserted in timed tests).
// `npm run bench -- startup api` runs the named benchmarks only (generation, upload, api, play, login, startup, atlases, fit, audio, versionZip, zipUpload, workbench, myGames).
import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import pg from 'pg';
import { benchApi, type ApiBenchResult } from './api.bench';
import { benchAtlases } from './atlases.bench';
import { benchFit } from './fit.bench';
import { benchAudio } from './audio.bench';
import { benchGeneration } from './generation.bench';
import { benchLoginTiming } from './login.bench';
import { benchMyGames } from './my-games.bench';
import { benchPlay, type PlayTarget } from './play.bench';
import { benchStartup, startupTargets } from './startup.bench';
import { benchUpload } from './upload.bench';
import { benchVersionZip } from './version-zip.bench';
import { benchWorkbench } from './workbench.bench';
import { benchZipUpload } from './zip-upload.bench';
import { startS3Server, type S3Server } from '../test/support/s3-server';
import { buildProduction } from './browser-support';

/** The server's environment for STORAGE=s3 on a real S3 protocol server started for the bench (s3rver, its own process). */
const s3Env = (s3: S3Server): Record<string, string> => ({
  STORAGE: 's3',
  S3_ENDPOINT: s3.endpoint,
  S3_BUCKET: s3.bucket,
  S3_ACCESS_KEY_ID: s3.accessKeyId,
  S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  S3_FORCE_PATH_STYLE: 'true',
});

const fixed = (n: number, digits = 2) => n.toFixed(digits);
const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
let postgres: Promise<boolean> | undefined;
const postgresUp = () =>
  (postgres ??= new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3000 })
    .connect()
    .then(async (client) => (await client.end(), true))
    .catch(() => false));

const benchmarks: Record<string, () => Promise<void>> = {
  async generation() {
    const s3 = await startS3Server('reskin-bench');
    try {
      const local = await benchGeneration(200);
      const onS3 = await benchGeneration(200, s3Env(s3));
      console.log(
        'Generation of a game of 200 images of mixed sizes (png, jpg, webp, gif; 16 to 1280 px a side) through the app (in this',
      );
      console.log(
        `process: upload, Gen., wait until Ready) against bare sharp (a plain script: sharp's create and the SVG tile, an image`,
      );
      console.log(
        `per core) and against the app's own sharp work in a script (makeCopiesWithPreviews, as many images at once: what the app costs`,
      );
      console.log(
        `around sharp), on the same images in files; medians of ${local.rounds} alternating rounds; CPU = this process's user + system time:`,
      );
      for (const [label, generation] of [
        ['local disk', local],
        ['S3 (s3rver)', onS3],
      ] as const) {
        console.log(
          `  ${label.padEnd(12)} app ${fixed(generation.seconds)} s (${fixed(generation.imagesPerSecond, 1)} images/s, CPU ${fixed(generation.cpuSeconds, 1)} s);` +
            ` bare sharp ${fixed(generation.bareSeconds)} s (CPU ${fixed(generation.bareCpuSeconds, 1)} s); ratio bare / app ${fixed(generation.ratioToBare)} (target >= 1.0)`,
        );
        console.log(
          `  ${''.padEnd(12)} same work in a script ${fixed(generation.sameWorkSeconds)} s (CPU ${fixed(generation.sameWorkCpuSeconds, 1)} s); ratio same work / app ${fixed(generation.ratioToSameWork)}`,
        );
      }
      console.log(
        `  S3 / local disk: ${fixed(onS3.imagesPerSecond / local.imagesPerSecond)} (images/s); machine load (1-minute average) at the end: ${fixed(loadavg()[0]!)}\n`,
      );
    } finally {
      await s3.close();
    }
  },

  async upload() {
    const s3 = await startS3Server('reskin-bench');
    try {
      const local = await benchUpload();
      const onS3 = await benchUpload(s3Env(s3));
      console.log(
        `Upload of ${local.files} files (${fixed(local.megabytes, 0)} MB) in one request to the real server`,
      );
      for (const [label, upload] of [
        ['local disk', local],
        ['S3 (s3rver)', onS3],
      ] as const) {
        console.log(
          `  ${label.padEnd(12)} ${fixed(upload.seconds)} s; server peak RSS ${fixed(upload.serverPeakRssMb, 0)} MB (target < 300 MB: ${upload.underTarget ? 'met' : 'MISSED'})`,
        );
        if (!upload.underTarget) process.exitCode = 1;
      }
      console.log(`  S3 / local disk: ${fixed(onS3.seconds / local.seconds)} (time)\n`);
    } finally {
      await s3.close();
    }
  },

  async api() {
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], {
      cwd: new URL('../../..', import.meta.url).pathname,
      stdio: 'inherit',
    });
    if (build.status !== 0) throw new Error('node scripts/build.mjs failed');
    const up = await postgresUp();
    const apiResults: ApiBenchResult[] = [];
    // BENCH_API_SCALES=1 (a comma list) and BENCH_API_ROUNDS=1 make a quick look; BENCH_API_DATABASES=sqlite one database.
    const scales = (process.env.BENCH_API_SCALES ?? '1,10').split(',').map(Number);
    const rounds = Number(process.env.BENCH_API_ROUNDS ?? 3);
    const databases = (process.env.BENCH_API_DATABASES ?? 'sqlite,postgres').split(',');
    for (const scale of scales) {
      if (databases.includes('sqlite')) apiResults.push(...(await benchApi('sqlite', { scale, rounds })));
      if (up && databases.includes('postgres'))
        apiResults.push(...(await benchApi('postgres', { databaseUrl, scale, rounds })));
    }
    if (!up) console.log(`(PostgreSQL at ${databaseUrl} is unreachable: its API benchmark is skipped)\n`);
    console.log(
      'API under 50 concurrent connections against a bare Fastify route answering the same bytes from memory;',
    );
    console.log(
      'app (production build, LOG_LEVEL=info), baseline and load generator (autocannon) are three processes;',
    );
    console.log(
      `medians of ${apiResults[0]?.rounds ?? 3} alternating rounds of 8 s; data 1x = 1000 users, 200 games, 6000 versions; the artist has 20 games with splash images:`,
    );
    for (const r of apiResults) {
      console.log(
        `  ${r.database.padEnd(8)} ${`${r.scale}x`.padEnd(4)} ${r.call.padEnd(28)} ${fixed(r.app.requestsPerSecond, 0).padStart(6)} req/s, p99 ${fixed(r.app.p99Ms, 0).padStart(4)} ms, ${fixed(r.app.cpuMsPerRequest ?? 0, 3)} ms CPU/req` +
          `   bare ${fixed(r.bare.requestsPerSecond, 0).padStart(6)} req/s, p99 ${fixed(r.bare.p99Ms, 0).padStart(3)} ms` +
          `   ratio ${fixed(r.rpsRatio)} (req/s), ${fixed(r.p99Ratio, 1)}x (p99); bare CPU ${fixed(r.bare.cpuMsPerRequest ?? 0, 3)} ms/req`,
      );
      if (r.app.databaseCpuMsPerRequest !== undefined) {
        console.log(
          `  ${''.padEnd(13)} PostgreSQL's own CPU ${fixed(r.app.databaseCpuMsPerRequest, 3)} ms/req on the same cores (app + database ${fixed((r.app.cpuMsPerRequest ?? 0) + r.app.databaseCpuMsPerRequest, 3)} ms/req)`,
        );
      }
      if (r.floor) {
        console.log(
          `  ${''.padEnd(13)} floor (its reads by its rules in a bare route) ${fixed(r.floor.requestsPerSecond, 0).padStart(6)} req/s, p99 ${fixed(r.floor.p99Ms, 0).padStart(4)} ms,` +
            ` ${fixed(r.floor.cpuMsPerRequest ?? 0, 3)} ms CPU/req; floor / bare ${fixed(r.floor.requestsPerSecond / r.bare.requestsPerSecond)} (req/s), app / floor ${fixed(r.app.requestsPerSecond / r.floor.requestsPerSecond)}`,
        );
        // Requests per second move with whatever else the 2 cores run; CPU time per request hardly does, so the
        // same target is also read as the floor's CPU per request over the app's (1 = the app costs what the floor does).
        // On PostgreSQL the database's CPU per request counts on both sides (it shares the cores).
        const cpuOf = (l: typeof r.app) => (l.cpuMsPerRequest ?? 0) + (l.databaseCpuMsPerRequest ?? 0);
        const cpuRatio = cpuOf(r.floor) / cpuOf(r.app);
        if (r.floor.databaseCpuMsPerRequest !== undefined) {
          console.log(
            `  ${''.padEnd(13)} floor + PostgreSQL's CPU ${fixed(cpuOf(r.floor), 3)} ms/req, app + PostgreSQL's ${fixed(cpuOf(r.app), 3)} ms/req`,
          );
        }
        const rpsRatio = r.app.requestsPerSecond / r.floor.requestsPerSecond;
        console.log(
          `  ${''.padEnd(13)} app / floor: ${fixed(rpsRatio)} by req/s, ${fixed(cpuRatio)} by CPU per request (floor CPU / app CPU; target >= 0.8: ${rpsRatio >= 0.8 ? 'met' : 'MISSED'} by req/s, ${cpuRatio >= 0.8 ? 'met' : 'MISSED'} by CPU)`,
        );
      }
    }
    console.log(
      `  targets: ratio >= 0.5 on SQLite and >= 0.25 on PostgreSQL, p99 < 25 ms (SQLite) and < 50 ms (PostgreSQL)`,
    );
    console.log(`  machine load (1-minute average) at the end: ${fixed(loadavg()[0]!)}\n`);
  },

  async play() {
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], {
      cwd: new URL('../../..', import.meta.url).pathname,
      stdio: 'inherit',
    });
    if (build.status !== 0) throw new Error('node scripts/build.mjs failed');
    const { files, nginx, wire } = await benchPlay({ rounds: Number(process.env.BENCH_PLAY_ROUNDS ?? 3) });
    if (!nginx)
      console.log(
        '(nginx is not installed: its rows are skipped; apt-get install nginx-light to measure them)\n',
      );
    console.log(
      'Game files from the play origin (production build, LOG_LEVEL=info; token, host, access and path checks, cached',
    );
    console.log(
      'file lookup) under 50 connections, against a bare Node file server (node:http + fs.createReadStream, same',
    );
    console.log(
      `headers) and nginx (one worker) on the same stored files; nginx+app = nginx in front of the play origin with`,
    );
    console.log(
      `X-Accel-Redirect (PLAY_ACCEL_REDIRECT). Medians of ${files[0]?.rounds ?? 3} alternating rounds of 5 s, each in its own processes:`,
    );
    console.log(
      'The play origin records which files plays load (PLAY_USAGE, decision 0023); "no usage record" is the same server with it off.',
    );
    const labels: Record<PlayTarget, string> = {
      app: 'play origin',
      'app-no-usage': 'no usage record',
      bare: 'bare file server',
      nginx: 'nginx alone',
      'nginx+app': 'nginx + play origin',
    };
    for (const f of files) {
      console.log(`  ${f.file} (${fixed(f.bytes / 1024, 0)} KB)`);
      for (const [target, r] of Object.entries(f.results) as [
        PlayTarget,
        NonNullable<(typeof f.results)[PlayTarget]>,
      ][]) {
        const cpu =
          r.cpuMsPerRequest === undefined
            ? ''
            : `, ${fixed(r.cpuMsPerRequest, 3)} ms CPU/req${target === 'nginx+app' ? ' (the app)' : ''}`;
        console.log(
          `    ${labels[target].padEnd(20)} ${fixed(r.requestsPerSecond, 0).padStart(6)} req/s, p99 ${fixed(r.p99Ms, 0).padStart(4)} ms${cpu}`,
        );
      }
      const { app, bare, nginx: alone, 'nginx+app': front, 'app-no-usage': plain } = f.results;
      const toPlain = app!.requestsPerSecond / plain!.requestsPerSecond;
      console.log(
        `    usage record on / off ${fixed(toPlain)} (target >= 0.9: ${toPlain >= 0.9 ? 'met' : 'MISSED'})`,
      );
      const toBare = app!.requestsPerSecond / bare!.requestsPerSecond;
      console.log(
        `    play origin / bare file server ${fixed(toBare)} (target >= 0.8: ${toBare >= 0.8 ? 'met' : 'MISSED'})`,
      );
      if (alone && front) {
        const toNginx = front.requestsPerSecond / alone.requestsPerSecond;
        console.log(
          `    nginx + play origin / nginx alone ${fixed(toNginx)} (target >= 0.5: ${toNginx >= 0.5 ? 'met' : 'MISSED'}); play origin alone / nginx alone ${fixed(app!.requestsPerSecond / alone.requestsPerSecond)}`,
        );
        if (alone.cpuMsPerRequest && front.cpuMsPerRequest) {
          const megabytes = f.bytes / 1024 / 1024;
          const perMb = (ms: number) => `${fixed(ms / megabytes, 2)} ms CPU/MB`;
          const ratio = front.cpuMsPerRequest / alone.cpuMsPerRequest;
          console.log(
            `    CPU per MB: nginx alone ${perMb(alone.cpuMsPerRequest)}, nginx + play origin ${perMb(front.cpuMsPerRequest)}, play origin alone ${perMb(app!.cpuMsPerRequest ?? 0)};` +
              ` nginx + play origin / nginx alone ${fixed(ratio)} (target <= 3: ${ratio <= 3 ? 'met' : 'MISSED'})`,
          );
        }
      }
    }
    const js = (w: { encoding: string; bytes: number }) =>
      `${fixed(w.bytes / 1024 / 1024, 2)} MB (${w.encoding})`;
    const under = wire.app.bytes < 1.5 * 1024 * 1024;
    console.log(
      `  lib/framework.js (${fixed(wire.bytes / 1024 / 1024, 2)} MB) on the wire: play origin ${js(wire.app)}, gzip only ${js(wire.appGzip)}` +
        `${wire.nginx ? `, nginx alone (gzip) ${js(wire.nginx)}` : ''}${wire.nginxApp ? `, nginx + play origin ${js(wire.nginxApp)}` : ''} (target < 1.5 MB: ${under ? 'met' : 'MISSED'})`,
    );
    console.log(`  machine load (1-minute average) at the end: ${fixed(loadavg()[0]!)}\n`);
  },

  async login() {
    const login = await benchLoginTiming();
    console.log(
      `A wrong password, ${login.attempts} times each, on SQLite (every login runs one argon2 verification):`,
    );
    console.log(`  known email:       median ${fixed(login.knownMedianMs, 0)} ms`);
    console.log(`  unknown email:     median ${fixed(login.unknownMedianMs, 0)} ms`);
    console.log(`  ratio unknown / known: ${fixed(login.unknownMedianMs / login.knownMedianMs)}\n`);
  },

  async atlases() {
    const r = await benchAtlases();
    console.log(
      `Sprite sheets, a 2048x2048 PNG sheet drawn like art; medians of ${r.rounds} alternating rounds in this process:`,
    );
    const met = r.composeRatio >= 0.7;
    console.log(
      `  one 64x64 frame replaced: composeSheet ${fixed(r.composeMs, 0)} ms (CPU ${fixed(r.composeCpuMs, 0)} ms); one sharp composite of the frame in a script`,
    );
    console.log(
      `  ${fixed(r.bareComposeMs, 0)} ms (CPU ${fixed(r.bareComposeCpuMs, 0)} ms); ratio composite / composeSheet ${fixed(r.composeRatio)} (target >= 0.7: ${met ? 'met' : 'MISSED'})`,
    );
    console.log(
      `  watermarked copy with a mark in each of ${r.frames} frames of ${r.frames} sizes: ${fixed(r.frameMarksFirstMs, 0)} ms, CPU ${fixed(r.frameMarksFirstCpuMs, 0)} ms (no mark`,
    );
    console.log(
      `  rendered before); ${fixed(r.frameMarksAgainMs, 0)} ms, CPU ${fixed(r.frameMarksAgainCpuMs, 0)} ms (sizes rendered before); the tiled mark over the same sheet`,
    );
    console.log(`  ${fixed(r.tiledMarkMs, 0)} ms, CPU ${fixed(r.tiledMarkCpuMs, 0)} ms`);
    console.log(
      `  GET /api/games/{id}/atlases of a game with a ${r.frames}-frame TexturePacker descriptor (${fixed(r.answerKb, 0)} KB answer, app.inject on SQLite):`,
    );
    console.log(
      `  first call ${fixed(r.firstCallMs, 1)} ms (descriptor read, parsed in ${fixed(r.parseMs, 1)} ms, resolved), kept answer ${fixed(r.keptCallMs, 1)} ms; first / kept ${fixed(r.firstCallMs / r.keptCallMs, 1)}x`,
    );
    console.log(`  machine load (1-minute average) at the end: ${fixed(loadavg()[0]!)}\n`);
    if (!met) process.exitCode = 1;
  },

  async fit() {
    const r = await benchFit();
    const met = r.ratio >= 0.8;
    console.log(
      `Fitting ${r.images} images at 2x: PNG exports of 64 to 1024 px a side fitted (cover, lanczos3) to their originals`,
    );
    console.log(
      `and written as PNG, JPEG or WebP, as many at once as sharp has threads; medians of ${r.rounds} alternating rounds:`,
    );
    console.log(
      `  fitImage (lib/images/image-fit.ts) ${fixed(r.seconds)} s (CPU ${fixed(r.cpuSeconds, 1)} s); bare sharp, the same resizes ${fixed(r.bareSeconds)} s`,
    );
    console.log(
      `  (CPU ${fixed(r.bareCpuSeconds, 1)} s); ratio bare / fitImage ${fixed(r.ratio)} (target >= 0.8: ${met ? 'met' : 'MISSED'})`,
    );
    console.log(`  machine load (1-minute average) at the end: ${fixed(loadavg()[0]!)}\n`);
    if (!met) process.exitCode = 1;
  },

  async audio() {
    const r = await benchAudio();
    console.log(
      `Sound conversion (decision 0029): one minute of 44.1 kHz stereo WAV (${fixed(r.wavMb, 1)} MB) through convertAudio`,
    );
    console.log(
      `(a worker thread, the WebAssembly ffmpeg compiled once per process) against the same ffmpeg with the same arguments`,
    );
    console.log(
      `run from a shell (a new process each run: bench/ffmpeg-cli.mjs by execFile); medians of ${r.rounds} alternating rounds:`,
    );
    for (const row of r.rows) {
      console.log(
        `  to ${row.target.toUpperCase().padEnd(4)} convertAudio ${fixed(row.appMs, 0).padStart(5)} ms, shell ${fixed(row.shellMs, 0).padStart(5)} ms;` +
          ` ratio shell / convertAudio ${fixed(row.ratio)} (1 = as fast); ${fixed(row.outputKb, 0)} KB`,
      );
    }
    console.log(`  machine load (1-minute average) at the end: ${fixed(loadavg()[0]!)}\n`);
  },

  async zipUpload() {
    const unzipCli = spawnSync('unzip', ['-v'], { stdio: 'ignore' });
    if (unzipCli.error || unzipCli.status !== 0) {
      console.log(
        '(the unzip CLI is not installed: the zip upload benchmark is skipped; apt-get install unzip to measure it)\n',
      );
      return;
    }
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], {
      cwd: new URL('../../..', import.meta.url).pathname,
      stdio: 'inherit',
    });
    if (build.status !== 0) throw new Error('node scripts/build.mjs failed');
    const r = await benchZipUpload();
    console.log(
      `Zip upload (POST /game/upload-zip) of ${r.files} files in a ${fixed(r.zipMegabytes, 0)} MB zip to the production server (local disk)`,
    );
    console.log(
      `against cp + unzip -q of the same zip into a fresh folder; medians of ${r.rounds} alternating rounds:`,
    );
    console.log(
      `  app ${fixed(r.appSeconds)} s, cp + unzip ${fixed(r.bareSeconds)} s; app / cp + unzip ${fixed(r.ratio)} (target <= 4)\n`,
    );
  },

  async versionZip() {
    const zipCli = spawnSync('zip', ['-v'], { stdio: 'ignore' });
    if (zipCli.error || zipCli.status !== 0) {
      console.log(
        '(the zip CLI is not installed: the version zip benchmark is skipped; apt-get install zip to measure it)\n',
      );
      return;
    }
    const r = await benchVersionZip();
    const met = r.ratio >= 1.0;
    console.log(
      `Version zip: ${r.images} PNG images of 64 to 256 px a side with grain (${fixed(r.megabytes, 1)} MB) on local disk, zipped`,
    );
    console.log(
      `by zipStoredFiles (PNG stored, not deflated again) to a file, against \`zip -q -r\` of the same files; medians of ${r.rounds} alternating rounds:`,
    );
    console.log(
      `  version zip ${fixed(r.seconds)} s (CPU ${fixed(r.cpuSeconds, 1)} s, ${fixed(r.zipMegabytes, 1)} MB); zip CLI ${fixed(r.cliSeconds)} s (${fixed(r.cliMegabytes, 1)} MB)`,
    );
    console.log(`  ratio zip CLI / version zip ${fixed(r.ratio)} (target >= 1.0: ${met ? 'met' : 'MISSED'})`);
    console.log(`  machine load (1-minute average) at the end: ${fixed(loadavg()[0]!)}\n`);
    if (!met) process.exitCode = 1;
  },

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

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in benchmarks));
if (unknown.length > 0) {
  console.error(
    `Unknown benchmark ${unknown.join(', ')}: choose from ${Object.keys(benchmarks).join(', ')} (none: all).`,
  );
  process.exit(2);
}
console.log('Reskin Studio benchmarks\n');
for (const [name, run] of Object.entries(benchmarks)) {
  if (chosen.length === 0 || chosen.includes(name)) await run();
}
