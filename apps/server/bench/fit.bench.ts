import sharp from 'sharp';
import { fitImage, type FitOutputFormat } from '../src/lib/images/image-fit';
import { median } from './api.bench';

interface FitCase {
  input: Buffer;
  width: number;
  height: number;
  format: FitOutputFormat;
}

/** An image drawn like art (a gradient and circles), so it encodes as an artist's export does. */
async function artImage(width: number, height: number, seed: number): Promise<Buffer> {
  const shapes = Array.from(
    { length: 12 },
    (_, i) =>
      `<circle cx="${((i + seed) * 97) % width}" cy="${((i + seed) * 61) % height}" r="${4 + ((i * 7) % Math.max(5, Math.floor(width / 6)))}" fill="hsl(${((i + seed) * 37) % 360},70%,55%)"/>`,
  ).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="g"><stop offset="0" stop-color="#234"/><stop offset="1" stop-color="#9ab"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * 200 artist's exports at twice their original's size (originals of 32 to 512 px a side, mixed shapes), PNG, to be
 * written as the originals' formats: half PNG, a quarter JPEG, a quarter WebP.
 */
async function fitCases(count = 200): Promise<FitCase[]> {
  const formats: FitOutputFormat[] = ['png', 'png', 'jpeg', 'webp'];
  const cases: FitCase[] = [];
  for (let i = 0; i < count; i += 1) {
    const width = 32 + ((i * 53) % 481);
    const height = 32 + ((i * 89) % 481);
    cases.push({
      input: await artImage(width * 2, height * 2, i),
      width,
      height,
      format: formats[i % formats.length]!,
    });
  }
  return cases;
}

/** What bare sharp does for the same resize: one pipeline, the same kernel, fit and encoder settings as fitImage. */
function bareFit({ input, width, height, format }: FitCase): Promise<Buffer> {
  const image = sharp(input).resize(width, height, { fit: 'cover', position: 'centre', kernel: 'lanczos3' });
  switch (format) {
    case 'png':
      return image.png().toBuffer();
    case 'jpeg':
      return image
        .flatten({ background: { r: 0, g: 0, b: 0 } })
        .jpeg({ quality: 90, mozjpeg: false })
        .toBuffer();
    case 'webp':
      return image.webp({ quality: 90 }).toBuffer();
    default:
      throw new Error(`no bare fit for ${format}`);
  }
}

/** Runs `work` on every case, as many at once as sharp has threads for, and answers the wall and CPU seconds. */
async function timed(
  cases: FitCase[],
  work: (fitCase: FitCase) => Promise<Buffer>,
): Promise<{ seconds: number; cpuSeconds: number }> {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let next = 0;
  const lanes = Math.max(1, sharp.concurrency());
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < cases.length) {
        const fitCase = cases[next++]!;
        await work(fitCase);
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return {
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}

export interface FitBenchResult {
  images: number;
  rounds: number;
  seconds: number;
  cpuSeconds: number;
  bareSeconds: number;
  bareCpuSeconds: number;
  /** bare sharp's time / fitImage's time (1.0 = no cost of its own; target >= 0.8). */
  ratio: number;
}

/**
 * Fitting 200 images at 2x: the batch's fitImage (lib/images/image-fit.ts: the header read for the animation
 * check, then one sharp pipeline) against bare sharp doing the same resizes, in alternating rounds; medians.
 */
export async function benchFit(rounds = 5): Promise<FitBenchResult> {
  const cases = await fitCases();
  const ours = (fitCase: FitCase) =>
    fitImage(fitCase.input, {
      width: fitCase.width,
      height: fitCase.height,
      mode: 'cover',
      format: fitCase.format,
      inputFormat: 'png',
    });
  // One warm-up of each, so neither pays for the first use of a codec.
  await timed(cases.slice(0, 8), ours);
  await timed(cases.slice(0, 8), bareFit);
  const app: { seconds: number; cpuSeconds: number }[] = [];
  const bare: { seconds: number; cpuSeconds: number }[] = [];
  for (let round = 0; round < rounds; round += 1) {
    if (round % 2 === 0) {
      app.push(await timed(cases, ours));
      bare.push(await timed(cases, bareFit));
    } else {
      bare.push(await timed(cases, bareFit));
      app.push(await timed(cases, ours));
    }
  }
  const seconds = median(app.map((run) => run.seconds));
  const bareSeconds = median(bare.map((run) => run.seconds));
  return {
    images: cases.length,
    rounds,
    seconds,
    cpuSeconds: median(app.map((run) => run.cpuSeconds)),
    bareSeconds,
    bareCpuSeconds: median(bare.map((run) => run.cpuSeconds)),
    ratio: bareSeconds / seconds,
  };
}
