import type { Readable } from 'node:stream';
import type { ZipFile } from 'yazl';
import { isCompressible } from '../../lib/content-types';
import { lazyPackage } from '../../lib/lazy-package';
import { MissingObjectError, type Storage } from '../../storage/storage';

const yazl = lazyPackage<typeof import('yazl')>('yazl');

/**
 * A zip of stored files at their paths, streamed: each object is opened only when its turn comes (decision
 * 0007). An object that is missing or cannot be read ends the stream with an error naming its key (a request
 * that has started answering is then aborted), never the process: yazl reports such a file as an 'error' of the
 * ZipFile, which would otherwise have no listener.
 *
 * Only compressible files (isCompressible: text, JSON, SVG, WAV, BMP...) are deflated; already-compressed media
 * (PNG, JPEG, MP3, OGG, woff2...) is stored as it is (deflating it again cost more time than the zip
 * CLI for a saving of a few per cent).
 */
export function zipStoredFiles(storage: Storage, files: { path: string; storageKey: string }[]): Readable {
  const zip: ZipFile = new (yazl().ZipFile)();
  const output = zip.outputStream as Readable;
  const fail = (error: Error) => output.destroy(error);
  zip.on('error', fail);
  // The object being read; closed when the answer ends early (the client went away, or an error).
  let reading: Readable | undefined;
  output.once('close', () => reading?.destroy());
  for (const file of files) {
    zip.addReadStreamLazy(file.path, { compress: isCompressible(file.path) }, (callback) => {
      storage.get(file.storageKey).then(
        (object) => {
          if (!object) return fail(new MissingObjectError(file.storageKey));
          if (output.destroyed) return object.stream.destroy();
          reading = object.stream;
          object.stream.once('error', (error) =>
            fail(
              new Error(`The stored object ${file.storageKey} could not be read: ${error.message}`, {
                cause: error,
              }),
            ),
          );
          callback(null, object.stream);
        },
        (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
      );
    });
  }
  zip.end();
  return output;
}
