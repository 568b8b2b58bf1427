import { posix } from 'node:path';
import type { Atlas, AtlasPage } from '@reskin/contract';
import { InvalidPathError, normaliseGamePath } from '../../lib/game-paths';
import { AtlasError, type ParsedAtlas } from './atlas-parsers';

/** What resolution needs of a game's file. */
export interface AtlasGameFile {
  fileId: number;
  path: string;
  width: number | null;
  height: number | null;
}

/**
 * The game path a descriptor's image name points at: relative to the descriptor's folder, as every engine's
 * loader resolves it. A name that leaves the game (`../x.png`, an absolute path or a URL) is refused.
 */
export function resolveImagePath(descriptorPath: string, image: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(image) || image.startsWith('/')) {
    throw new AtlasError(`Its image "${image}" is not a path inside the game.`);
  }
  const joined = posix.normalize(posix.join(posix.dirname(descriptorPath), image));
  if (joined === '..' || joined.startsWith('../'))
    throw new AtlasError(`Its image "${image}" lies outside the game.`);
  try {
    return normaliseGamePath(joined);
  } catch (error) {
    if (error instanceof InvalidPathError) throw new AtlasError(`Its image "${image}": ${error.message}`);
    throw error;
  }
}

/**
 * A parsed descriptor tied to the game's files: each page is the game's image at the path the descriptor names
 * (it must exist and be an image of known size), and every frame must lie inside its page. The page size is the
 * image's own; a descriptor that declares another size is refused (it describes another export of the sheet).
 * `storedNames`: the game paths of files a loader fetches under another name (gwt-assets.ts), by that name.
 */
export function resolveAtlas(
  descriptor: AtlasGameFile,
  parsed: ParsedAtlas,
  filesByPath: ReadonlyMap<string, AtlasGameFile>,
  storedNames: ReadonlyMap<string, string> = new Map(),
): Atlas {
  const pages: AtlasPage[] = parsed.pages.map((page) => {
    const named = resolveImagePath(descriptor.path, page.image);
    const path = filesByPath.has(named) ? named : (storedNames.get(named) ?? named);
    const file = filesByPath.get(path);
    if (!file) throw new AtlasError(`Its image ${named} is not in the game.`);
    if (file.width === null || file.height === null)
      throw new AtlasError(`Its image ${path} is not an image of known size.`);
    if (
      (page.width !== undefined && page.width !== file.width) ||
      (page.height !== undefined && page.height !== file.height)
    ) {
      throw new AtlasError(
        `It declares ${path} as ${page.width}×${page.height}, but the image is ${file.width}×${file.height}.`,
      );
    }
    return { image: path, fileId: file.fileId, width: file.width, height: file.height };
  });
  for (const frame of parsed.frames) {
    const page = pages[frame.page]!;
    const { x, y, w, h } = frame.rect;
    if (x + w > page.width || y + h > page.height) {
      throw new AtlasError(
        `Frame "${frame.name}" (${w}×${h} at ${x},${y}) lies outside ${page.image} (${page.width}×${page.height}).`,
      );
    }
  }
  return {
    descriptor: descriptor.path,
    descriptorFileId: descriptor.fileId,
    format: parsed.format,
    pages,
    frames: parsed.frames,
  };
}
