// The server benchmarks of npm run bench (index.ts): generation, uploads, the API under load, play, login, takeover.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { benchApi, type ApiBenchResult } from './api.bench';
import { benchGeneration } from './generation.bench';
import { benchLoginTiming } from './login.bench';
import { benchPlay, type PlayTarget } from './play.bench';
import { benchTakeover, takeoverGoalSeconds } from './takeover.bench';
import { benchUpload } from './upload.bench';
import { startS3Server } from '../test/support/s3-server';
import { databaseUrl, fixed, postgresUp, s3Env } from './run-support';

export const serverRuns: Record<string, () => Promise<void>> = {
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
    // Other work on the machine moves every figure, CPU per request too: the load is printed at the start and the end.
    const loadAtStart = loadavg()[0]!;
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
      `medians of ${apiResults[0]?.rounds ?? 3} alternating rounds of 8 s after ${apiResults[0]?.warmupSeconds ?? 0} s of unmeasured load on each server; data 1x = 1000 users, 200 games, 6000 versions; the artist has 20 games with splash images:`,
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
    console.log(
      `  machine load (1-minute average) at the start: ${fixed(loadAtStart)}, at the end: ${fixed(loadavg()[0]!)} (2 cores)\n`,
    );
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

  async takeover() {
    if (!(await postgresUp())) {
      console.log(`(PostgreSQL at ${databaseUrl} is unreachable: the takeover benchmark is skipped)\n`);
      return;
    }
    const loadBefore = loadavg()[0]!;
    // BENCH_TAKEOVER_IMAGES and BENCH_TAKEOVER_SIZE (px a side): a bigger game makes a longer job, bigger images
    // longer slices (the kill comes once a third of the job is done).
    const r = await benchTakeover({
      databaseUrl,
      images: Number(process.env.BENCH_TAKEOVER_IMAGES ?? 120),
      size: Number(process.env.BENCH_TAKEOVER_SIZE ?? 1000),
    });
    const live = (r.liveSeconds[0] + r.liveSeconds[1]) / 2;
    const extra = r.takeoverSeconds - live;
    const met = extra <= takeoverGoalSeconds;
    console.log(
      `A killed server's generation job on PostgreSQL: two production servers (node scripts/start.mjs) on one new database,`,
    );
    console.log(
      `a game of ${r.images} images (about ${r.size} px a side) generated on A with both alive, then the same images again with A`,
    );
    console.log(
      'killed (SIGKILL) while it holds the job a third of the way through, then again on B; times read through B:',
    );
    console.log(
      `  job on a live server: Gen. to Ready ${fixed(r.liveSeconds[0], 1)} s on A before the kill, ${fixed(r.liveSeconds[1], 1)} s on B after it (mean ${fixed(live, 1)} s)`,
    );
    console.log(
      `  A killed ${fixed(r.killedAfterSeconds, 1)} s after Gen. (${r.doneAtKill}/${r.images} done): B took it over ${fixed(r.takenAfterKillSeconds, 1)} s after the kill, progress moved ${fixed(r.movedAfterKillSeconds, 1)} s after it, Ready ${fixed(r.readyAfterKillSeconds, 1)} s after it`,
    );
    console.log(
      `  Gen. to Ready with the kill ${fixed(r.takeoverSeconds, 1)} s: ratio ${fixed(r.takeoverSeconds / live)}, ${fixed(extra, 1)} s more than the live job (target <= ${takeoverGoalSeconds} s more: ${met ? 'met' : 'MISSED'})`,
    );
    console.log(
      `  machine load (1-minute average) before ${fixed(loadBefore)}, at the end ${fixed(loadavg()[0]!)}\n`,
    );
    if (!met) process.exitCode = 1;
  },
};
