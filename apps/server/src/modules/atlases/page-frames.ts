import type { AtlasRect, GameAtlases } from '@reskin/contract';

/**
 * The rects of every frame that lies on the game image `fileId`, from all the atlases that use it as a page (a
 * sheet may have a descriptor and a grid). Generation marks each in the image's watermarked copy.
 */
export function framesOnPage({ atlases }: GameAtlases, fileId: number): AtlasRect[] {
  return atlases.flatMap((atlas) => {
    const pages = new Set(atlas.pages.flatMap((page, index) => (page.fileId === fileId ? [index] : [])));
    return pages.size === 0
      ? []
      : atlas.frames.filter((frame) => pages.has(frame.page)).map((frame) => frame.rect);
  });
}
