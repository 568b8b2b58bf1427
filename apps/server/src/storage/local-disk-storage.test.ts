import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from './local-disk-storage';

describe('local-disk storage', () => {
  let root: string;
  let storage: LocalDiskStorage;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'reskin-storage-'));
    storage = new LocalDiskStorage(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('puts a stream, then gets it back with its size and type', async () => {
    expect(await storage.put('games/1/files/7/bird.png', Readable.from(['hello ', 'world']))).toEqual({
      size: 11,
    });
    const object = await storage.get('games/1/files/7/bird.png');
    expect(object?.size).toBe(11);
    expect(object?.contentType).toBe('image/png');
    expect(await text(object!.stream)).toBe('hello world');
  });

  it('makes a folder again when it was removed after a write into it (a later write and a link still land)', async () => {
    await storage.put('versions/4/a.png', Buffer.from('a'));
    rmSync(join(root, 'versions'), { recursive: true, force: true });
    await storage.put('versions/4/b.png', Buffer.from('b'));
    await storage.put('history/4/x.png', Buffer.from('x'));
    rmSync(join(root, 'history'), { recursive: true, force: true });
    expect(await storage.copy('versions/4/b.png', 'history/4/b.png')).toEqual({ size: 1 });
    expect(await text((await storage.get('history/4/b.png'))!.stream)).toBe('b');
    // A link from a missing object still fails, after the folder was made sure of once more.
    await expect(storage.copy('versions/4/gone.png', 'history/4/c.png')).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('answers undefined for a missing key, and deleting one is not an error', async () => {
    expect(await storage.get('nothing/here.txt')).toBeUndefined();
    await storage.delete('nothing/here.txt');
  });

  it('lists keys under a prefix and forgets deleted ones', async () => {
    await storage.put('a/1.txt', Readable.from(['1']));
    await storage.put('a/b/2.txt', Readable.from(['2']));
    await storage.put('c/3.txt', Readable.from(['3']));
    const under = async (prefix?: string) => {
      const keys: string[] = [];
      for await (const { key, lastModified } of storage.list(prefix)) {
        expect(Date.now() - lastModified.getTime()).toBeLessThan(60_000);
        keys.push(key);
      }
      return keys.sort();
    };
    expect(await under('a')).toEqual(['a/1.txt', 'a/b/2.txt']);
    await storage.delete('a/1.txt');
    expect(await under()).toEqual(['a/b/2.txt', 'c/3.txt']);
  });

  it('keeps the previous object when a write fails half-way, and leaves no temporary file', async () => {
    await storage.put('k/file.bin', Readable.from(['old content']));
    const failing = new Readable({
      read() {
        this.push('new partial');
        this.destroy(new Error('connection cut'));
      },
    });
    await expect(storage.put('k/file.bin', failing)).rejects.toThrow('connection cut');
    expect(await text((await storage.get('k/file.bin'))!.stream)).toBe('old content');
    expect(await readdir(join(root, 'k'))).toEqual(['file.bin']);
  });

  it('refuses keys that could leave the root', async () => {
    for (const key of ['../x', '/etc/passwd', 'a/../../x', 'a\\b', 'a//b', '']) {
      await expect(storage.put(key, Readable.from(['x'])), key).rejects.toThrow('Invalid storage key');
    }
  });
});
