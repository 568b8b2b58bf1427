import { constants, crc32, createDeflate, inflateRawSync } from 'node:zlib';
import pMap from 'p-map';
import type { RgbaImage } from './pixels';

// A version's composed PNG sheet is written as bands of rows, each deflated on its own (decision 0061), so a later
// composition re-deflates only the bands a changed frame crosses and copies the others' compressed bytes as they
// are. Still one ordinary PNG: RGBA, 8 bits, no interlace, rows unfiltered (filter 0); its one zlib stream is the
// bands' segments one after another (each ends on a sync flush, byte-aligned, and uses no earlier band's bytes),
// one IDAT chunk per band. A private ancillary chunk (rsBD, which image tools drop when they change the pixels)
// tells what each band was made of, so the next composition knows which it can keep.

/** What each band of a banded PNG was made of, and its compressed rows. */
export interface BandedPng {
  width: number;
  height: number;
  /** Rows per band (the last band may have fewer). */
  bandRows: number;
  bands: Band[];
  /** What the bands were drawn on (a digest of the base's bytes): bands drawn on another base are not reused. */
  base: Buffer;
  /** The rects pasted onto the base, in order: a band that had only some of them can be drawn on again. */
  rects: PastedRect[];
}

export interface Band {
  /** What the band's pixels were made of (composeSheet's digest): equal digests, equal pixels. */
  digest: Buffer;
  /** The band's unfiltered rows (filter byte 0 and RGBA each), raw deflate ended on a sync flush. */
  segment: Buffer;
  /** Adler-32 of the band's rows as deflated (before compression). */
  adler: number;
}

/** A rect of the sheet whose pixels were replaced. */
export interface PastedRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const bandsChunk = 'rsBD';
const bandsVersion = 1;
/** Bytes kept of each digest (SHA-256, cut). */
export const digestBytes = 16;
/** Per band in rsBD: its digest and its rows' Adler-32. */
const bandEntry = digestBytes + 4;
/** zlib's header for a 32 KB window at the default level; the end: an empty final block (fixed codes). */
const zlibHeader = Buffer.from([0x78, 0x9c]);
const finalBlock = Buffer.from([0x03, 0x00]);
/** A sync flush's empty stored block, then the final block: how a band's own zlib stream ends before its Adler-32. */
const syncThenFinal = Buffer.from([0x00, 0x00, 0xff, 0xff, ...finalBlock]);
/**
 * About 1 MB of rows per band (64 rows of a 4096 px sheet): deflate's window is 32 KB, so restarting there costs
 * well under 1% of size, and a sheet's first composition sets up a deflate stream per band (a few ms each).
 */
const bandBytes = 1024 * 1024;

/**
 * Bands deflated at once by one image: a frame upload composes two (the marked rendition too), and node's thread
 * pool has four threads, so one stays free for the files being read and written.
 */
export const bandsAtOnce = 2;

/** The rows per band of a sheet `width` wide: fixed by the width alone, so equal pixels give equal bytes. */
export function bandRowsFor(width: number): number {
  return Math.max(1, Math.ceil(bandBytes / (width * 4 + 1)));
}

/**
 * The band's rows deflated (zlib level 6) as a segment of the sheet's stream, and their Adler-32, both from zlib
 * in its thread pool: the rows go in with a sync flush (the segment ends byte-aligned), then the stream is ended,
 * which adds only an empty final block (03 00) and the Adler-32 of the rows. Summing them in JS cost a sheet's
 * first composition more than a tenth of its CPU (decision 0061).
 */
export function deflateBand(rows: Buffer): Promise<Pick<Band, 'segment' | 'adler'>> {
  return new Promise((resolve, reject) => {
    const deflate = createDeflate({ level: 6, flush: constants.Z_SYNC_FLUSH, chunkSize: 64 * 1024 });
    const out: Buffer[] = [];
    deflate.on('data', (chunk: Buffer) => out.push(chunk));
    deflate.on('error', reject);
    deflate.on('end', () => {
      const stream = out.length === 1 ? out[0]! : Buffer.concat(out);
      const end = stream.length - 6;
      if (!stream.subarray(end - 4, end + 2).equals(syncThenFinal))
        return reject(new Error('zlib did not end the band on a sync flush'));
      resolve({ segment: stream.subarray(zlibHeader.length, end), adler: stream.readUInt32BE(end + 2) });
    });
    // Written, then ended apart: a chunk written by end() would be deflated with Z_FINISH (a final block).
    deflate.write(rows);
    deflate.end();
  });
}

/** `count` rows of RGBA pixels from row `from` of `pixels`, unfiltered (filter byte 0, then the row) into `into`. */
export function writeRows(into: Buffer, pixels: Buffer, width: number, from: number, count: number): void {
  const rowBytes = width * 4 + 1;
  // Every byte is written: into may be fresh memory.
  for (let y = 0; y < count; y++) {
    into[y * rowBytes] = 0;
    pixels.copy(into, y * rowBytes + 1, (from + y) * width * 4, (from + y + 1) * width * 4);
  }
}

/**
 * RGBA pixels as a banded PNG with nothing pasted (no rects, no digests): a sheet's watermarked copy, whose bands
 * a version's first marked composition copies where no frame of it crosses them (composeSheet).
 */
export async function encodePlainBandedPng({ data, width, height }: RgbaImage): Promise<Buffer> {
  const bandRows = bandRowsFor(width);
  const rowBytes = width * 4 + 1;
  const rows = Buffer.allocUnsafe(height * rowBytes);
  writeRows(rows, data, width, 0, height);
  const none = Buffer.alloc(digestBytes);
  const bands = await pMap(
    Array.from({ length: Math.ceil(height / bandRows) }, (_, i) => i * bandRows),
    async (top) => ({
      digest: none,
      ...(await deflateBand(rows.subarray(top * rowBytes, Math.min(height, top + bandRows) * rowBytes))),
    }),
    { concurrency: bandsAtOnce },
  );
  return encodeBandedPng({ width, height, bandRows, bands, base: none, rects: [] });
}

/** A band's unfiltered rows again (filter byte 0 and RGBA each). */
export function inflateBand(segment: Buffer): Buffer {
  return inflateRawSync(segment, { finishFlush: constants.Z_SYNC_FLUSH });
}

/** The PNG of bands (its rsBD chunk tells what they were made of). */
export function encodeBandedPng(png: BandedPng): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(png.width, 0);
  header.writeUInt32BE(png.height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, adaptive filter method, no interlace
  const index = Buffer.alloc(13 + digestBytes + png.rects.length * 16 + png.bands.length * bandEntry);
  let at = index.writeUInt8(bandsVersion, 0);
  at = index.writeUInt32BE(png.bandRows, at);
  at = index.writeUInt32BE(png.bands.length, at);
  at = index.writeUInt32BE(png.rects.length, at);
  at += png.base.copy(index, at, 0, digestBytes);
  for (const rect of png.rects)
    for (const n of [rect.x, rect.y, rect.w, rect.h]) at = index.writeUInt32BE(n, at);
  for (const band of png.bands) {
    at += band.digest.copy(index, at, 0, digestBytes);
    at = index.writeUInt32BE(band.adler, at);
  }
  const rowBytes = png.width * 4 + 1;
  let adler = 1;
  png.bands.forEach((band, i) => {
    const rows = Math.min(png.bandRows, png.height - i * png.bandRows);
    adler = adler32Combine(adler, band.adler, rows * rowBytes);
  });
  const trailer = Buffer.alloc(6);
  finalBlock.copy(trailer);
  trailer.writeUInt32BE(adler, 2);
  const chunks: [string, Buffer][] = [
    ['IHDR', header],
    [bandsChunk, index],
    ['IDAT', zlibHeader],
    ...png.bands.map((band): [string, Buffer] => ['IDAT', band.segment]),
    ['IDAT', trailer],
    ['IEND', Buffer.alloc(0)],
  ];
  // Written once into one buffer: a sheet's bands are megabytes.
  const out = Buffer.allocUnsafe(
    chunks.reduce((size, [, data]) => size + 12 + data.length, signature.length),
  );
  let to = signature.copy(out, 0);
  for (const [type, data] of chunks) {
    to = out.writeUInt32BE(data.length, to);
    out.write(type, to, 'latin1');
    data.copy(out, to + 4);
    to = out.writeUInt32BE(crc32(out.subarray(to, to + 4 + data.length)), to + 4 + data.length);
  }
  return out;
}

/**
 * A banded PNG's bands and what they were made of, or undefined for any other bytes (a sheet encoded another way,
 * a chunk whose CRC does not match): the caller then composes every band anew.
 */
export function readBandedPng(bytes: Buffer): BandedPng | undefined {
  if (bytes.length < signature.length || !bytes.subarray(0, signature.length).equals(signature))
    return undefined;
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = signature.length; at + 12 <= bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const end = at + 12 + length;
    if (end > bytes.length) return undefined;
    if (crc32(bytes.subarray(at + 4, end - 4)) !== bytes.readUInt32BE(end - 4)) return undefined;
    chunks.push({ type: bytes.toString('latin1', at + 4, at + 8), data: bytes.subarray(at + 8, end - 4) });
    at = end;
  }
  const [ihdr, index, first, ...rest] = chunks;
  if (ihdr?.type !== 'IHDR' || index?.type !== bandsChunk || first?.type !== 'IDAT') return undefined;
  if (!ihdr.data.subarray(8).equals(Buffer.from([8, 6, 0, 0, 0])) || index.data.length < 13) return undefined;
  if (index.data.readUInt8(0) !== bandsVersion || !first.data.equals(zlibHeader)) return undefined;
  const width = ihdr.data.readUInt32BE(0);
  const height = ihdr.data.readUInt32BE(4);
  const bandRows = index.data.readUInt32BE(1);
  const bandCount = index.data.readUInt32BE(5);
  const rectCount = index.data.readUInt32BE(9);
  const segments = rest.slice(0, bandCount);
  if (
    bandRows !== bandRowsFor(width) ||
    bandCount !== Math.ceil(height / bandRows) ||
    index.data.length !== 13 + digestBytes + rectCount * 16 + bandCount * bandEntry ||
    rest.length !== bandCount + 2 ||
    segments.some((segment) => segment.type !== 'IDAT')
  )
    return undefined;
  const base = index.data.subarray(13, 13 + digestBytes);
  const rectsAt = 13 + digestBytes;
  const rects = Array.from({ length: rectCount }, (_, i) => {
    const [x, y, w, h] = [0, 1, 2, 3].map((n) => index.data.readUInt32BE(rectsAt + i * 16 + n * 4));
    return { x: x!, y: y!, w: w!, h: h! };
  });
  const entries = rectsAt + rectCount * 16;
  const bands = segments.map((segment, i) => {
    const at = entries + i * bandEntry;
    return {
      digest: index.data.subarray(at, at + digestBytes),
      segment: segment.data,
      adler: index.data.readUInt32BE(at + digestBytes),
    };
  });
  return { width, height, bandRows, bands, base, rects };
}

const adlerBase = 65521;

/**
 * The Adler-32 of two runs of bytes one after the other, from each run's: zlib's adler32_combine_ (adler32.c),
 * as node's zlib does not offer it.
 */
export function adler32Combine(first: number, second: number, secondLength: number): number {
  const rem = secondLength % adlerBase;
  let a = first & 0xffff;
  let b = (rem * a) % adlerBase;
  a += (second & 0xffff) + adlerBase - 1;
  b += (first >>> 16) + (second >>> 16) + adlerBase - rem;
  if (a >= adlerBase) a -= adlerBase;
  if (a >= adlerBase) a -= adlerBase;
  if (b >= adlerBase * 2) b -= adlerBase * 2;
  if (b >= adlerBase) b -= adlerBase;
  return b * 65536 + a;
}
