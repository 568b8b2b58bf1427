import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { Storage, StoredObject } from '../../storage/storage';
import { readZip, readZipEntries } from '../../../test/support/zip-entries';
import { zipStoredFiles } from './version-zip';

/** A storage that holds `objects`; a function value is called for the object's stream at each open. */
function storageOf(objects: Record<string, string | (() => Readable)>): Storage {
  return {
    get: async (key: string): Promise<StoredObject | undefined> => {
      const object = objects[key];
      if (object === undefined) return undefined;
      const stream = typeof object === 'string' ? Readable.from([Buffer.from(object)]) : object();
      return { stream, size: 0, contentType: 'application/octet-stream' };
    },
  } as Partial<Storage> as Storage;
}

describe('zipStoredFiles', () => {
  it('streams every object at its path', async () => {
    const zip = await buffer(
      zipStoredFiles(storageOf({ 'k/1': 'one', 'k/2': 'two' }), [
        { path: 'img/a.png', storageKey: 'k/1' },
        { path: 'b.ogg', storageKey: 'k/2' },
      ]),
    );
    expect([...(await readZip(zip)).keys()]).toEqual(['img/a.png', 'b.ogg']);
  });

  it('stores already-compressed media as it is and deflates only compressible files', async () => {
    const json = JSON.stringify({
      frames: Array.from({ length: 50 }, (_, i) => ({ name: `frame-${i}`, x: i, y: i })),
    });
    const png = 'PNG bytes stand in for an image, repeated '.repeat(20);
    const zip = await buffer(
      zipStoredFiles(
        storageOf({ 'k/1': png, 'k/2': json, 'k/3': 'ogg', 'k/4': 'var a = 1;'.repeat(30), 'k/5': 'gz' }),
        [
          { path: 'img/a.png', storageKey: 'k/1' },
          { path: 'data/atlas.json', storageKey: 'k/2' },
          { path: 'sfx/hit.ogg', storageKey: 'k/3' },
          { path: 'main.js', storageKey: 'k/4' },
          { path: 'Build/game.data.gz', storageKey: 'k/5' },
        ],
      ),
    );
    const entries = (await readZipEntries(zip)).map((entry) => ({
      name: entry.name,
      method: entry.compressionMethod,
      text: entry.bytes.toString(),
    }));
    // 0 = stored, 8 = deflate
    expect(entries).toEqual([
      { name: 'img/a.png', method: 0, text: png },
      { name: 'data/atlas.json', method: 8, text: json },
      { name: 'sfx/hit.ogg', method: 0, text: 'ogg' },
      { name: 'main.js', method: 8, text: 'var a = 1;'.repeat(30) },
      { name: 'Build/game.data.gz', method: 0, text: 'gz' },
    ]);
  });

  // Before: yazl emitted 'error' on its ZipFile, which had no listener, and the process exited.
  it('ends the stream with an error naming the key when an object has gone missing', async () => {
    const stream = zipStoredFiles(storageOf({ 'k/1': 'one' }), [
      { path: 'a.png', storageKey: 'k/1' },
      { path: 'b.png', storageKey: 'k/gone' },
    ]);
    await expect(buffer(stream)).rejects.toThrow('The stored object k/gone is missing.');
  });

  it('ends the stream with an error naming the key when an object cannot be read', async () => {
    const failing = () =>
      new Readable({
        read() {
          this.destroy(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }));
        },
      });
    const stream = zipStoredFiles(storageOf({ 'k/1': failing }), [{ path: 'a.png', storageKey: 'k/1' }]);
    await expect(buffer(stream)).rejects.toThrow(
      'The stored object k/1 could not be read: EIO: i/o error, read',
    );
  });
});
