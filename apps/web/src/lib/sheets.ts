import type { Atlas, AtlasGrid } from '@reskin/contract';

/**
 * The grid a grid atlas was cut by, read back from its frames (the atlas carries frames, not the grid): the first
 * frame's size and place give the frame size and margin, the next one along the spacing.
 */
export function gridOfAtlas(atlas: Atlas): AtlasGrid | null {
  const [first, second] = atlas.frames;
  if (atlas.format !== 'grid' || !first) return null;
  const spacing = second && second.rect.y === first.rect.y ? second.rect.x - first.rect.x - first.rect.w : 0;
  return { frameWidth: first.rect.w, frameHeight: first.rect.h, margin: first.rect.x, spacing };
}
