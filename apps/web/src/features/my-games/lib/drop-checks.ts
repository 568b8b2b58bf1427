import { fileKindOf, kindOfPickedFile, validationMessages as m, type FileKind } from '@reskin/contract';

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** A dropped or chosen file as the checks see it: its name, its folder path and its MIME type. */
export interface DroppedFile {
  name: string;
  /** The path a folder drop gives ('img/bird.png'), else the name. */
  fullPath: string;
  type: string;
}

/**
 * Audio by its MIME type, or by its extension where the browser gives none (the contract's file kinds; the
 * server sniffs the content).
 */
export function isAudioFile(file: Pick<DroppedFile, 'name' | 'type'>): boolean {
  return kindOfPickedFile(file) === 'audio';
}

/** An image of a format the server takes (the contract's image formats), by MIME type or else extension. */
export function isImageFile(file: Pick<DroppedFile, 'name' | 'type'>): boolean {
  return kindOfPickedFile(file) === 'image';
}

/**
 * What a version may replace a game file with: 'image' or 'audio', or null when the file is neither (an
 * .svg web font has an image's name but no pixel size: the server stores it as an ordinary file).
 */
export function replaceableKind(file: {
  path: string;
  width: number | null;
}): Exclude<FileKind, 'other'> | null {
  const kind = fileKindOf(file);
  return kind === 'other' ? null : kind;
}

/** A game file the version can replace. */
export interface ReplaceTarget {
  fileId: number;
  path: string;
}

/** SPEC §5 "Upload target": a drop onto one file's area must hold exactly one file. */
export function singleDropRefusal(count: number): string | null {
  return count === 1 ? null : m.multipleFilesNotAllowed;
}

/** Refusal of an image whose pixel size differs from the original's (SPEC §5), else null. */
export function imageSizeRefusal(
  original: { width: number | null; height: number | null },
  loaded: { width: number; height: number },
): string | null {
  if (original.width === loaded.width && original.height === loaded.height) return null;
  return m.imageSize({ width: original.width ?? 0, height: original.height ?? 0 }, loaded);
}

/** A dropped file (the same object that was passed in) with the game file it replaces, or why none. */
export type Match<F, T> = { file: F; target: T } | { file: F; refusal: string };

/**
 * Pairs each file of a multi-file drop with the one game file it replaces (SPEC §5): its full path equals a
 * game path or ends one ('img/bird.png' matches 'game/img/bird.png'), else its name equals the name of
 * exactly one game file. No candidate: 'No matching file is found'; several, or a game file already taken
 * by another dropped file: 'Multiple files found with same name!'.
 */
export function matchFiles<F extends DroppedFile, T extends ReplaceTarget>(
  files: readonly F[],
  targets: readonly T[],
): Match<F, T>[] {
  const taken = new Set<number>();
  return files.map((file) => {
    const candidates = candidatesFor(file, targets);
    if (candidates.length === 0) return { file, refusal: m.noMatchingFile };
    const target = candidates[0];
    if (candidates.length > 1 || !target || taken.has(target.fileId))
      return { file, refusal: m.multipleSameName };
    taken.add(target.fileId);
    return { file, target };
  });
}

function candidatesFor<T extends ReplaceTarget>(file: DroppedFile, targets: readonly T[]): T[] {
  const exact = targets.filter((target) => target.path === file.fullPath);
  if (exact.length > 0) return exact;
  if (file.fullPath.includes('/')) {
    const bySuffix = targets.filter((target) => target.path.endsWith(`/${file.fullPath}`));
    if (bySuffix.length > 0) return bySuffix;
  }
  return targets.filter((target) => baseName(target.path) === file.name);
}
