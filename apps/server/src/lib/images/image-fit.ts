import type { Sharp } from 'sharp';
import { batchMessages, limits, type FitMode, type ImageFormatName } from '@reskin/contract';
import { BitmapDecodeError } from './bitmap-decoding';
import { readImage } from './image-reading';
import { openPixels, type Pixels } from './pixels';

// Fitting an artist's image to the original's pixel size and format (decision 0030): the batch replace
// stores what this makes, and the fit preview answers the same bytes, so the preview is the stored result.

/** The formats a fitted or converted image can be written in: the ones sharp writes. */
export const fitOutputFormats = ['png', 'jpeg', 'webp', 'gif', 'avif'] as const;
export type FitOutputFormat = (typeof fitOutputFormats)[number];

export function canWriteFormat(format: ImageFormatName): format is FitOutputFormat {
  return (fitOutputFormats as readonly string[]).includes(format);
}

/** Why an image cannot be fitted or converted (the batch's row error; a 422 elsewhere). */
export class ImageFitError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export interface FitOptions {
  /** The original's size. */
  width: number;
  height: number;
  /** How an image of another size is made to it (ignored when the sizes match). */
  mode: FitMode;
  /** The format to write: the original's. */
  format: ImageFormatName;
  /** The format of the input (a contract name; BMP and ICO are decoded first). */
  inputFormat: ImageFormatName;
}

/** Formats without an alpha channel: contain pads them with black (letterbox) instead of transparency. */
const opaque = new Set<ImageFormatName>(['jpeg']);

/**
 * The input fitted to `width` x `height` with `mode` (cover: fill and crop, centred; contain: scaled to fit with
 * transparent padding, black for JPEG; stretch: scaled to exactly that size) and written in `format`. Downscaling
 * uses lanczos3. An input of the same size is only converted. An animated image (more than one frame) is refused
 * when it would have to be resized or converted: its frames and timing stay as the artist made them only when it
 * is stored as it is (decision 0030). In the two steps the batch takes (decision 0060), so the fit preview is the
 * stored result: scaleForFit, then finishFit.
 */
export async function fitImage(input: Buffer, options: FitOptions): Promise<Buffer> {
  const { width, height, format, inputFormat } = options;
  assertWritable(format);
  try {
    // Its callers checked the header (readHeader: the pixel limit) before.
    const header = readImage(input, inputFormat, { limitInputPixels: limits.maxImagePixels, pages: -1 });
    const { pages = 1, width: inWidth, height: inHeight, pageHeight } = await header.metadata();
    const sameSize = inWidth === width && (pageHeight ?? inHeight) === height;
    if (pages > 1 && !(sameSize && inputFormat === format))
      throw new ImageFitError(batchMessages.animatedGif, 'animated');
    if (pages > 1) return input;
  } catch (error) {
    throw fitError(error);
  }
  return finishFit(await scaleForFit(input, options), options);
}

/** How the first step scales for each mode: the box covered (cropped next), fitted inside (padded next), filled. */
const scaleFits = { cover: 'outside', contain: 'inside', stretch: 'fill' } as const;

/**
 * The first step of a fit, and the only decode of the input: a still image read whole (truncated or damaged data
 * fails, sharp's failOn 'error', as the upload's check) and scaled to cover, fit inside or fill the box. Every
 * input row makes the scaled image, so a failure-free read is the check of every pixel: the batch checks and
 * fits an image with this one decode (decision 0060). The result is at most about the box's size, in the
 * channels the image has.
 */
export async function scaleForFit(input: Buffer, options: FitOptions): Promise<Pixels> {
  const { width, height, mode, inputFormat } = options;
  try {
    const { data, info } = await readImage(input, inputFormat, { limitInputPixels: false, failOn: 'error' })
      .resize(width, height, { fit: scaleFits[mode], kernel: 'lanczos3' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels };
  } catch (error) {
    throw fitError(error);
  }
}

/** The second step: the scaled pixels cropped to the box (cover, centred) or padded to it (contain), and written. */
export async function finishFit(scaled: Pixels, options: Omit<FitOptions, 'inputFormat'>): Promise<Buffer> {
  const { width, height, mode, format } = options;
  assertWritable(format);
  try {
    let image = openPixels(scaled);
    const spareX = scaled.width - width;
    const spareY = scaled.height - height;
    if (mode === 'cover' && (spareX > 0 || spareY > 0)) {
      image = image.extract({ left: Math.floor(spareX / 2), top: Math.floor(spareY / 2), width, height });
    }
    if (mode === 'contain' && (spareX < 0 || spareY < 0)) {
      const left = Math.floor(-spareX / 2);
      const top = Math.floor(-spareY / 2);
      image = image.extend({
        left,
        right: -spareX - left,
        top,
        bottom: -spareY - top,
        background: opaque.has(format) ? { r: 0, g: 0, b: 0, alpha: 1 } : { r: 0, g: 0, b: 0, alpha: 0 },
      });
    }
    if (opaque.has(format)) image = image.flatten({ background: { r: 0, g: 0, b: 0 } });
    return await written(image, format).toBuffer();
  } catch (error) {
    throw fitError(error);
  }
}

function assertWritable(format: ImageFormatName): asserts format is FitOutputFormat {
  if (!canWriteFormat(format)) {
    throw new ImageFitError(
      `Images cannot be written as ${format.toUpperCase()}: replace it with a ${format.toUpperCase()} of the original's size.`,
      'cannot_convert',
    );
  }
}

/** A failure of fitting as the row's error: an ImageFitError as it is, anything else explained. */
function fitError(error: unknown): ImageFitError {
  if (error instanceof ImageFitError) return error;
  const why = error instanceof BitmapDecodeError ? error.message : (error as Error).message;
  return new ImageFitError(`The image could not be fitted: ${why.replace(/\.?$/, '.')}`, 'invalid_image');
}

/** The encoder settings of each output format: PNG and GIF as they are, the lossy ones at a high quality. */
function written(image: Sharp, format: FitOutputFormat): Sharp {
  switch (format) {
    case 'png':
      return image.png();
    case 'jpeg':
      return image.jpeg({ quality: 90, mozjpeg: false });
    case 'webp':
      return image.webp({ quality: 90 });
    case 'gif':
      return image.gif();
    case 'avif':
      return image.avif({ quality: 60 });
  }
}
