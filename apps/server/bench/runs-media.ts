// The media benchmarks of npm run bench (index.ts): atlases, fitting, audio, zip upload, version zip, the batch.
import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { limits } from '@reskin/contract';
import { benchAtlases } from './atlases.bench';
import { benchBatchExact, benchBatchFit } from './batch.bench';
import { benchFit } from './fit.bench';
import { benchFrameUpload } from './frame-upload.bench';
import { benchAudio } from './audio.bench';
import { benchVersionZip } from './version-zip.bench';
import { benchZipUpload } from './zip-upload.bench';
import { buildProduction } from './browser-support';
import { profileTop } from './production-server';
import { fixed } from './run-support';

export const mediaRuns: Record<string, () => Promise<void>> = {
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
      `  (composeSheet from the version's previous composition, decision 0061; the sheet's first composition ${fixed(r.composeFirstMs, 0)} ms, CPU ${fixed(r.composeFirstCpuMs, 0)} ms)`,
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
    buildProduction();
    const { rows, serverStartupMs } = await benchZipUpload();
    console.log(
      'Zip upload (POST /game/upload-zip, decision 0061) to the production server (SQLite, local disk) against cp + unzip -q',
    );
    console.log(
      'of the same zip into a fresh folder; medians of alternating rounds, target app / cp + unzip <= 4:',
    );
    let missed = false;
    for (const row of rows) {
      const met = row.ratio <= 4;
      missed ||= !met;
      console.log(
        `  ${row.label.padEnd(13)} ${String(row.files).padStart(4)} files, ${fixed(row.zipMegabytes, 0).padStart(3)} MB zip: app ${fixed(row.appSeconds)} s,` +
          ` cp + unzip ${fixed(row.bareSeconds)} s; ${fixed(row.ratio)}x (${row.rounds} rounds: ${met ? 'met' : 'MISSED'})`,
      );
    }
    printProfile(serverStartupMs);
    console.log(`  machine load (1-minute average) at the end: ${fixed(loadavg()[0]!)}\n`);
    if (missed) process.exitCode = 1;
  },

  async frameUpload() {
    buildProduction();
    const r = await benchFrameUpload();
    const met = r.ratio <= 1.3;
    console.log(
      `Frame upload (decision 0061): one frame of a generated game's ${r.sheetSize}x${r.sheetSize} PNG sheet of ${r.frames} frames (${fixed(r.sheetMegabytes, 1)} MB)`,
    );
    console.log(
      'replaced in a version through the production server (POST /game-version/upload-frame, another frame each round),',
    );
    console.log(
      `against one sharp composite of the frame onto the sheet (decode, composite, encode PNG); medians of ${r.rounds} alternating rounds:`,
    );
    console.log(
      `  frame upload ${fixed(r.appMs, 0)} ms, bare composite ${fixed(r.bareMs, 0)} ms; upload / composite ${fixed(r.ratio)} (target <= 1.3: ${met ? 'met' : 'MISSED'})`,
    );
    console.log(
      `  CPU: the server's per upload ${fixed(r.appCpuMs, 0)} ms (all its threads), the bare composite's ${fixed(r.bareCpuMs, 0)} ms: ${fixed(r.appCpuMs / r.bareCpuMs, 2)}x`,
    );
    console.log(`  CPU in this process of the upload's two compositions (composeSheet, decision 0049)`);
    console.log(
      `  from the previous ones, only the bands of rows the frame crosses drawn again (decision 0061): on the original`,
    );
    console.log(
      `  ${fixed(r.deliveredCpuMs, 0)} ms, on the watermarked copy ${fixed(r.markedCpuMs, 0)} ms (together ${fixed((r.deliveredCpuMs + r.markedCpuMs) / r.bareCpuMs, 2)}x the bare's CPU); a sheet's first frame`,
    );
    console.log(
      `  draws every band: ${fixed(r.firstDeliveredCpuMs, 0)} ms and ${fixed(r.firstMarkedCpuMs, 0)} ms (that upload took ${fixed(r.firstUploadMs, 0)} ms, the server's CPU ${fixed(r.firstUploadCpuMs, 0)} ms)`,
    );
    if (!met)
      console.log(
        "  why missed: the compositions are a fraction of the bare's CPU; see the server's profile below for the rest of the request",
      );
    printProfile(r.serverStartupMs);
    console.log(`  machine load (1-minute average) at the end: ${fixed(loadavg()[0]!)}\n`);
    if (!met) process.exitCode = 1;
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

  async batchFit() {
    const r = await benchBatchFit();
    const met = r.ratio <= 1.5;
    console.log(
      `Batch replace (POST /game-versions/{id}/batch, the production server on SQLite, local disk): ${r.images} PNG exports`,
    );
    console.log(
      `at 2x (${fixed(r.incomingMegabytes, 0)} MB) fitted (cover) to PNG, JPEG and WebP originals, against bare sharp doing the same`,
    );
    console.log(
      `resizes in a Promise pool of availableParallelism (${availableParallelism()}); medians of ${r.rounds} alternating rounds:`,
    );
    console.log(
      `  batch ${fixed(r.batchSeconds)} s, bare sharp ${fixed(r.bareSeconds)} s; batch / bare ${fixed(r.ratio)} (goal <= 1.5: ${met ? 'met' : 'MISSED'})`,
    );
    console.log(
      `  of the batch: sending its ${fixed(r.incomingMegabytes, 0)} MB body over loopback ${fixed(r.bodySeconds)} s (the client shares the 2 cores), the server's`,
    );
    console.log(
      `  work after the body ${fixed(r.afterBodySeconds)} s; after the body / bare ${fixed(r.afterBodyRatio)} (the server's own work; 1 = as fast as bare sharp)`,
    );
    if (!met)
      console.log(
        "  why missed (decision 0060, with the server's profile): the body's transfer comes before any row is planned, and the lanes wait for the disk's syncs",
      );
    console.log(`  machine load (1-minute average) at the end: ${fixed(loadavg()[0]!)}\n`);
    if (!met) process.exitCode = 1;
  },

  async batchExact() {
    const r = await benchBatchExact();
    const met = r.ratio <= 2;
    console.log(
      `Batch replace of ${r.images} images of their originals' size and format (one ${fixed(r.zipMegabytes, 0)} MB .zip) against the game`,
    );
    console.log(
      `zip upload (POST /game/upload-zip) of the same files to a new game in ${r.zipRequests} zips (the route takes ${limits.adminUploadFiles} entries),`,
    );
    console.log(`the production server on SQLite, local disk; medians of ${r.rounds} alternating rounds:`);
    console.log(
      `  batch ${fixed(r.batchSeconds)} s (${fixed((r.batchSeconds * 1000) / r.images, 1)} ms a row), zip upload ${fixed(r.zipUploadSeconds)} s (${fixed((r.zipUploadSeconds * 1000) / r.images, 1)} ms a file); batch / zip upload ${fixed(r.ratio)} (goal <= 2: ${met ? 'met' : 'MISSED'})`,
    );
    if (!met)
      console.log(
        "  why missed (decision 0060, with the server's profile: BENCH_CPU_PROFILE): a row does what a zip's file does and more (its history copy linked, the object it replaces and its previews deleted, its version rules), and its lanes wait for the disk that other work shares",
      );
    const profileDir = process.env.BENCH_CPU_PROFILE || process.env.BENCH_CPU_PROF;
    if (profileDir) {
      console.log(
        `  the server's CPU profile (${profileDir}) during the timed batches, self time of the busy samples:`,
      );
      for (const line of profileTop(profileDir, 15, 0, r.batchWindows)) console.log(`    ${line}`);
    }
    console.log(`  machine load (1-minute average) at the end: ${fixed(loadavg()[0]!)}\n`);
    if (!met) process.exitCode = 1;
  },
};

/**
 * With BENCH_CPU_PROFILE=<folder>, the server's CPU profile (node --cpu-prof) of the run after its start-up: the top
 * entries by self time.
 */
function printProfile(startupMs: number): void {
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return;
  console.log(
    `  the server's CPU profile (${dir}), main thread after start-up, self time of its busy samples:`,
  );
  for (const line of profileTop(dir, 12, startupMs)) console.log(`    ${line}`);
}
