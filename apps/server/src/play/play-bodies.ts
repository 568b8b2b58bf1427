import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { LRUCache } from 'lru-cache';

/** The encodings the play origin compresses to (decision 0037). */
export type PlayEncoding = 'br' | 'gzip';

/** Files up to this size are compressed (and kept compressed); a bigger one is sent as stored. */
export const maxCompressedInput = 64 * 1024 * 1024;
/** Files up to this size are kept in memory as they are (sprites, sounds, small scripts): no storage read per request. */
export const maxKeptIdentity = 64 * 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * The encoding an Accept-Encoding header allows, brotli first (smaller at the same CPU), then gzip; undefined:
 * the stored bytes. A coding with `q=0` is refused; `*` allows both.
 */
export function chosenEncoding(accept: string | undefined): PlayEncoding | undefined {
  if (accept === undefined || accept === '') return undefined;
  let br = false;
  let gz = false;
  for (const part of accept.split(',')) {
    const semicolon = part.indexOf(';');
    const coding = (semicolon === -1 ? part : part.slice(0, semicolon)).trim().toLowerCase();
    if (coding !== 'br' && coding !== 'gzip' && coding !== '*') continue;
    if (semicolon !== -1 && /^\s*q\s*=\s*0(\.0*)?\s*$/.test(part.slice(semicolon + 1))) continue;
    if (coding === 'br' || coding === '*') br = true;
    if (coding === 'gzip' || coding === '*') gz = true;
  }
  return br ? 'br' : gz ? 'gzip' : undefined;
}

/** The ETag of a file's compressed answer: another representation, another strong ETag (`"<etag>-br"`). */
export function encodedEtag(etag: string, encoding: PlayEncoding | undefined): string {
  return encoding === undefined ? etag : `${etag.slice(0, -1)}-${encoding}"`;
}

/**
 * Whether an If-None-Match header names this ETag: `*`, the ETag itself, or one of a list; a weak `W/` prefix is
 * ignored (RFC 9110 compares If-None-Match weakly; nginx's gzip marks the ETags it passes on weak).
 */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header === etag || header === '*') return true;
  if (!header.includes(etag)) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return (trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed) === etag;
  });
}

/** Every byte of a stream. */
async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The play origin's bodies kept in memory (decision 0037), bounded in bytes (PLAY_BODY_CACHE_MB), the least
 * recently used going first: compressed answers by storage key and encoding, and small files as stored. A
 * storage key is never written twice with other bytes (every upload and every copy gets a new one), so a kept
 * body never goes stale; an ETag comes from the key too. Two requests for the same body while it is being made
 * share the one compression.
 */
export class PlayBodies {
  private readonly kept: LRUCache<string, Buffer> | undefined;
  private readonly making = new Map<string, Promise<Buffer>>();

  constructor(maxBytes: number) {
    this.kept =
      maxBytes > 0
        ? new LRUCache<string, Buffer>({
            maxSize: maxBytes,
            sizeCalculation: (body) => Math.max(body.length, 1),
          })
        : undefined;
  }

  /** Whether bodies are kept at all (PLAY_BODY_CACHE_MB above 0). */
  get keeps(): boolean {
    return this.kept !== undefined;
  }

  /** A kept body of the stored object `key` (`encoding` undefined: as stored), or undefined. */
  get(key: string, encoding: PlayEncoding | undefined): Buffer | undefined {
    return this.kept?.get(`${encoding ?? 'identity'}:${key}`);
  }

  /** Keeps a small stored object's bytes read from `stream` (at most maxKeptIdentity) and answers them. */
  async keepIdentity(key: string, stream: Readable): Promise<Buffer> {
    const body = await readAll(stream);
    this.kept?.set(`identity:${key}`, body);
    return body;
  }

  /** The stored bytes read from `stream`, compressed to `encoding` (kept for the next request). */
  async compress(key: string, encoding: PlayEncoding, stream: Readable, size: number): Promise<Buffer> {
    const cacheKey = `${encoding}:${key}`;
    const pending = this.making.get(cacheKey);
    if (pending) {
      stream.destroy();
      return pending;
    }
    const made = (async () => {
      const input = await readAll(stream);
      // Brotli 5: about gzip 6's speed at a tenth fewer bytes; 11 would take seconds for a 5 MB build.
      const body =
        encoding === 'br'
          ? await brotli(input, {
              params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: size },
            })
          : await gzipped(input, { level: 6 });
      this.kept?.set(cacheKey, body);
      return body;
    })();
    this.making.set(cacheKey, made);
    try {
      return await made;
    } finally {
      this.making.delete(cacheKey);
    }
  }
}
