// A frame upload as an artist feels it (decision 0061): one frame of a generated game's 4096x4096 sprite sheet of
// 1,000 frames replaced in a version through the production server, against one bare sharp composite of that rect
// onto that sheet (decode the sheet, composite the frame, encode PNG) in this process.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { AtlasFrame, FrameUpload, GameFile } from '@reskin/contract';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { variantKey } from '../src/lib/images/copy-keys';
import type { FrameRect } from '../src/lib/images/marks';
import { decodePixels } from '../src/lib/images/pixels';
import { composeSheet, type FrameReplacement } from '../src/modules/versions/sheets/compose-sheet';
import { median } from './api.bench';
import { artSheet, packedFrames, texturePackerDescriptor } from './atlases.bench';
import { Preparation, artistPassword, benchAdmin } from './browser-support';
import { startProductionServer } from './production-server';

const sheetSize = 4096;
const frameCount = 1000;

export interface FrameUploadResult {
  sheetSize: number;
  frames: number;
  sheetMegabytes: number;
  rounds: number;
  /** POST /game-version/upload-frame, each round another frame (medians, ms). */
  appMs: number;
  /** sharp(sheet).composite(frame at its rect).png().toBuffer() (medians, ms). */
  bareMs: number;
  /** app / bare, the median of each round's (target <= 1.3). */
  ratio: number;
  /** The server's CPU per upload, all threads (medians, ms; /proc, 10 ms ticks). */
  appCpuMs: number;
  /** The server's CPU for the sheet's first frame in the version (the unmeasured first round, ms). */
  firstUploadCpuMs: number;
  /** That upload's answer, as the artist waits for it (the server's first request of the run, ms). */
  firstUploadMs: number;
  /**
   * CPU of the bare composite, and of the app's two compositions (composeSheet) in this process as the server makes
   * them, from the previous composition with all frames so far (medians, ms).
   */
  bareCpuMs: number;
  deliveredCpuMs: number;
  markedCpuMs: number;
  /** The same two compositions of the sheet's first frame: every band drawn on the base (ms). */
  firstDeliveredCpuMs: number;
  firstMarkedCpuMs: number;
  serverStartupMs: number;
}

/** Milliseconds of wall time and of this process's CPU (sharp's threads included), and the work's result. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; cpuMs: number; result: T }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, result };
}

/**
 * CPU the server process has used so far, all its threads (ms; Linux's /proc, in clock ticks of 10 ms): a figure
 * that a loaded machine stretches less than wall time. NaN where there is no /proc.
 */
function serverCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are the 14th and 15th fields of the line, the 12th and 13th after the command's name.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** The atlas frame of a packed rect (no trim, no rotation), as the descriptor resolves it. */
const atlasFrame = (name: string, rect: FrameRect): AtlasFrame => ({
  name,
  page: 0,
  rect,
  rotated: false,
  rotation: 0,
  trimmed: false,
  sourceSize: { w: rect.w, h: rect.h },
  offset: { x: 0, y: 0 },
  pivot: null,
});

/** A frame as an artist draws it: its rect's size, a colour and grain. */
function artistFrame(rect: FrameRect, seed: number): Promise<Buffer> {
  return sharp({
    create: {
      width: rect.w,
      height: rect.h,
      channels: 4,
      background: { r: (seed * 53) % 256, g: 120, b: (seed * 97) % 256, alpha: 0.9 },
      noise: { type: 'gaussian', mean: 128, sigma: 20 },
    },
  })
    .png()
    .toBuffer();
}

/**
 * A game whose art is one 4096x4096 PNG sheet of 1,000 frames (a TexturePacker descriptor), generated (so the
 * version serves its marked rendition too, decision 0049), an artist with a version of it; prepared through the
 * real app, then served by the production server. Each round an artist replaces one more frame of the sheet and
 * the bench composites the same frame onto the original sheet with sharp, alternating which goes first.
 */
export async function benchFrameUpload(rounds = 7): Promise<FrameUploadResult> {
  const sheet = await artSheet(sheetSize, 1600);
  const frames = packedFrames(frameCount, sheetSize);
  const dataDir = mkdtempSync(join(tmpdir(), 'reskin-bench-frames-'));
  let prepared: { versionId: number; sheetId: number; artistEmail: string; watermarkKey: string };
  const built = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: benchAdmin.email,
      ADMIN_PASSWORD: benchAdmin.password,
    }),
  );
  try {
    const preparation = new Preparation(built);
    await preparation.loginAdmin();
    const game = await preparation.uploadedGame(
      'Sheet bench',
      [
        { path: 'index.html', content: Buffer.from('<!doctype html><img src="art/sheet.png">') },
        { path: 'art/sheet.png', content: sheet },
        {
          path: 'art/sheet.json',
          content: Buffer.from(texturePackerDescriptor(frames, 'sheet.png', sheetSize)),
        },
      ],
      'index.html',
    );
    await preparation.generate([game.id]);
    const [artist] = await preparation.createArtists(1, 'frame-bench-');
    const userGame = await preparation.assign(artist!.id, game.id);
    const version = await preparation.createVersion(
      await preparation.login(artist!.email, artistPassword),
      userGame,
      'Frames',
    );
    const files = await preparation.request<GameFile[]>('GET', `/games/${game.id}/files`);
    const sheetId = files.find((file) => file.path === 'art/sheet.png')!.fileId;
    const { copiesKey } = await preparation.db
      .selectFrom('gameFiles')
      .select('copiesKey')
      .where('gameId', '=', game.id)
      .where('fileId', '=', sheetId)
      .executeTakeFirstOrThrow();
    prepared = {
      versionId: version.id,
      sheetId,
      artistEmail: artist!.email,
      watermarkKey: variantKey(copiesKey!, 'watermark'),
    };
  } finally {
    await built.app.close();
  }

  const server = await startProductionServer(dataDir);
  try {
    const login = await fetch(`${server.base}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: prepared.artistEmail, password: artistPassword }),
    });
    const auth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
    const uploadCpu: number[] = [];
    const upload = async (index: number, frame: Buffer) => {
      const body = new FormData();
      body.append('frame', `sprite_${String(index).padStart(3, '0')}.png`);
      body.append('file', new Blob([new Uint8Array(frame)]), 'frame.png');
      const cpuBefore = serverCpuMs(server.server.pid);
      const started = performance.now();
      const response = await fetch(
        `${server.base}/game-version/upload-frame/${prepared.versionId}/${prepared.sheetId}`,
        { method: 'POST', headers: auth, body },
      );
      if (!response.ok) throw new Error(`frame upload failed: ${response.status} ${await response.text()}`);
      (await response.json()) as FrameUpload;
      const ms = performance.now() - started;
      uploadCpu.push(serverCpuMs(server.server.pid) - cpuBefore);
      return ms;
    };
    const bare = (rect: FrameRect, frame: Buffer) =>
      timed(() =>
        sharp(sheet)
          .composite([{ input: frame, left: rect.x, top: rect.y }])
          .png()
          .toBuffer(),
      );
    const watermarked = await readFile(join(dataDir, 'files', ...prepared.watermarkKey.split('/')));
    // The app's own steps here, one after the other, as the server makes them: the version's frames so far composed
    // on the original, then on the watermarked copy, each from its previous composition.
    const replacements: FrameReplacement[] = [];
    const previous: { delivered?: Buffer; marked?: Buffer } = {};
    const compositions = async (index: number, frame: Buffer) => {
      replacements.push({
        frame: atlasFrame(`sprite_${index}`, frames[index]!),
        pixels: await decodePixels(frame, 'png'),
      });
      const delivered = await timed(() => composeSheet(sheet, 'sheet.png', replacements, previous.delivered));
      const marked = await timed(() => composeSheet(watermarked, 'sheet.png', replacements, previous.marked));
      [previous.delivered, previous.marked] = [delivered.result, marked.result];
      return { delivered, marked };
    };
    // One of each first (sharp's first encode loads its libraries; the server's first request too): the sheet's
    // first frame, whose compositions draw every band.
    const firstUploadMs = await upload(0, await artistFrame(frames[0]!, 0));
    await bare(frames[0]!, await artistFrame(frames[0]!, 0));
    const first = await compositions(0, await artistFrame(frames[0]!, 0));
    const app: number[] = [];
    const baseline: { ms: number; cpuMs: number }[] = [];
    const steps: Awaited<ReturnType<typeof compositions>>[] = [];
    for (let round = 1; round <= rounds; round++) {
      const index = round * 97;
      const frame = await artistFrame(frames[index]!, round);
      if (round % 2 === 0) {
        app.push(await upload(index, frame));
        baseline.push(await bare(frames[index]!, frame));
      } else {
        baseline.push(await bare(frames[index]!, frame));
        app.push(await upload(index, frame));
      }
      steps.push(await compositions(index, frame));
    }
    return {
      sheetSize,
      frames: frames.length,
      sheetMegabytes: sheet.length / 1024 / 1024,
      rounds,
      appMs: median(app),
      bareMs: median(baseline.map((run) => run.ms)),
      ratio: median(app.map((ms, i) => ms / baseline[i]!.ms)),
      appCpuMs: median(uploadCpu.slice(1)),
      firstUploadCpuMs: uploadCpu[0]!,
      firstUploadMs,
      bareCpuMs: median(baseline.map((run) => run.cpuMs)),
      deliveredCpuMs: median(steps.map((step) => step.delivered.cpuMs)),
      markedCpuMs: median(steps.map((step) => step.marked.cpuMs)),
      firstDeliveredCpuMs: first.delivered.cpuMs,
      firstMarkedCpuMs: first.marked.cpuMs,
      serverStartupMs: server.startupMs,
    };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
