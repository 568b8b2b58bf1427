import mime from 'mime';
import { extensionOf } from './game-paths';

/** How the play origin labels a game file: its MIME type and, for a pre-compressed file, its encoding. */
export interface ServedAs {
  contentType: string;
  contentEncoding?: 'gzip' | 'br';
}

const encodings: Record<string, ServedAs['contentEncoding']> = { gz: 'gzip', br: 'br' };

/**
 * The one definition of a game file's served type (recorded at upload, used by the play origin).
 *
 * A name ending in `.gz` or `.br` is a pre-compressed file (Unity WebGL ships `Build/*.data.gz`,
 * `*.wasm.br`, `*.framework.js.gz`): it is sent as stored with `Content-Encoding` and the type of its inner
 * name, so the browser decodes it and the engine's loader (and `WebAssembly.instantiateStreaming`, which
 * needs `application/wasm`) sees the real file. This holds for every .gz/.br, including one whose inner
 * name has no known type (`save.gz` → application/octet-stream, gzip): the name is all the server knows,
 * and a browser fetch then yields the inner bytes. A game that inflates a .gz itself must name it otherwise.
 */
export function servedAs(path: string): ServedAs {
  const ext = extensionOf(path);
  const contentEncoding = encodings[ext];
  const name = contentEncoding ? path.slice(0, -(ext.length + 1)) : path;
  // By extension only: mime would read an extension-less name such as `js` as the extension itself.
  const contentType = mime.getType(extensionOf(name)) ?? 'application/octet-stream';
  return contentEncoding ? { contentType, contentEncoding } : { contentType };
}
