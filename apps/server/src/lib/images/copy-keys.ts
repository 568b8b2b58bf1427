import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';
import { previewKey, previewKeysOf } from './image-previews';

/** The two generated copies of every game image (DESIGN.md "Games, files, variants"). */
export type Variant = 'skeleton' | 'watermark';

/**
 * Where a variant of a stored original lives. It derives from the original's key, which is new for every
 * upload, so a replaced image's variants get new keys too and nothing stale is ever served.
 */
export function variantKey(storageKey: string, variant: Variant): string {
  return `${storageKey}.${variant}${extname(storageKey)}`;
}

/**
 * The key copies made again of an unchanged content are named after (decision 0046): beside the content's, with a
 * new part before its extension (which says the copies' format), so the play origin's kept bodies and ETags, the
 * previews and every browser's cache see new objects instead of old bytes under the same name.
 */
export function remadeCopiesKey(storageKey: string): string {
  const extension = extname(storageKey);
  return `${storageKey.slice(0, storageKey.length - extension.length)}.${randomBytes(6).toString('hex')}${extension}`;
}

/**
 * The previews generation makes of a stored original (decision 0038): of the original and its watermarked copy
 * both sizes, of its skeleton the preview (lib/images/image-previews.ts previewKey).
 */
export function copyPreviewKeys(storageKey: string): string[] {
  const [skeleton, watermark] = [variantKey(storageKey, 'skeleton'), variantKey(storageKey, 'watermark')];
  return [...previewKeysOf(storageKey), ...previewKeysOf(watermark), previewKey(skeleton, 'preview')];
}
