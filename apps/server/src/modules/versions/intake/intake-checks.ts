import { Readable } from 'node:stream';
import { uploadMessages, validationMessages, type ImageFormatName } from '@reskin/contract';
import { AudioError, SoundTooLongError, soundDuration } from '../audio-conversion';
import { isAudioContent } from '../audio-inspection';
import { unprocessable } from '../../../lib/errors';
import {
  InvalidImageError,
  assertComplete,
  inspectBytes,
  readHeader,
  type ImageInfo,
} from '../../../lib/images/image-inspection';
import { decodePixels, type RgbaImage } from '../../../lib/images/pixels';
import { unsafeSvgParts } from '../svg-safety';
import type { GameFileRow } from '../../games/game-files.repository';

// The intake's checks of an artist's bytes (decision 0055), each reading them once from memory. A batch row is
// planned with the same checks (a refusal is the row's outcome: its detail's code and the message).

/** A 422 about the sent file. */
export const refuse = (code: string, message: string) =>
  unprocessable(message, [{ path: '/file', code, message }]);

/** 422 `empty` for a file of 0 bytes. */
export function assertNotEmpty(size: number): void {
  if (size === 0) throw refuse('empty', uploadMessages.emptyFile);
}

/**
 * The image a file's name says it is, its header and every pixel read once: else 422 `invalid_image`, with the
 * reason when `explained` (a batch row and a fit preview show it).
 */
export function readableImage(bytes: Buffer, name: string, { explained = false } = {}): Promise<ImageInfo> {
  return imageCheck(() => inspectBytes(bytes, name), explained);
}

/** readableImage in its two steps, for the batch (decision 0060): the header alone (no pixel decoded)... */
export function readableHeader(bytes: Buffer, name: string): Promise<ImageInfo> {
  return imageCheck(() => readHeader(bytes, name), true);
}

/** ...then every pixel decoded, once (a row the batch fits is checked by its fit's decode instead). */
export function readableRest(bytes: Buffer, name: string, info: ImageInfo): Promise<void> {
  return imageCheck(() => assertComplete(bytes, info, name), true);
}

/** An image check's InvalidImageError as the 422 `invalid_image` of the sent file. */
async function imageCheck<T>(check: () => Promise<T>, explained: boolean): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (!(error instanceof InvalidImageError)) throw error;
    const { imageReadError } = validationMessages;
    throw refuse('invalid_image', explained ? `${imageReadError}: ${error.message}` : imageReadError);
  }
}

/** 422 `not_audio` unless the content is audio, sniffed from its first bytes (never its name). */
export async function assertAudioContent(content: Readable): Promise<void> {
  if (!(await isAudioContent(content))) throw refuse('not_audio', validationMessages.notAudio);
}

/** 422 `too_long` for a sound over limits.audioConversion.maxDurationSeconds (decision 0045). */
export const tooLong = (error: SoundTooLongError) => refuse('too_long', error.message);

/** An image replacement: its header and every pixel read once, of the original's pixel size, a safe SVG. */
export async function inspectedImage(bytes: Buffer, original: GameFileRow): Promise<ImageInfo> {
  const info = await readableImage(bytes, original.path);
  assertOriginalSize(info, original);
  assertSafeSvg(info.format, bytes);
  return info;
}

/** 422 `image_size` unless the replacement has the original's pixel size (it decodes nothing). */
export function assertOriginalSize(
  image: { width: number; height: number },
  original: Pick<GameFileRow, 'width' | 'height'>,
): void {
  if (image.width !== original.width || image.height !== original.height) {
    throw refuse(
      'image_size',
      validationMessages.imageSize({ width: original.width ?? 0, height: original.height ?? 0 }, image),
    );
  }
}

/** 422 `unsafe_svg` for an SVG with scripts, links out or the like (decision 0019). */
export function assertSafeSvg(format: ImageFormatName, bytes: Buffer): void {
  if (format !== 'svg') return;
  const unsafe = unsafeSvgParts(bytes.toString('utf8'));
  if (unsafe.length > 0) {
    throw refuse(
      'unsafe_svg',
      `This SVG contains ${unsafe.join(', ')}: remove ${unsafe.length > 1 ? 'them' : 'it'} and upload it again.`,
    );
  }
}

/**
 * A sound replacement must be audio by its content; one longer than limits.audioConversion.maxDurationSeconds
 * by its header is refused (422 too_long, decision 0045), unless `measured` already (a batch row was measured
 * when it was planned, a restore was accepted once); one ffprobe cannot read stays accepted.
 */
export async function inspectedSound(bytes: Buffer, measure: boolean, owner: number): Promise<void> {
  await assertAudioContent(Readable.from([bytes]));
  if (!measure) return;
  try {
    await soundDuration(bytes, { owner });
  } catch (error) {
    if (error instanceof SoundTooLongError) throw tooLong(error);
    if (!(error instanceof AudioError)) throw error;
  }
}

/** An image's header checked and its pixels decoded, once; 422 `invalid_image` when either fails. */
export async function decoded(bytes: Buffer, path: string, unreadable: string): Promise<RgbaImage> {
  let format;
  try {
    ({ format } = await readHeader(bytes, path));
  } catch (error) {
    if (error instanceof InvalidImageError) throw refuse('invalid_image', unreadable);
    throw error;
  }
  // Its header was sound: what fails now is its data (cut short or damaged), the artist's file.
  return decodePixels(bytes, format).catch(() => {
    throw refuse('invalid_image', unreadable);
  });
}
