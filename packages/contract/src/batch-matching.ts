import { extensionOfName, fileKindOf, kindOfName, type FileKind } from './file-kinds';
import { batchMessages, type BatchCandidate, type BatchMatchedBy, type BatchUsage } from './batch';
import { commonTopFolder } from './uploads';

// Replace from a folder or a zip (decision 0030), its matching: one function for the server's plan and the
// browser's preview of a folder before it is sent.

/** A game file as the matching sees it. */
export interface BatchGameFile {
  fileId: number;
  path: string;
  width: number | null;
}

/** An atlas frame as the matching sees it: its name and its sheet image. */
export interface BatchFrame {
  fileId: number;
  /** The sheet image's path. */
  path: string;
  name: string;
}

export interface BatchMatch {
  incoming: string;
  relative: string;
  status: 'matched' | 'ambiguous' | 'unmatched' | 'not_replaceable';
  matchedBy: BatchMatchedBy | null;
  fileId: number | null;
  path: string | null;
  frame: string | null;
  candidates: BatchCandidate[];
  /** The kind of the matched game file, else what the incoming name promises. */
  kind: FileKind;
}

/** A path with forward slashes and no leading `./` or `/`. */
export function normaliseIncomingPath(path: string): string {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const stem = (path: string) => {
  const ext = extensionOfName(path);
  return ext ? path.slice(0, path.length - ext.length - 1) : path;
};

/**
 * The folder all incoming paths share at their top, to strip: the upload rule of decision 0052 (commonTopFolder,
 * kept when the game has a top folder of that name: a drop of `export/hero.png` matches `hero.png`; one of
 * `assets/hero.png` keeps `assets` when the game has an `assets` folder).
 */
export function sharedTopFolder(incoming: readonly string[], gamePaths: readonly string[]): string | null {
  const top = commonTopFolder(incoming);
  if (top === '') return null;
  return gamePaths.some((path) => path.startsWith(top)) ? null : top.slice(0, -1);
}

/**
 * Matches incoming files to a game's files: by the path relative to the game root (a shared top folder
 * stripped; a path that differs only in an extension of the same kind counts, for a PNG exported for a .jpg), else
 * by a unique file name (likewise), else by an atlas frame's name (with or without its extension); several
 * candidates make a row ambiguous, none unmatched. A match that is neither an image nor a sound is not replaceable.
 */
export function matchBatch(
  incomingPaths: readonly string[],
  files: readonly BatchGameFile[],
  frames: readonly BatchFrame[],
): BatchMatch[] {
  const normalised = incomingPaths.map(normaliseIncomingPath);
  const top = sharedTopFolder(
    normalised,
    files.map((file) => file.path),
  );
  const byPath = new Map<string, BatchGameFile>();
  const byPathStem = new Map<string, BatchGameFile[]>();
  const byName = new Map<string, BatchGameFile[]>();
  const byNameStem = new Map<string, BatchGameFile[]>();
  const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  for (const file of files) {
    byPath.set(file.path, file);
    push(byPathStem, stem(file.path), file);
    push(byName, baseName(file.path), file);
    push(byNameStem, stem(baseName(file.path)), file);
  }
  const framesByName = new Map<string, BatchFrame[]>();
  for (const frame of frames) {
    const names = new Set([frame.name, stem(frame.name), baseName(frame.name), stem(baseName(frame.name))]);
    for (const name of names) push(framesByName, name, frame);
  }

  return incomingPaths.map((incoming, index) => {
    const relative = top ? (normalised[index] ?? '').slice(top.length + 1) : (normalised[index] ?? '');
    const promised = kindOfName(relative);
    const sameKind = (file: BatchGameFile) => kindOfName(file.path) === promised && promised !== 'other';
    const row = (
      status: BatchMatch['status'],
      matchedBy: BatchMatchedBy | null,
      candidates: BatchCandidate[],
      kind: FileKind,
    ): BatchMatch => {
      const only = status === 'matched' || status === 'not_replaceable' ? candidates[0] : undefined;
      return {
        incoming,
        relative,
        status,
        matchedBy,
        fileId: only?.fileId ?? null,
        path: only?.path ?? null,
        frame: only?.frame ?? null,
        candidates: status === 'ambiguous' ? candidates : [],
        kind,
      };
    };
    const asCandidate = (file: BatchGameFile): BatchCandidate => ({
      fileId: file.fileId,
      path: file.path,
      frame: null,
      usage: null,
    });
    const one = (file: BatchGameFile, matchedBy: BatchMatchedBy) => {
      const kind = fileKindOf(file);
      return row(kind === 'other' ? 'not_replaceable' : 'matched', matchedBy, [asCandidate(file)], kind);
    };
    const several = (found: BatchGameFile[], matchedBy: BatchMatchedBy) =>
      found.length === 1 && found[0]
        ? one(found[0], matchedBy)
        : row('ambiguous', null, found.map(asCandidate), promised);

    const exact = byPath.get(relative);
    if (exact) return one(exact, 'path');
    const pathStem = (byPathStem.get(stem(relative)) ?? []).filter(sameKind);
    if (pathStem.length > 0) return several(pathStem, 'path');
    const name = baseName(relative);
    const named = byName.get(name) ?? [];
    if (named.length > 0) return several(named, 'name');
    const nameStem = (byNameStem.get(stem(name)) ?? []).filter(sameKind);
    if (nameStem.length > 0) return several(nameStem, 'name');
    if (promised === 'image') {
      const seen = new Set<string>();
      const found = [relative, stem(relative), name, stem(name)]
        .flatMap((key) => framesByName.get(key) ?? [])
        .filter((frame) => {
          const key = `${frame.fileId}\n${frame.name}`;
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        });
      const candidates = found.map((frame) => ({
        fileId: frame.fileId,
        path: frame.path,
        frame: frame.name,
        usage: null,
      }));
      if (candidates.length === 1) return row('matched', 'frame', candidates, 'image');
      if (candidates.length > 1) return row('ambiguous', null, candidates, 'image');
    }
    return row('unmatched', null, [], promised);
  });
}

/**
 * Candidates in the order the plan offers them (decision 0050): the ones plays load first (at a play's start before
 * later, then the most loaded), the others after in their matching order.
 */
export function rankCandidates(candidates: readonly BatchCandidate[]): BatchCandidate[] {
  const rank = (candidate: BatchCandidate) => {
    const loads = candidate.usage?.loads ?? 0;
    return [loads > 0 ? 1 : 0, candidate.usage?.atStart ? 1 : 0, loads];
  };
  return candidates
    .map((candidate, index) => ({ candidate, index, rank: rank(candidate) }))
    .sort(
      (a, b) =>
        b.rank[0]! - a.rank[0]! || b.rank[1]! - a.rank[1]! || b.rank[2]! - a.rank[2]! || a.index - b.index,
    )
    .map(({ candidate }) => candidate);
}

/**
 * The game files that are twins of a sound (decision 0050): the other sounds with the same path and name and
 * another extension (`sfx/lose.mp3` and `sfx/lose.ogg`).
 */
export function soundTwinsOf<F extends { path: string }>(path: string, files: readonly F[]): F[] {
  if (kindOfName(path) !== 'audio') return [];
  const own = stem(path);
  return files.filter(
    (file) => file.path !== path && kindOfName(file.path) === 'audio' && stem(file.path) === own,
  );
}

/**
 * What the plan says of one of several game files by the play record: "the game loads this one" for a loaded one
 * when another is not loaded, "never loaded in play" for the others; nothing when the record tells them apart not.
 */
export function usageNote(usage: BatchUsage | null, others: readonly (BatchUsage | null)[]): string | null {
  const loaded = (u: BatchUsage | null) => (u?.loads ?? 0) > 0;
  if (loaded(usage) && others.some((other) => !loaded(other))) return batchMessages.gameLoads;
  if (!loaded(usage) && others.some(loaded)) return batchMessages.notLoaded;
  return null;
}
