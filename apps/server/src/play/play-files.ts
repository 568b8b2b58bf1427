import { createHash } from 'node:crypto';
import { copyFormatOf, fileKindOf, type PrecompressedMode } from '@reskin/contract';
import type { LRUCache } from 'lru-cache';
import { servedAs, type ServedAs } from '../lib/content-types';
import { keptFor } from '../lib/kept-answers';
import { variantKey } from '../lib/images/copy-keys';
import type { GameFilesRepository } from '../modules/games/game-files.repository';
import type { GamesRepository } from '../modules/games/games.repository';
import type { VersionSheetsRepository } from '../modules/versions/sheets/version-sheets.repository';
import type { VersionsRepository } from '../modules/versions/versions.repository';
import type { PlayClaims } from '../modules/play-paths/play-tokens';

/** What the play origin serves for one path of a game in one view. */
export interface PlayFile {
  /** The game file's public id (the play usage record counts by it). */
  fileId: number;
  /** The game's start file (index): asking for it starts a play (play-usage.ts). */
  startFile: boolean;
  /** The stored object ('' for a blank). */
  key: string;
  /**
   * Set when the view serves a blank of the image's copies (an image whose copies are not made yet, decision
   * 0024): its pixel size; the play origin sends lib/images/variants blankCopy, never the original.
   */
  blank?: { path: string; width: number; height: number } | undefined;
  /** An uploaded file (the game's or a version's), not a generated copy: if it is missing, storage lost it. */
  uploaded: boolean;
  /**
   * The object is the same in every view a user of the game may have (decision 0037): a file that is no image (the
   * original in every view) unless a version replaced it, or an image's skeleton or watermarked copy. The play
   * origin then redirects the game's own requests to the user's shared URL of it (`/s/`), the same in every view.
   */
  shared: boolean;
  /**
   * A version may replace it (an image or a sound: contract fileKindOf). Any other file is the game's own object in
   * every view of every version, so its shared URL moves only when the game's file (or its play settings) changes,
   * and /s/ then sends a stale one on to the current one: its redirect may be kept by the browser (decision 0037).
   */
  replaceable: boolean;
  /** The game file's stored size in bytes (an image's original: its copies are of about its size). */
  size: number;
  /** The Content-Type header, with the charset for text. */
  contentType: string;
  /** A pre-compressed file's Content-Encoding: it is sent as stored and whole. */
  contentEncoding: ServedAs['contentEncoding'];
  /** The game is served cross-origin isolated (decision 0022): its answers carry COOP and COEP. */
  isolated: boolean;
  /**
   * From the key, which is new for every upload (and so are its copies' keys), and the game's play settings: a
   * changed file, or a changed setting (other headers), has a new one, so no browser keeps the old headers.
   */
  etag: string;
}

/** How the play origin serves a game's files (its play settings, decision 0022). */
export interface PlaySettings {
  precompressed: PrecompressedMode;
  isolated: boolean;
}

/** No such file in the game; or, for a version link, the version is gone or belongs to another game. */
export type PlayFileLookup = PlayFile | 'no-file' | 'no-version';

/** Lookups kept at most; the least recently used go first when there are more. */
const maxLookups = 20_000;

/** Text is served as UTF-8, so games with non-ASCII text show it right. */
function withCharset(contentType: string): string {
  const textual =
    contentType.startsWith('text/') || contentType === 'application/json' || contentType === 'image/svg+xml';
  return textual ? `${contentType}; charset=utf-8` : contentType;
}

/**
 * Which stored object a view serves for a game file (DESIGN.md "Play": the three views of a game). Only an
 * image (contract `fileKindOf`: an image format with a pixel size) has copies: those of `copiesKey` (decision
 * 0024: the previous content's while a replaced image's new copies are made); undefined: it has none yet, and a
 * blank is served.
 */
function storageKeyFor(
  view: PlayClaims['view'],
  file: { path: string; storageKey: string; copiesKey: string | null; width: number | null },
): string | undefined {
  if (view === 'original' || fileKindOf(file) !== 'image') return file.storageKey;
  if (file.copiesKey === null) return undefined;
  // A version's own view falls back to the watermarked view for files it has not replaced.
  return variantKey(file.copiesKey, view === 'skeleton' ? 'skeleton' : 'watermark');
}

/**
 * The play origin's file lookups: which stored object a path of a game serves in a view, with its
 * headers. A game loads hundreds of files, each asked for again on every reload (the browser revalidates), so the
 * answers are kept for `cacheMs` (PLAY_FILE_CACHE_SECONDS, a few seconds; keptFor):
 * an upload, replacement or delete shows within that time on every other server, and at once on the one that made
 * it (`forgetGame`). A kept answer whose object has gone (replaced meanwhile: the old object is deleted) is looked
 * up again by the caller (`fresh`). 0 keeps nothing.
 */
export class PlayFiles {
  private readonly lookups: LRUCache<string, PlayFileLookup> | undefined;
  private readonly settings: LRUCache<number, PlaySettings | 'no-game'> | undefined;

  constructor(
    private readonly games: GamesRepository,
    private readonly gameFiles: GameFilesRepository,
    private readonly versions: VersionsRepository,
    private readonly sheets: VersionSheetsRepository,
    cacheMs: number,
  ) {
    this.lookups = keptFor(cacheMs, maxLookups);
    this.settings = keptFor(cacheMs, maxLookups);
  }

  /**
   * A game's play settings, kept like the lookups (the play origin's headers, and the app's play screens, which
   * are served isolated for an isolated game); undefined for no such game.
   */
  async settingsOf(gameId: number): Promise<PlaySettings | undefined> {
    let answer = this.settings?.get(gameId);
    if (answer === undefined) {
      answer = (await this.games.playSettings(gameId)) ?? 'no-game';
      this.settings?.set(gameId, answer);
    }
    return answer === 'no-game' ? undefined : answer;
  }

  /** The file `path` (normalised) of the link's game in its view; `fresh` skips a kept answer. */
  async find(
    claims: PlayClaims,
    path: string,
    { fresh = false }: { fresh?: boolean } = {},
  ): Promise<{ answer: PlayFileLookup; kept: boolean }> {
    const cacheKey = `${claims.g}:${claims.view}:${claims.v ?? ''}:${claims.o ? 'o' : ''}:${path}`;
    const cached = fresh ? undefined : this.lookups?.get(cacheKey);
    if (cached !== undefined) return { answer: cached, kept: true };

    const answer = await this.lookUp(claims, path);
    this.lookups?.set(cacheKey, answer);
    return { answer, kept: false };
  }

  /** Drops the kept lookups of a game (its files or a version's replacements changed on this server). */
  forgetGame(gameId: number): void {
    this.settings?.delete(gameId);
    if (!this.lookups) return;
    const prefix = `${gameId}:`;
    // The keys first: the cache is not changed while its keys are walked.
    for (const key of [...this.lookups.keys()]) if (key.startsWith(prefix)) this.lookups.delete(key);
  }

  private async lookUp({ g, v, view, o }: PlayClaims, path: string): Promise<PlayFileLookup> {
    // Only the game the token names is reachable.
    const file = await this.gameFiles.findFileByPath(g, path);
    if (!file) return 'no-file';
    const settings = (await this.settingsOf(g)) ?? { precompressed: 'encoded', isolated: false };
    const viewKey = storageKeyFor(view, file);
    let key: string | undefined = viewKey;
    if (view === 'version') {
      // The version's replacement of this file, if it has one and the version still belongs to this game.
      const version = v ? await this.versions.findById(v) : undefined;
      if (!version || version.gameId !== g) return 'no-version';
      const replacement = await this.versions.findFile(version.id, file.fileId);
      if (replacement) key = replacement.storageKey;
      // A sheet with the artist's frames on the original shows the others the original's pixels: whoever may not
      // see originals gets the frames on the watermarked copy, or a blank until that is drawn (decision 0049).
      const rendition =
        replacement && !o ? await this.sheets.renditionOf(version.id, file.fileId) : undefined;
      if (rendition && !rendition.own) key = rendition.markedKey ?? undefined;
    }
    // A blank stands for copies not made yet; a recorded copy is missing only if storage lost it.
    const blank =
      key === undefined && file.width !== null && file.height !== null
        ? { path: file.path, width: file.width, height: file.height }
        : undefined;
    const uploaded = key !== undefined && (key === file.storageKey || key !== viewKey);
    const served = servedAs(file.path, settings.precompressed);
    // A generated copy has the type it was written in: a BMP's or an icon's copies are PNG.
    const contentType = uploaded
      ? served.contentType
      : (copyFormatOf(file.path)?.mimeType ?? served.contentType);
    return {
      fileId: file.fileId,
      startFile: file.isStartFile === 1,
      key: key ?? '',
      blank,
      uploaded,
      shared: key !== undefined && (!uploaded || (key === file.storageKey && fileKindOf(file) !== 'image')),
      replaceable: fileKindOf(file) !== 'other',
      size: file.size,
      contentType: withCharset(contentType),
      contentEncoding: served.contentEncoding,
      isolated: settings.isolated,
      // A blank's by what it is (view, size, format); a new copy then has another.
      etag: `"${createHash('sha1')
        .update(
          `${key ?? `blank:${view}:${file.path}:${file.width}x${file.height}`}:${settings.precompressed}:${settings.isolated ? 'isolated' : ''}`,
        )
        .digest('base64url')}"`,
    };
  }
}
