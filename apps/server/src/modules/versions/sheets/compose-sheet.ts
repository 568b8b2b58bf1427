import { createHash } from 'node:crypto';
import { imageFormatOfName, storedSpriteSize, type AtlasFrame } from '@reskin/contract';
import pMap from 'p-map';
import {
  bandRowsFor,
  bandsAtOnce,
  deflateBand,
  digestBytes,
  encodeBandedPng,
  inflateBand,
  readBandedPng,
  type Band,
  type PastedRect,
  writeRows,
} from '../../../lib/images/banded-png';
import { readImage } from '../../../lib/images/image-reading';
import { encodeSheet } from '../../../lib/images/pipeline';
import { decodePixels, openPixels, type RgbaImage } from '../../../lib/images/pixels';

/**
 * One replaced frame: where it goes, and the artist's image of the frame's full source size, decoded once
 * (lib/images/pixels.ts): the same pixels go onto the sheet and its marked rendition (decision 0055).
 */
export interface FrameReplacement {
  frame: AtlasFrame;
  pixels: RgbaImage;
}

/**
 * The pixels of a replacement as they are stored on the page: the trimmed part (offset and stored size, as the
 * packer cut the original) turned as the packer turned the original (`rotation`, clockwise), raw RGBA.
 */
export async function framePixels(frame: AtlasFrame, image: RgbaImage): Promise<RgbaImage> {
  const stored = storedSpriteSize(frame);
  const { data } = await openPixels(image)
    .extract({ left: frame.offset.x, top: frame.offset.y, width: stored.w, height: stored.h })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const trimmed = { data, width: stored.w, height: stored.h };
  if (frame.rotation === 0) return trimmed;
  // Extract, then rotate: two steps, as one sharp pipeline would reorder them.
  const turned = await openPixels(trimmed).rotate(frame.rotation).raw().toBuffer({ resolveWithObject: true });
  return { data: turned.data, width: turned.info.width, height: turned.info.height };
}

/**
 * Whether a replacement has visible pixels outside the part a trimmed frame keeps: they are dropped when the
 * sheet is composed, and the artist is told.
 */
export function dropsVisiblePixels(frame: AtlasFrame, { data, ...info }: RgbaImage): boolean {
  if (!frame.trimmed) return false;
  const stored = storedSpriteSize(frame);
  const { x: left, y: top } = frame.offset;
  for (let y = 0; y < info.height; y++) {
    const inside = y >= top && y < top + stored.h;
    for (let x = 0; x < info.width; x++) {
      if (inside && x >= left && x < left + stored.w) continue;
      if (data[(y * info.width + x) * 4 + 3] !== 0) return true;
    }
  }
  return false;
}

/**
 * The composed sheet: `base` (the original sheet, or the artist's whole-sheet upload) with each
 * replaced frame's stored pixels copied into its rect, replacing the rect's old pixels (not blended: a
 * transparent pixel of the new frame stays transparent). Pixels outside every replaced rect (padding, extrusion,
 * other frames) stay as they were. The same inputs give the same bytes, so composing again is harmless.
 *
 * A PNG sheet is written in bands (banded-png.ts, decision 0061): given `previous`, an earlier composition of the
 * same sheet, the bands whose pixels did not change are copied from it compressed, and only the bands a changed
 * frame crosses are drawn and deflated again; the bytes are the same as without it. Other formats are decoded
 * whole, pasted and encoded in their own format (pipeline.ts encodeSheet).
 */
export async function composeSheet(
  base: Buffer,
  sheetPath: string,
  replacements: FrameReplacement[],
  previous?: Buffer,
): Promise<Buffer> {
  const format = imageFormatOfName(sheetPath);
  if (!format) throw new Error(`${sheetPath} is not an image`);
  if (format === 'png') return composeBands(base, replacements, previous);
  const { data: canvas, ...info } = await decodePixels(base, format);
  for (const { frame, pixels: image } of replacements) {
    const pixels = await framePixels(frame, image);
    // Row by row into the rect: the rect lies inside the sheet (checked when the descriptor was resolved).
    const rowBytes = pixels.width * 4;
    for (let row = 0; row < pixels.height; row++) {
      pixels.data.copy(
        canvas,
        ((frame.rect.y + row) * info.width + frame.rect.x) * 4,
        row * rowBytes,
        (row + 1) * rowBytes,
      );
    }
  }
  return encodeSheet({ data: canvas, width: info.width, height: info.height }, format);
}

/** A replacement as pasted: where, its stored pixels, and their digest. */
interface Pasted {
  rect: PastedRect;
  data: Buffer;
  digest: Buffer;
}

const sha256 = () => createHash('sha256');
const crosses = (rect: PastedRect, top: number, bottom: number) => rect.y < bottom && rect.y + rect.h > top;
const sameRect = (a: PastedRect, b: PastedRect) => a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;

/**
 * A PNG sheet composed band by band. A band's digest names what it is made of (the base's bytes, the band, and
 * each rect pasted across it with its pixels' digest): a band of `previous` with the same digest is copied. Any
 * other band is drawn again: on its rows in `previous` when every rect pasted there is pasted again (each is
 * overwritten whole), else on the base's rows, decoded for those bands only; then each rect across it is pasted.
 */
async function composeBands(
  base: Buffer,
  replacements: FrameReplacement[],
  previous: Buffer | undefined,
): Promise<Buffer> {
  const { width, height } = await readImage(base, 'png').metadata();
  const bandRows = bandRowsFor(width);
  const rowBytes = width * 4 + 1;
  const pasted: Pasted[] = [];
  for (const { frame, pixels: image } of replacements) {
    const { data, ...stored } = await framePixels(frame, image);
    const rect = { x: frame.rect.x, y: frame.rect.y, w: stored.width, h: stored.height };
    pasted.push({ rect, data, digest: sha256().update(data).digest() });
  }
  const baseDigest = sha256().update(base).digest().subarray(0, digestBytes);
  const earlier = previous && readBandedPng(previous);
  const reusable =
    earlier && earlier.width === width && earlier.height === height && earlier.base.equals(baseDigest)
      ? earlier
      : undefined;
  // A base written in bands with nothing pasted (Gen.'s watermarked copy of a sprite sheet): a band no rect crosses
  // is the base's band as it is, and a band drawn on the base starts from the base's band, not a decode.
  const banded = readBandedPng(base);
  const plain =
    banded && banded.rects.length === 0 && banded.width === width && banded.height === height
      ? banded
      : undefined;

  const bandCount = Math.ceil(height / bandRows);
  // Each band kept, or the work that draws and deflates it: deflated a few at a time, in zlib's thread pool.
  const bands: (Band | (() => Promise<Band>))[] = [];
  const onBase: { index: number; top: number; bottom: number; digest: Buffer; across: Pasted[] }[] = [];
  for (let index = 0; index < bandCount; index++) {
    const top = index * bandRows;
    const bottom = Math.min(height, top + bandRows);
    const across = pasted.filter(({ rect }) => crosses(rect, top, bottom));
    const hash = sha256().update(baseDigest).update(`${index}`);
    for (const { rect, digest } of across)
      hash.update(`${rect.x},${rect.y},${rect.w},${rect.h}`).update(digest);
    const digest = hash.digest().subarray(0, digestBytes);
    const kept = reusable?.bands[index];
    if (kept?.digest.equals(digest)) {
      bands[index] = kept;
    } else if (plain && across.length === 0) {
      bands[index] = { ...plain.bands[index]!, digest };
    } else if (
      kept &&
      reusable.rects
        .filter((rect) => crosses(rect, top, bottom))
        .every((rect) => across.some((now) => sameRect(now.rect, rect)))
    ) {
      bands[index] = () => drawBand(inflateBand(kept.segment), top, bottom, across, width, digest);
    } else if (plain) {
      const { segment } = plain.bands[index]!;
      bands[index] = () => drawBand(inflateBand(segment), top, bottom, across, width, digest);
    } else onBase.push({ index, top, bottom, digest, across });
  }
  if (onBase.length > 0) {
    // One decode of the base's rows from the first band drawn on it to the last.
    const first = onBase[0]!.top;
    const last = onBase[onBase.length - 1]!.bottom;
    const { data } = await readImage(base, 'png', { limitInputPixels: false, failOn: 'error' })
      .extract({ left: 0, top: first, width, height: last - first })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    // One buffer for the rows of them all, each band a part of it: a sheet's first composition draws every band,
    // and megabytes of fresh memory cost far less in one block (huge pages, decision 0061) than in one per band.
    const allRows = Buffer.allocUnsafe((last - first) * rowBytes);
    for (const { index, top, bottom, digest, across } of onBase) {
      const rows = allRows.subarray((top - first) * rowBytes, (bottom - first) * rowBytes);
      writeRows(rows, data, width, top - first, bottom - top);
      bands[index] = () => drawBand(rows, top, bottom, across, width, digest);
    }
  }
  return encodeBandedPng({
    width,
    height,
    bandRows,
    bands: await pMap(bands, (band) => (typeof band === 'function' ? band() : band), {
      concurrency: bandsAtOnce,
    }),
    base: baseDigest,
    rects: pasted.map(({ rect }) => rect),
  });
}

/** The band's unfiltered rows with each rect across it pasted in (in order), deflated. */
async function drawBand(
  rows: Buffer,
  top: number,
  bottom: number,
  across: Pasted[],
  width: number,
  digest: Buffer,
): Promise<Band> {
  const rowBytes = width * 4 + 1;
  for (const { rect, data } of across) {
    // The rect lies inside the sheet (checked when the descriptor was resolved).
    for (let y = Math.max(top, rect.y); y < Math.min(bottom, rect.y + rect.h); y++) {
      const from = (y - rect.y) * rect.w * 4;
      data.copy(rows, (y - top) * rowBytes + 1 + rect.x * 4, from, from + rect.w * 4);
    }
  }
  return { digest, ...(await deflateBand(rows)) };
}
