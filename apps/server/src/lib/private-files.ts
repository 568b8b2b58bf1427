import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/**
 * What the server writes under DATA_DIR (the SQLite database, the JWT secret, stored files and their
 * folders) is readable by the server's user only. The modes are set with chmod after creating, so they do not
 * depend on the process's umask (which can only take bits away from a create mode, and may be 000).
 */
export const privateFileMode = 0o600;
export const privateDirMode = 0o700;

/** Creates a folder (and its missing parents) for the server's user only; an existing folder is left as it is. */
export function makePrivateDirSync(path: string): void {
  const created = mkdirSync(path, { recursive: true, mode: privateDirMode });
  if (created === undefined) return;
  for (const folder of createdFolders(created, path)) chmodSync(folder, privateDirMode);
}

/** An empty file for the server's user only, unless it exists; its mode is made private in both cases. */
export function makePrivateFileSync(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, 'a', privateFileMode));
  chmodSync(path, privateFileMode);
}

/** Like makePrivateDirSync, for the storage's folders under its root. */
export async function makePrivateDir(path: string): Promise<void> {
  const created = await mkdir(path, { recursive: true, mode: privateDirMode });
  if (created === undefined) return;
  for (const folder of createdFolders(created, path)) await chmod(folder, privateDirMode);
}

/** The folders a recursive mkdir created: the first one it reports, and each one below it down to `last`. */
function createdFolders(first: string, last: string): string[] {
  const below = relative(first, last);
  const folders = [first];
  if (below === '') return folders;
  let current = first;
  for (const part of below.split(sep)) {
    current = join(current, part);
    folders.push(current);
  }
  return folders;
}
