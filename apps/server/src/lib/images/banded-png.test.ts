import { constants, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  adler32Combine,
  bandRowsFor,
  deflateBand,
  encodeBandedPng,
  inflateBand,
  readBandedPng,
} from './banded-png';

/** zlib's own Adler-32 of `data`: the last four bytes of its zlib stream. */
const zlibAdler = (data: Buffer) => deflateSync(data).readUInt32BE(deflateSync(data).length - 4);

function noise(length: number, seed: number): Buffer {
  const data = Buffer.alloc(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    data[i] = state >>> 24;
  }
  return data;
}

describe('banded PNG', () => {
  it("deflates a band as zlib does, with its Adler-32, and combines two runs' Adler-32 as zlib's", async () => {
    const first = noise(70_001, 1);
    const second = Buffer.alloc(123_457, 255);
    const band = await deflateBand(first);
    expect(band.adler).toBe(zlibAdler(first));
    expect(band.segment.equals(deflateSync(first, { finishFlush: constants.Z_SYNC_FLUSH }).subarray(2))).toBe(
      true,
    );
    expect(adler32Combine(band.adler, zlibAdler(second), second.length)).toBe(
      zlibAdler(Buffer.concat([first, second])),
    );
  });

  it('is a PNG that sharp decodes to the rows it was given, and reads its bands back', async () => {
    const width = 300;
    const height = 2 * bandRowsFor(width) + 5;
    const pixels = noise(width * height * 4, 9);
    const rowBytes = width * 4 + 1;
    const bandRows = bandRowsFor(width);
    const bands = [];
    for (let top = 0; top < height; top += bandRows) {
      const rows = Buffer.alloc(Math.min(bandRows, height - top) * rowBytes);
      for (let y = 0; y < rows.length / rowBytes; y++)
        pixels.copy(rows, y * rowBytes + 1, (top + y) * width * 4, (top + y + 1) * width * 4);
      bands.push({ digest: noise(16, top), ...(await deflateBand(rows)) });
    }
    const rects = [{ x: 1, y: 2, w: 3, h: 4 }];
    const png = encodeBandedPng({ width, height, bandRows, bands, base: noise(16, 3), rects });
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([width, height, 4]);
    expect(data.equals(pixels)).toBe(true);
    const read = readBandedPng(png)!;
    expect(read.rects).toEqual(rects);
    expect(read.bands.map((band) => band.adler)).toEqual(bands.map((band) => band.adler));
    expect(inflateBand(read.bands[1]!.segment).length).toBe(bandRows * rowBytes);
    // Any other PNG, or one changed, is no banded PNG.
    expect(
      readBandedPng(
        await sharp(pixels, { raw: { width, height, channels: 4 } })
          .png()
          .toBuffer(),
      ),
    ).toBe(undefined);
    const changed = Buffer.from(png);
    changed[60] ^= 1;
    expect(readBandedPng(changed)).toBe(undefined);
  });
});
