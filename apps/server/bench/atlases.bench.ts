import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { AtlasFrame, Game, GameAtlases } from '@reskin/contract';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { forgetRenderedTiles, type FrameRect } from '../src/lib/images/marks';
import { makeWatermark } from '../src/lib/images/variants';
import { parseAtlasDescriptor } from '../src/modules/atlases/atlas-parsers';
import { decodePixels } from '../src/lib/images/pixels';
import { composeSheet } from '../src/modules/versions/sheets/compose-sheet';
import { median } from './api.bench';

const sheetSize = 2048;

/** A sheet drawn like art (a gradient and coloured circles: 400 on 2048x2048), so it compresses as a real sheet does. */
export async function artSheet(size = sheetSize, circles = 400): Promise<Buffer> {
  const shapes = Array.from(
    { length: circles },
    (_, i) =>
      `<circle cx="${(i * 197) % size}" cy="${(i * 331) % size}" r="${10 + (i % 40)}" fill="hsl(${(i * 37) % 360},70%,55%)"/>`,
  ).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">` +
    `<defs><linearGradient id="g"><stop offset="0" stop-color="#234"/><stop offset="1" stop-color="#9ab"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * 500 frames packed row by row with 2 px of padding, of mixed sizes from 12x12 to 120x110, no two of one size (as
 * a packer's trimmed sprites are): the worst case for the watermark, which renders each size's mark once.
 */
export function packedFrames(count = 500, size = sheetSize): FrameRect[] {
  const frames: FrameRect[] = [];
  let x = 2;
  let y = 2;
  let rowHeight = 0;
  for (let i = 0; frames.length < count; i++) {
    const w = 12 + ((i * 37) % 109);
    const h = 12 + ((i * 53) % 99);
    if (x + w + 2 > size) [x, y, rowHeight] = [2, y + rowHeight + 2, 0];
    if (y + h + 2 > size) throw new Error('the frames do not fit the sheet');
    frames.push({ x, y, w, h });
    x += w + 2;
    rowHeight = Math.max(rowHeight, h);
  }
  return frames;
}

/** A TexturePacker JSON hash of the frames on `image`. */
export function texturePackerDescriptor(frames: FrameRect[], image: string, size = sheetSize): string {
  return JSON.stringify({
    frames: Object.fromEntries(
      frames.map((rect, i) => [
        `sprite_${String(i).padStart(3, '0')}.png`,
        {
          frame: rect,
          rotated: false,
          trimmed: false,
          spriteSourceSize: { x: 0, y: 0, w: rect.w, h: rect.h },
          sourceSize: { w: rect.w, h: rect.h },
        },
      ]),
    ),
    meta: {
      app: 'https://www.codeandweb.com/texturepacker',
      image,
      format: 'RGBA8888',
      size: { w: size, h: size },
      scale: '1',
    },
  });
}

/** Milliseconds of wall time and of this process's CPU time (sharp's threads included). */
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

export interface AtlasesBenchResult {
  rounds: number;
  frames: number;
  /** composeSheet with one replaced 64x64 frame, and one sharp composite of the same frame in a script (medians). */
  composeMs: number;
  composeCpuMs: number;
  bareComposeMs: number;
  bareComposeCpuMs: number;
  /** Rate of composeSheet over the bare composite's (1 = as fast). */
  composeRatio: number;
  /** The sheet's first composition (every band drawn on the base, decision 0061): one run after the warm-up. */
  composeFirstMs: number;
  composeFirstCpuMs: number;
  /** The watermarked copy of the sheet with a mark per frame (first: no mark rendered before; again: sizes kept), and with the tiled mark. */
  frameMarksFirstMs: number;
  frameMarksFirstCpuMs: number;
  frameMarksAgainMs: number;
  frameMarksAgainCpuMs: number;
  tiledMarkMs: number;
  tiledMarkCpuMs: number;
  /** GET /api/games/{id}/atlases: the first call (descriptor read and parsed) and the kept answer (median of 20 calls a round). */
  firstCallMs: number;
  keptCallMs: number;
  /** parseAtlasDescriptor alone on the 500-frame descriptor (median). */
  parseMs: number;
  answerKb: number;
}

/**
 * Sprite sheets: composing a 2048x2048 sheet after one frame changes against one sharp composite of the
 * frame in a script; the watermark of a 500-frame sheet; and the atlases a workbench of 500 frames loads, found once
 * and kept. Alternating rounds, medians.
 */
export async function benchAtlases(rounds = 9): Promise<AtlasesBenchResult> {
  const sheet = await artSheet();
  const frames = packedFrames();
  const frame: AtlasFrame = {
    name: 'hero',
    page: 0,
    rect: { x: 500, y: 700, w: 64, h: 64 },
    rotated: false,
    rotation: 0,
    trimmed: false,
    sourceSize: { w: 64, h: 64 },
    offset: { x: 0, y: 0 },
    pivot: null,
  };
  const replacement = await sharp({
    create: { width: 64, height: 64, channels: 4, background: { r: 255, g: 40, b: 0, alpha: 0.8 } },
  })
    .png()
    .toBuffer();
  // The app decodes an artist's frame once, as it arrives (decision 0055).
  const replacementPixels = await decodePixels(replacement, 'png');

  // One warm-up of each (sharp's first PNG encode and first text rendering load their libraries). The frame is
  // replaced in a version that has it already (another image of it): composed from that composition, as the
  // server does (decision 0061).
  const earlierPixels = await decodePixels(
    await sharp({ create: { width: 64, height: 64, channels: 4, background: '#0a6' } })
      .png()
      .toBuffer(),
    'png',
  );
  await composeSheet(sheet, 'sheet.png', [{ frame, pixels: earlierPixels }]);
  const composeFirst = await timed(() =>
    composeSheet(sheet, 'sheet.png', [{ frame, pixels: earlierPixels }]),
  );
  const earlier = await composeSheet(sheet, 'sheet.png', [{ frame, pixels: earlierPixels }]);
  await makeWatermark(sheet, 'sheet.png', 'Reskin Studio', frames.slice(0, 5));
  const compose: { app: { ms: number; cpuMs: number }; bare: { ms: number; cpuMs: number } }[] = [];
  const marks: {
    first: { ms: number; cpuMs: number };
    again: { ms: number; cpuMs: number };
    tiled: { ms: number; cpuMs: number };
  }[] = [];
  for (let round = 0; round < rounds; round++) {
    const app = await timed(() =>
      composeSheet(sheet, 'sheet.png', [{ frame, pixels: replacementPixels }], earlier),
    );
    const bare = await timed(() =>
      sharp(sheet)
        .composite([{ input: replacement, left: frame.rect.x, top: frame.rect.y }])
        .png()
        .toBuffer(),
    );
    compose.push({ app, bare });
    forgetRenderedTiles();
    const first = await timed(() => makeWatermark(sheet, 'sheet.png', 'Reskin Studio', frames));
    const again = await timed(() => makeWatermark(sheet, 'sheet.png', 'Reskin Studio', frames));
    const tiled = await timed(() => makeWatermark(sheet, 'sheet.png', 'Reskin Studio'));
    marks.push({ first, again, tiled });
  }

  const descriptor = texturePackerDescriptor(frames, 'sheet.png');
  const parses: number[] = [];
  for (let i = 0; i < rounds; i++)
    parses.push((await timed(async () => parseAtlasDescriptor(descriptor))).ms);

  const dataDir = mkdtempSync(join(tmpdir(), 'reskin-bench-'));
  const { app } = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'bench@example.com',
      ADMIN_PASSWORD: 'bench-pass-1',
    }),
  );
  const calls: { first: number; kept: number }[] = [];
  let answerBytes = 0;
  try {
    const login = await app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'bench@example.com', password: 'bench-pass-1' },
    });
    const auth = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
    for (let round = 0; round < Math.min(rounds, 5); round++) {
      // A new game each round: its first call finds the atlas anew.
      const game = (
        await app.inject({
          method: 'POST',
          url: '/api/games',
          headers: auth,
          payload: { name: `Sheets ${round}`, description: 'x', width: 640, height: 480 },
        })
      ).json<Game>();
      const body = new FormData();
      for (const [path, content] of [
        ['art/sheet.json', descriptor],
        ['art/sheet.png', sheet],
      ] as const) {
        body.append('fullPath', path);
        body.append('file', new Blob([content]), path);
      }
      const uploaded = await app.inject({
        method: 'POST',
        url: `/api/game/upload/${game.id}`,
        headers: auth,
        payload: body,
      });
      if (uploaded.statusCode !== 200) throw new Error(`upload failed: ${uploaded.body}`);
      const get = () => app.inject({ method: 'GET', url: `/api/games/${game.id}/atlases`, headers: auth });
      let answer: GameAtlases | undefined;
      const first = await timed(async () => {
        const response = await get();
        answer = response.json<GameAtlases>();
        answerBytes = response.rawPayload.length;
      });
      if (answer?.atlases[0]?.frames.length !== frames.length)
        throw new Error(`the atlas was not found: ${JSON.stringify(answer?.problems)}`);
      const kept: number[] = [];
      for (let i = 0; i < 20; i++) kept.push((await timed(get)).ms);
      calls.push({ first: first.ms, kept: median(kept) });
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const composeMs = median(compose.map((run) => run.app.ms));
  const bareComposeMs = median(compose.map((run) => run.bare.ms));
  return {
    rounds,
    frames: frames.length,
    composeMs,
    composeCpuMs: median(compose.map((run) => run.app.cpuMs)),
    bareComposeMs,
    bareComposeCpuMs: median(compose.map((run) => run.bare.cpuMs)),
    composeRatio: median(compose.map((run) => run.bare.ms / run.app.ms)),
    composeFirstMs: composeFirst.ms,
    composeFirstCpuMs: composeFirst.cpuMs,
    frameMarksFirstMs: median(marks.map((run) => run.first.ms)),
    frameMarksFirstCpuMs: median(marks.map((run) => run.first.cpuMs)),
    frameMarksAgainMs: median(marks.map((run) => run.again.ms)),
    frameMarksAgainCpuMs: median(marks.map((run) => run.again.cpuMs)),
    tiledMarkMs: median(marks.map((run) => run.tiled.ms)),
    tiledMarkCpuMs: median(marks.map((run) => run.tiled.cpuMs)),
    firstCallMs: median(calls.map((call) => call.first)),
    keptCallMs: median(calls.map((call) => call.kept)),
    parseMs: median(parses),
    answerKb: answerBytes / 1024,
  };
}
