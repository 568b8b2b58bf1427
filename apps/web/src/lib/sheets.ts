import type { Atlas, AtlasFrame, AtlasGrid, GameAtlases } from '@reskin/contract';

/** One sheet image as a page of one atlas: the atlas, the page's index and the frames cut from it. */
export interface SheetOf {
  atlas: Atlas;
  page: number;
  frames: AtlasFrame[];
}

/** Every atlas a game image is a page of (a descriptor's sheet, a grid, or both), with its frames on that page. */
export function sheetsOf(atlases: GameAtlases | undefined, fileId: number): SheetOf[] {
  const sheets: SheetOf[] = [];
  for (const atlas of atlases?.atlases ?? []) {
    atlas.pages.forEach((page, index) => {
      if (page.fileId === fileId)
        sheets.push({ atlas, page: index, frames: atlas.frames.filter((frame) => frame.page === index) });
    });
  }
  return sheets;
}

/** The frame of a sheet image named `name`, as the server finds it (framesOfSheet: the first atlas that names it). */
export function frameOf(
  atlases: GameAtlases | undefined,
  fileId: number,
  name: string,
): AtlasFrame | undefined {
  for (const sheet of sheetsOf(atlases, fileId)) {
    const frame = sheet.frames.find((candidate) => candidate.name === name);
    if (frame) return frame;
  }
  return undefined;
}

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
