import { posix } from 'node:path';
import { isSafeName, kindOfName, limits } from '@reskin/contract';

/** Why a path was refused, in words an admin understands. */
export class InvalidPathError extends Error {}

/**
 * Normalises a game file's path (the browser's `fullPath`, e.g. `assets/img/bird.png`) and refuses anything
 * that could escape the game or means different things on different systems (DESIGN.md "Games, files,
 * variants"): absolute paths, `..`, backslashes, NUL, drive letters.
 */
export function normaliseGamePath(raw: string): string {
  const path = raw.normalize('NFC').trim();
  if (path === '') throw new InvalidPathError('The file path is empty.');
  if (path.includes('\0')) throw new InvalidPathError('The file path contains a NUL character.');
  if (path.includes('\\'))
    throw new InvalidPathError('The file path contains a backslash; use / between folders.');
  if (/^[A-Za-z]:/.test(path)) throw new InvalidPathError('The file path starts with a drive letter.');
  if (path.startsWith('/'))
    throw new InvalidPathError('The file path is absolute; it must be relative to the game.');
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new InvalidPathError('The file path contains "..".');
  if (segments.length === 0) throw new InvalidPathError('The file path is empty.');
  const normalised = posix.join(...segments);
  if (normalised.length > limits.gameFilePathMax) {
    throw new InvalidPathError(`The file path is longer than ${limits.gameFilePathMax} characters.`);
  }
  // Control characters make paths that cannot be typed or shown.
  // C0 and C1 controls and bidi overrides: a path shows as what it is (the contract's isSafeName).
  if (!isSafeName(normalised)) {
    throw new InvalidPathError('The file path contains control or text-direction characters.');
  }
  return normalised;
}

/** The lower-case extension of a path without the dot ('' when none). */
export function extensionOf(path: string): string {
  const ext = posix.extname(path).toLowerCase();
  return ext.startsWith('.') ? ext.slice(1) : '';
}

/**
 * Whether the server treats a file of this name as an image (the contract's image formats). An .svg that
 * turns out not drawable is still stored as an 'other' file: see `fileKindOf` in the contract.
 */
export function isImagePath(path: string): boolean {
  return kindOfName(path) === 'image';
}
