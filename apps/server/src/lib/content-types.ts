import compressible from 'compressible';
import mime from 'mime';
import type { PrecompressedMode } from '@reskin/contract';
import { extensionOf } from './game-paths';

/** How the play origin labels a game file: its MIME type and, for a pre-compressed file, its encoding. */
export interface ServedAs {
  contentType: string;
  contentEncoding?: 'gzip' | 'br';
}

const encodings: Record<string, ServedAs['contentEncoding']> = { gz: 'gzip', br: 'br' };
/** The type of a pre-compressed file sent as stored: the compressed bytes themselves. */
const storedTypes: Record<string, string> = { gz: 'application/gzip', br: 'application/x-brotli' };

/**
 * The one definition of a game file's served type (recorded at upload, used by the play origin, whose headers
 * nginx copies on an X-Accel hand-off; docs/operations.md lists them).
 *
 * A name ending in `.gz` or `.br` is a pre-compressed file, sent by the game's `precompressed` mode (
 * decision 0022):
 * - `encoded` (Unity WebGL ships `Build/*.data.gz`, `*.wasm.br`, `*.framework.js.gz`): the stored bytes with
 *   `Content-Encoding` and the type of the inner name, so the browser decodes them and the engine's loader (and
 *   `WebAssembly.instantiateStreaming`, which needs `application/wasm`) sees the real file. This holds for every
 *   .gz/.br, including one whose inner name has no known type (`save.gz` → application/octet-stream, gzip).
 * - `stored` (a loader that unpacks them itself: Godot builds gzipped by CI, pako, DecompressionStream): the
 *   stored bytes as `application/gzip` / `application/x-brotli`, without `Content-Encoding`.
 * Without a mode (the type recorded at upload): the inner name's type.
 */
export function servedAs(path: string, mode: PrecompressedMode = 'encoded'): ServedAs {
  const ext = extensionOf(path);
  if (mode === 'stored' && storedTypes[ext]) return { contentType: storedTypes[ext] };
  const contentEncoding = encodings[ext];
  const name = contentEncoding ? path.slice(0, -(ext.length + 1)) : path;
  // By extension only: mime would read an extension-less name such as `js` as the extension itself.
  const contentType = mime.getType(extensionOf(name)) ?? 'application/octet-stream';
  return contentEncoding ? { contentType, contentEncoding } : { contentType };
}

/**
 * Uncompressed formats games ship that mime-db (the `compressible` package's data) does not mark compressible:
 * deflated too, as a zip tool would. Everything mime-db marks (text of every kind, JSON, XML, SVG, JavaScript,
 * wasm, BMP, TTF/OTF, glTF...) deflates; PNG, JPEG, WebP, MP3, OGG, WebM, woff2, zip, .gz/.br files and the like
 * are compressed already, and deflating them again costs CPU for a few per cent (a version zip of 1,500 images
 * spent 12.8 s of CPU for 3 %).
 */
const uncompressedGameTypes = new Set([
  'application/octet-stream', // no known type (.data, .pck, .bin)
  'audio/wav',
  'audio/wave',
  'audio/x-wav',
  'image/tiff',
  'model/obj',
]);

/**
 * Whether a game file's bytes are worth compressing (the one definition: the version zip deflates only these
 * and stores the rest as they are). A pre-compressed `.gz`/`.br` never is.
 */
export function isCompressible(path: string): boolean {
  const { contentType, contentEncoding } = servedAs(path);
  if (contentEncoding) return false;
  return isCompressibleType(contentType);
}

/** The same rule by served type (a parameter such as `; charset=utf-8` is ignored): the play origin's. */
export function isCompressibleType(contentType: string): boolean {
  const semicolon = contentType.indexOf(';');
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return compressible(type) === true || uncompressedGameTypes.has(type);
}
