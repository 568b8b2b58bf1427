// The version batch route (POST /game-versions/{versionId}/batch, decision 0030) at studio scale, through the
// production server: (a) 300 exports at 2x fitted (cover) against bare sharp doing the same resizes on every
// core; (b) 1,500 exact-size images against the game zip upload of the same files.
import { request as httpRequest } from 'node:http';
import { availableParallelism } from 'node:os';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import yazl from 'yazl';
import { limits, type BatchAnswer, type Game } from '@reskin/contract';
import { median } from './api.bench';
import {
  artistPassword,
  buildProduction,
  cachedArt,
  eachLimited,
  loginOver,
  preparedServer,
  type RunningServer,
} from './browser-support';

type OriginalFormat = 'png' | 'jpeg' | 'webp';
const extensionOf: Record<OriginalFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

/** One game file the batch replaces: its path, pixel size and format, and the artist's file for it. */
interface BatchCase {
  path: string;
  width: number;
  height: number;
  format: OriginalFormat;
  incoming: { path: string; content: Buffer };
}

/** An original of that size and format, quick to make (its content is never looked at by the batch). */
function original({ width, height, format }: BatchCase, seed: number): Promise<Buffer> {
  const image = sharp({
    create: { width, height, channels: 4, background: { r: seed % 256, g: 120, b: 200, alpha: 1 } },
  });
  if (format === 'jpeg') return image.flatten().jpeg({ quality: 85 }).toBuffer();
  return format === 'webp' ? image.webp().toBuffer() : image.png().toBuffer();
}

/**
 * (a) 300 originals of 32 to 512 px a side (mixed shapes; half PNG, a quarter JPEG, a quarter WebP, as in
 * fit.bench.ts), each with an artist's PNG export at twice its size under the same path and name.
 */
async function fitCases(count: number): Promise<BatchCase[]> {
  const formats: OriginalFormat[] = ['png', 'png', 'jpeg', 'webp'];
  const shapes = Array.from({ length: count }, (_, i) => ({
    width: 32 + ((i * 53) % 481),
    height: 32 + ((i * 89) % 481),
    format: formats[i % formats.length]!,
  }));
  const exports = await cachedArt(
    'batch-fit-v1',
    shapes.map((shape, i) => ({
      path: `game/img/a${i}.png`,
      seed: 7000 + i,
      width: shape.width * 2,
      height: shape.height * 2,
      format: 'png' as const,
    })),
  );
  return shapes.map((shape, i) => ({
    ...shape,
    path: `game/img/a${i}.${extensionOf[shape.format]}`,
    incoming: exports[i]!,
  }));
}

/**
 * (b) 1,500 images as a game's sprites and backgrounds are (16 to 512 px a side, two PNG for one JPEG), each
 * replaced by the artist's image of the same size and format.
 */
async function exactCases(count: number): Promise<BatchCase[]> {
  const sides = [16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512];
  const shapes = Array.from({ length: count }, (_, i) => ({
    width: sides[i % sides.length]!,
    height: sides[(i * 7) % sides.length]!,
    format: (i % 3 === 2 ? 'jpeg' : 'png') as 'png' | 'jpeg',
  }));
  const art = await cachedArt(
    'batch-exact-v1',
    shapes.map((shape, i) => ({
      path: `game/img/e${i}.${extensionOf[shape.format]}`,
      seed: 20_000 + i,
      ...shape,
    })),
  );
  return shapes.map((shape, i) => ({ ...shape, path: art[i]!.path, incoming: art[i]! }));
}

/**
 * The production server on a data folder with the game of `cases` (and its index) uploaded, an artist assigned
 * and a version of theirs; answers the artist's token and the version.
 */
async function studio(
  cases: BatchCase[],
): Promise<{ server: RunningServer; token: string; versionId: number }> {
  const files = [
    { path: 'game/index.html', content: Buffer.from('<!doctype html><title>Batch bench</title>') },
    ...(await Promise.all(cases.map(async (c, i) => ({ path: c.path, content: await original(c, i) })))),
  ];
  const { server, prepared } = await preparedServer(false, async (preparation) => {
    const game = await preparation.uploadedGame('Batch bench', files, 'game/index.html');
    const [artist] = await preparation.createArtists(1, 'batchartist');
    const userGame = await preparation.assign(artist!.id, game.id);
    const token = await preparation.login(artist!.email, artistPassword);
    return (await preparation.createVersion(token, userGame, 'Batch look')).id;
  });
  const token = await loginOver(server.origin, 'batchartist0@example.com', artistPassword);
  return { server, token, versionId: prepared };
}

/** A multipart body encoded once, before any timing: the client's own encoding is not measured. */
interface EncodedBody {
  bytes: Buffer;
  contentType: string;
}

async function encoded(form: FormData): Promise<EncodedBody> {
  const response = new Response(form);
  return {
    bytes: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type')!,
  };
}

/** One request's times: until its body was handed to the socket, and until its answer had arrived. */
interface Sent {
  seconds: number;
  bodySeconds: number;
  answer: string;
  status: number;
}

/** POSTs `body` with node:http, timing the body's sending apart from the whole request. */
function post(url: string, headers: Record<string, string>, body: EncodedBody): Promise<Sent> {
  const started = performance.now();
  let bodySeconds = 0;
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': body.contentType, 'content-length': body.bytes.length },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            seconds: (performance.now() - started) / 1000,
            bodySeconds,
            answer: Buffer.concat(chunks).toString(),
            status: response.statusCode ?? 0,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(body.bytes, () => (bodySeconds = (performance.now() - started) / 1000));
  });
}

/** POST .../batch with `body`; every row must be replaced. */
async function sendBatch(
  server: RunningServer,
  token: string,
  versionId: number,
  body: EncodedBody,
  expected: number,
  query = '',
): Promise<Sent> {
  const sent = await post(
    `${server.origin}/api/game-versions/${versionId}/batch${query}`,
    { authorization: `Bearer ${token}` },
    body,
  );
  if (sent.status !== 200) throw new Error(`batch: ${sent.status} ${sent.answer.slice(0, 500)}`);
  const answer = JSON.parse(sent.answer) as BatchAnswer;
  if (answer.summary.replaced !== expected) {
    const failed = answer.rows.find((row) => row.outcome !== 'replaced');
    throw new Error(`batch replaced ${answer.summary.replaced} of ${expected}: ${JSON.stringify(failed)}`);
  }
  return sent;
}

function folderForm(cases: BatchCase[]): FormData {
  const body = new FormData();
  for (const { incoming } of cases) {
    body.append('path', incoming.path);
    body.append('file', new Blob([new Uint8Array(incoming.content)]), incoming.path.split('/').pop());
  }
  return body;
}

async function zipOf(files: { path: string; content: Buffer }[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  // Images stored, as an export tool zips them (already compressed).
  for (const file of files) zip.addBuffer(file.content, file.path, { compress: false });
  zip.end();
  return buffer(zip.outputStream);
}

/** What bare sharp does for one row of (a): the same kernel, fit and encoder settings as fitImage. */
function bareFit({ incoming, width, height, format }: BatchCase): Promise<Buffer> {
  const image = sharp(incoming.content).resize(width, height, {
    fit: 'cover',
    position: 'centre',
    kernel: 'lanczos3',
  });
  if (format === 'jpeg')
    return image
      .flatten({ background: { r: 0, g: 0, b: 0 } })
      .jpeg({ quality: 90, mozjpeg: false })
      .toBuffer();
  return format === 'webp' ? image.webp({ quality: 90 }).toBuffer() : image.png().toBuffer();
}

/** Bare sharp over every case, a Promise pool of availableParallelism(); seconds. */
async function bareFits(cases: BatchCase[]): Promise<number> {
  const started = performance.now();
  await eachLimited(cases, availableParallelism(), async (fitCase) => {
    await bareFit(fitCase);
  });
  return (performance.now() - started) / 1000;
}

export interface BatchFitResult {
  images: number;
  incomingMegabytes: number;
  rounds: number;
  /** Medians: the batch request (sent to answered), bare sharp. */
  batchSeconds: number;
  bareSeconds: number;
  /** batch / bare (goal <= 1.5). */
  ratio: number;
  /** Medians: sending the request's body over loopback, and the server's work after it (answered - sent). */
  bodySeconds: number;
  afterBodySeconds: number;
  /** afterBody / bare: the server's own work against bare sharp's. */
  afterBodyRatio: number;
}

/**
 * (a) One batch of `count` exports at 2x with fit=cover, through the production server, against bare sharp doing
 * the same resizes in this process; one untimed batch first (the version then holds replacements and history
 * entries, as a studio's does), then alternating rounds.
 */
export async function benchBatchFit(
  count = Number(process.env.BENCH_BATCH_FIT ?? 300),
  rounds = Number(process.env.BENCH_BATCH_ROUNDS ?? 3),
): Promise<BatchFitResult> {
  buildProduction();
  const cases = await fitCases(count);
  const { server, token, versionId } = await studio(cases);
  const body = await encoded(folderForm(cases));
  try {
    await sendBatch(server, token, versionId, body, count, '?fit=cover');
    await bareFits(cases.slice(0, 8));
    const batch: Sent[] = [];
    const bare: number[] = [];
    for (let round = 0; round < rounds; round++) {
      if (round % 2 === 1) bare.push(await bareFits(cases));
      batch.push(await sendBatch(server, token, versionId, body, count, '?fit=cover'));
      if (round % 2 === 0) bare.push(await bareFits(cases));
    }
    const batchSeconds = median(batch.map((sent) => sent.seconds));
    const bareSeconds = median(bare);
    const afterBodySeconds = median(batch.map((sent) => sent.seconds - sent.bodySeconds));
    return {
      images: count,
      incomingMegabytes: body.bytes.length / 1024 / 1024,
      rounds,
      batchSeconds,
      bareSeconds,
      ratio: batchSeconds / bareSeconds,
      bodySeconds: median(batch.map((sent) => sent.bodySeconds)),
      afterBodySeconds,
      afterBodyRatio: afterBodySeconds / bareSeconds,
    };
  } finally {
    await server.stop();
  }
}

export interface BatchExactResult {
  images: number;
  zipMegabytes: number;
  rounds: number;
  /** Medians: the batch of one .zip, the game zip upload of the same files (in zips the route takes). */
  batchSeconds: number;
  zipUploadSeconds: number;
  zipRequests: number;
  /** batch / zip upload (goal <= 2). */
  ratio: number;
  /** The timed batches, in ms since the server was spawned: the windows of its CPU profile to read. */
  batchWindows: [number, number][];
}

/**
 * (b) One batch of `count` images of their originals' size and format (one .zip, as the workbench sends a zip),
 * against POST /game/upload-zip of the same files to a new game, in zips of at most limits.adminUploadFiles
 * entries sent one after the other; one untimed batch first, then alternating rounds.
 */
export async function benchBatchExact(
  count = Number(process.env.BENCH_BATCH_EXACT ?? 1500),
  rounds = Number(process.env.BENCH_BATCH_ROUNDS ?? 3),
): Promise<BatchExactResult> {
  buildProduction();
  const cases = await exactCases(count);
  const incoming = cases.map((c) => c.incoming);
  const batchZip = await zipOf(incoming);
  const parts = Math.ceil(count / limits.adminUploadFiles);
  const per = Math.ceil(count / parts);
  const uploadZips = await Promise.all(
    Array.from({ length: parts }, (_, i) => zipOf(incoming.slice(i * per, (i + 1) * per))),
  );
  const { server, token, versionId } = await studio(cases);
  const adminToken = await loginOver(server.origin, 'bench@example.com', 'bench-pass-1');
  const zipForm = (zip: Buffer) => {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(zip)]), 'game.zip');
    return encoded(body);
  };
  const batchBody = await zipForm(batchZip);
  const uploadBodies = await Promise.all(uploadZips.map(zipForm));
  const zipUpload = async (round: number) => {
    const auth = { authorization: `Bearer ${adminToken}` };
    const created = await fetch(`${server.origin}/api/games`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Zip ${round}`, description: 'x', width: 640, height: 480 }),
    });
    const game = (await created.json()) as Game;
    let seconds = 0;
    for (const body of uploadBodies) {
      const sent = await post(`${server.origin}/api/game/upload-zip/${game.id}`, auth, body);
      if (sent.status !== 200) throw new Error(`zip upload: ${sent.status} ${sent.answer.slice(0, 500)}`);
      seconds += sent.seconds;
    }
    return seconds;
  };
  const batchWindows: [number, number][] = [];
  const timedBatch = async () => {
    const start = performance.now() - server.spawnedAt;
    const { seconds } = await sendBatch(server, token, versionId, batchBody, count);
    batchWindows.push([start, performance.now() - server.spawnedAt]);
    return seconds;
  };
  try {
    await sendBatch(server, token, versionId, batchBody, count);
    const batch: number[] = [];
    const zip: number[] = [];
    for (let round = 0; round < rounds; round++) {
      if (round % 2 === 1) zip.push(await zipUpload(round));
      batch.push(await timedBatch());
      if (round % 2 === 0) zip.push(await zipUpload(round));
    }
    const batchSeconds = median(batch);
    const zipUploadSeconds = median(zip);
    return {
      images: count,
      zipMegabytes: batchZip.length / 1024 / 1024,
      rounds,
      batchSeconds,
      zipUploadSeconds,
      zipRequests: parts,
      ratio: batchSeconds / zipUploadSeconds,
      batchWindows,
    };
  } finally {
    await server.stop();
  }
}
