import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { InvalidImageError, inspectBytes, pngIsWhole } from './image-inspection';

/** A 40x30 PNG of noise with an ancillary text chunk (tEXt) before its image data, as editors write them. */
async function noisePng(): Promise<Buffer> {
  const pixels = Buffer.alloc(40 * 30 * 4);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919) % 251;
  return sharp(pixels, { raw: { width: 40, height: 30, channels: 4 } })
    .png()
    .withMetadata({ exif: { IFD0: { Copyright: 'Reskin' } } })
    .toBuffer();
}

/** Where each chunk of a PNG starts, by type. */
function chunkAt(png: Buffer, type: string): number {
  let at = 8;
  while (at < png.length) {
    if (png.toString('latin1', at + 4, at + 8) === type) return at;
    at += 12 + png.readUInt32BE(at);
  }
  throw new Error(`no ${type} chunk`);
}

/** The PNG with a chunk of `type` and `data` (its CRC right) put before the chunk at `before`. */
function withChunk(png: Buffer, before: number, type: string, data: Buffer, crc?: number): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc ?? crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return Buffer.concat([png.subarray(0, before), chunk, png.subarray(before)]);
}

describe('a PNG is whole by its chunks (decision 0061)', () => {
  it('takes a whole PNG, and one whose ancillary chunk is damaged, as browsers show both', async () => {
    const png = await noisePng();
    expect(pngIsWhole(png)).toBe(true);
    const idat = chunkAt(png, 'IDAT');
    expect(pngIsWhole(withChunk(png, idat, 'tEXt', Buffer.from('Comment\0ok')))).toBe(true);
    expect(pngIsWhole(withChunk(png, idat, 'tEXt', Buffer.from('Comment\0bad'), 1234))).toBe(true);
    expect(await inspectBytes(png, 'img/noise.png')).toEqual({ width: 40, height: 30, format: 'png' });
  });

  it('refuses a PNG cut short anywhere, one byte of its image data changed, or no image data', async () => {
    const png = await noisePng();
    for (const cut of [png.length - 1, png.length - 12, chunkAt(png, 'IDAT') + 20, 40])
      expect(pngIsWhole(png.subarray(0, cut)), `cut at ${cut}`).toBe(false);
    const flipped = Buffer.from(png);
    flipped[chunkAt(png, 'IDAT') + 30]! ^= 0x10;
    expect(pngIsWhole(flipped)).toBe(false);
    await expect(inspectBytes(flipped, 'img/noise.png')).rejects.toThrow(InvalidImageError);
    await expect(inspectBytes(flipped, 'img/noise.png')).rejects.toThrow(
      'img/noise.png is not a complete PNG file: it is cut short or damaged.',
    );
    const idat = chunkAt(png, 'IDAT');
    const withoutData = Buffer.concat([png.subarray(0, idat), png.subarray(chunkAt(png, 'IEND'))]);
    expect(pngIsWhole(withoutData)).toBe(false);
  });
});
