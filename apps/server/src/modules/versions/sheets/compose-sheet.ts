import { imageFormatOfName, storedSpriteSize, type AtlasFrame } from '@reskin/contract';
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
 * other frames) stay as they were. Encoded in the sheet's own format (pipeline.ts encodeSheet); the same inputs give
 * the same bytes, so composing again is harmless. Decode, paste and encode are the pipeline's explicit steps.
 */
export async function composeSheet(
  base: Buffer,
  sheetPath: string,
  replacements: FrameReplacement[],
): Promise<Buffer> {
  const format = imageFormatOfName(sheetPath);
  if (!format) throw new Error(`${sheetPath} is not an image`);
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
