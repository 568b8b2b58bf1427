import { posix } from 'node:path';
import { InvalidPathError, normaliseGamePath } from '../../lib/game-paths';

/**
 * A libGDX game compiled by GWT stores its assets under hashed names (`Dawnlike-6d35….png`) and lists them in the
 * preloader's `assets.txt`, one line per asset: `type:name:stored name:size:mime type[:flag]`, both names relative
 * to the folder of assets.txt. The game asks for the name (a descriptor names `Dawnlike.png`), the preloader fetches
 * the stored file. Answers, for one such list, the game path of each name and the game path of its stored file.
 */
export function gwtAssetNames(listPath: string, text: string): Map<string, string> {
  const folder = posix.dirname(listPath);
  const names = new Map<string, string>();
  for (const line of text.split('\n')) {
    const [type, name, stored] = line.trim().split(':');
    // 'd' lines are folders; any line without both names is not one of an asset.
    if (!type || type === 'd' || !name || !stored || name === stored) continue;
    try {
      names.set(normaliseGamePath(posix.join(folder, name)), normaliseGamePath(posix.join(folder, stored)));
    } catch (error) {
      if (!(error instanceof InvalidPathError)) throw error;
    }
  }
  return names;
}

/** Whether a game file is a GWT preloader's list of assets. */
export function isGwtAssetList(path: string): boolean {
  return posix.basename(path) === 'assets.txt';
}
