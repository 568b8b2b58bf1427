import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { FastifyBaseLogger } from 'fastify';
import {
  can,
  fileKindOf,
  imageFormatOfName,
  imageFormats,
  type ImagePreviews,
  type User,
} from '@reskin/contract';
import { revokedTicket } from '../../lib/download-tickets';
import { notFound } from '../../lib/errors';
import { hasPreviews, makePreview, previewSourceOf } from '../../lib/images/image-previews';
import { previewNames, PreviewGrants, type PreviewUrl } from '../../lib/preview-grants';
import { variantKey } from '../../lib/images/copy-keys';
import { skeletonPreviewOfOriginal } from '../../lib/images/variants';
import type { Storage } from '../../storage/storage';

/** Where the previews route learns a user's state: as the session check knows it (UsersService.current). */
export type PreviewHolders = (userId: number) => Promise<{ user: User; tokenVersion: number } | undefined>;

/** A preview as the route answers it. */
export interface ServedPreview {
  /** Undefined when the browser's copy is current (If-None-Match: 304, storage not read). */
  body: Readable | Buffer | undefined;
  /** A strong validator: a preview's key names one content forever (keys are new for every upload). */
  etag: string;
  /** Seconds the browser may keep it: until its grant ends. */
  maxAgeSeconds: number;
}

/** A copy's key (copy-keys.ts variantKey) and the original it was made of. */
const copyKeyPattern = /^(.+)\.(skeleton|watermark)\.[^./]+$/;

/**
 * The name whose extension tells makePreview how to read a stored object: a generated copy is in its original's
 * copy format (a BMP's copies are PNG), anything else in its own key's.
 */
function readableName(sourceKey: string): string {
  const copy = copyKeyPattern.exec(sourceKey);
  if (!copy) return sourceKey;
  const format = imageFormatOfName(copy[1]!);
  return format ? `copy.${imageFormats[format].copiesAs}` : sourceKey;
}

/**
 * Image previews (decision 0038): their URLs in the answers that list images, and the route that serves
 * them on the app's origin. A preview missing from storage (a game generated before previews existed, a version's
 * replacement, a Draft game's original) is made from its source on first request and stored, a few at a time.
 */
export class PreviewsService {
  private readonly grants: PreviewGrants;
  /** Makes in progress on this server, by preview key: two requests for one preview make it once. */
  private readonly making = new Map<string, Promise<Buffer | undefined>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    secret: string,
    private readonly storage: Storage,
    private readonly holders: PreviewHolders,
    /** The token version that answers sign with (the session check's, like play links). */
    private readonly tokenVersionOf: (userId: number) => Promise<number>,
    private readonly log: FastifyBaseLogger,
    /** How many previews this server makes at once (each decodes a full image). */
    private readonly makesAtOnce = availableParallelism(),
  ) {
    this.grants = new PreviewGrants(secret);
  }

  /** The URL maker for one answer to `user`: one token-version read, however many images. */
  async urlsFor(user: User): Promise<PreviewUrl> {
    return this.urlsAt(user, await this.tokenVersionOf(user.id));
  }

  /** The URL maker for a caller that has read the user's token version already (My Games' cards). */
  urlsAt(user: User, tokenVersion: number): PreviewUrl {
    return this.grants.urlsFor(user.id, tokenVersion);
  }

  /**
   * The previews of a game file as `user` sees it (GameFile.previews): admins the original's, anyone else the
   * watermarked copy's (none before the game's copies are made); the skeleton's preview. Null for a file that is no
   * raster image (an SVG draws itself at any size).
   */
  static gameFilePreviews(
    user: User,
    file: { path: string; width: number | null; storageKey: string; copiesKey: string | null },
    url: PreviewUrl,
  ): ImagePreviews | null {
    const source = PreviewsService.previewSource(user, file);
    if (source === null) return null;
    return {
      preview: url(source, 'preview'),
      thumbnail: url(source, 'thumb'),
      skeletonPreview: url(variantKey(file.copiesKey ?? file.storageKey, 'skeleton'), 'preview'),
    };
  }

  /**
   * The stored object whose previews show a game's image to `user` (a splash on a card or in the games list):
   * admins the original, anyone else the watermarked copy; null when it has none (no raster image, copies not made).
   */
  static previewSource(
    user: User,
    file: { path: string; width: number | null; storageKey: string; copiesKey: string | null },
  ): string | null {
    if (fileKindOf(file) !== 'image' || !hasPreviews(file.path)) return null;
    if (can(user.roleTypeId, 'play.original')) return file.storageKey;
    return file.copiesKey === null ? null : variantKey(file.copiesKey, 'watermark');
  }

  /**
   * GET /previews/{grant}/{name}: the preview a genuine grant names, to whoever holds its URL (a capability, like a
   * download ticket). 404 for a malformed, forged, expired or other name's grant, and for a preview whose source is
   * gone; 403 (revokedTicket) once the grant's user has another token version, is suspended or deleted.
   */
  async serve(grant: string, name: string, ifNoneMatch?: string, now = Date.now()): Promise<ServedPreview> {
    const claims = this.grants.verify(grant, now);
    const source = claims && previewSourceOf(claims.key);
    if (!claims || !source || previewNames[source.size] !== name) throw notFound('Preview');
    const found = await this.holders(claims.userId);
    if (!found || !found.user.activated || found.tokenVersion !== claims.tokenVersion) throw revokedTicket();
    const etag = `"${createHash('sha256').update(claims.key).digest('base64url').slice(0, 22)}"`;
    const maxAgeSeconds = Math.max(0, Math.floor((claims.expiresAt - now) / 1000));
    if (ifNoneMatch === etag) return { body: undefined, etag, maxAgeSeconds };
    const stored = await this.storage.get(claims.key);
    if (stored) return { body: stored.stream, etag, maxAgeSeconds };
    const made = await this.makeOnce(claims.key);
    if (!made) throw notFound('Preview');
    return { body: made, etag, maxAgeSeconds };
  }

  /** Makes a missing preview (makeLimited) once however many requests ask for it at once on this server. */
  private makeOnce(key: string): Promise<Buffer | undefined> {
    let making = this.making.get(key);
    if (!making) {
      making = this.makeLimited(key).finally(() => this.making.delete(key));
      this.making.set(key, making);
    }
    return making;
  }

  /** At most makesAtOnce makes at a time; the rest wait their turn. */
  private async makeLimited(key: string): Promise<Buffer | undefined> {
    if (this.running >= this.makesAtOnce) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await this.make(key);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /**
   * Makes a preview from its source and stores it (not durable: it can be made again); undefined when the source
   * is gone or is no image it can read. Two servers making the same one at once both store the same bytes, the
   * last write winning. A skeleton's preview needs its original's size only: a Draft game has no skeleton yet.
   */
  private async make(key: string): Promise<Buffer | undefined> {
    const { sourceKey, size } = previewSourceOf(key)!;
    // A store that cannot be reached fails the request (503); a source that is gone or unreadable is a 404.
    const source = await this.storage.get(sourceKey);
    const skeletonOf = source ? undefined : /^(.+)\.skeleton\.[^./]+$/.exec(sourceKey)?.[1];
    const original = skeletonOf ? await this.storage.get(skeletonOf) : undefined;
    if (!source && !original) return undefined;
    let made: Buffer;
    try {
      made = source
        ? await makePreview(await buffer(source.stream), readableName(sourceKey), size)
        : await skeletonPreviewOfOriginal(await buffer(original!.stream), skeletonOf!);
    } catch (error) {
      this.log.warn({ err: error, key }, 'a preview could not be made from its source');
      return undefined;
    }
    await this.storage.put(key, made, { durable: false }).catch((error: unknown) => {
      // Served all the same; the next request makes it again.
      this.log.warn({ err: error, key }, 'a preview made on request could not be stored');
    });
    return made;
  }
}
