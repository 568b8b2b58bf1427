import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from '../src/storage/local-disk-storage';
import { S3Storage } from '../src/storage/s3-storage';
import type { Storage } from '../src/storage/storage';
import { testDb } from './helpers';
import { startS3Server, type S3Server } from './support/s3-server';

// One contract, two backends: what the app asks of storage holds on the local disk and on a real S3
// protocol server (s3rver, in a process of its own). Storage has nothing to do with the database: SQLite pass only.

/** A stream of `size` pseudo-random bytes made chunk by chunk (never whole in memory), and their SHA-256 once read. */
function generatedStream(size: number, failAfter?: number): { stream: Readable; digest: () => string } {
  const hash = createHash('sha256');
  const chunk = 64 * 1024;
  let sent = 0;
  const stream = new Readable({
    read() {
      if (failAfter !== undefined && sent >= failAfter)
        return this.destroy(new Error('the client went away'));
      if (sent >= size) return this.push(null);
      const bytes = randomBytes(Math.min(chunk, size - sent));
      sent += bytes.length;
      hash.update(bytes);
      this.push(bytes);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

/** Reads a stream to its SHA-256 without keeping it. */
async function digestOf(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const text = (content: string) => Readable.from([Buffer.from(content)]);

async function keysOf(storage: Storage, prefix?: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key } of storage.list(prefix)) keys.push(key);
  return keys.sort();
}

// A full garbage collection before each memory sample, so the samples count what is held, not what is garbage yet.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** The memory the process holds after a full collection: heap in use plus Buffers. */
function heldMemory(): number {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

const backends: { name: string; open: () => Promise<{ storage: Storage; close: () => Promise<void> }> }[] = [
  {
    name: 'the local disk',
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'reskin-storage-'));
      return {
        storage: new LocalDiskStorage(dir),
        close: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'an S3 server',
    open: async () => {
      const server: S3Server = await startS3Server();
      // Pages of 2 keys, so every listing below pages.
      const storage = await S3Storage.open(server.storageConfig, 2);
      return {
        storage,
        close: async () => {
          storage.close();
          await server.close();
        },
      };
    },
  },
];

describe.runIf(testDb === 'sqlite').each(backends)('the storage contract on $name', ({ open }) => {
  let storage: Storage;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ storage, close } = await open());
  });
  afterAll(async () => close());

  it('puts, gets, lists (by prefix, page after page) and deletes; overwriting replaces; missing keys are undefined and deleting them is fine', async () => {
    expect(await storage.put('games/1/a.txt', text('alpha'))).toEqual({ size: 5 });
    await storage.put('games/1/img/b.png', text('bravo'));
    await storage.put('games/1/img/c.png', text('charlie'));
    await storage.put('games/2/d.txt', text('delta'));
    await storage.put('versions/3/e.txt', text('echo'));

    const a = await storage.get('games/1/a.txt');
    expect(a).toMatchObject({ size: 5, contentType: 'text/plain' });
    expect((await buffer(a!.stream)).toString()).toBe('alpha');
    expect((await storage.get('games/1/img/b.png'))!.contentType).toBe('image/png');
    expect(await storage.stat('games/1/img/c.png')).toEqual({ size: 7 });

    expect(await keysOf(storage)).toEqual([
      'games/1/a.txt',
      'games/1/img/b.png',
      'games/1/img/c.png',
      'games/2/d.txt',
      'versions/3/e.txt',
    ]);
    expect(await keysOf(storage, 'games/1/')).toEqual([
      'games/1/a.txt',
      'games/1/img/b.png',
      'games/1/img/c.png',
    ]);
    for await (const { lastModified } of storage.list())
      expect(Date.now() - lastModified.getTime()).toBeLessThan(10 * 60_000);

    await storage.put('games/1/a.txt', text('alpha, second'));
    expect((await buffer((await storage.get('games/1/a.txt'))!.stream)).toString()).toBe('alpha, second');

    expect(await storage.get('games/9/none.txt')).toBeUndefined();
    expect(await storage.stat('games/9/none.txt')).toBeUndefined();
    await storage.delete('games/9/none.txt');
    await storage.delete('games/2/d.txt');
    expect(await storage.get('games/2/d.txt')).toBeUndefined();
    await storage.deleteMany(['games/1/a.txt', 'games/1/img/b.png', 'games/9/none.txt']);
    expect(await keysOf(storage)).toEqual(['games/1/img/c.png', 'versions/3/e.txt']);
    await storage.deleteMany(await keysOf(storage));
    expect(await keysOf(storage)).toEqual([]);
  });

  it('reads byte ranges: the first bytes, the middle, the last byte', async () => {
    const content = Buffer.from('0123456789abcdefghij');
    await storage.put('ranges/r.bin', Readable.from([content]));
    const read = async (start: number, end: number) => {
      const object = (await storage.get('ranges/r.bin', { start, end }))!;
      expect(object.size).toBe(content.length);
      expect(object.range).toEqual({ start, end });
      return (await buffer(object.stream)).toString();
    };
    expect(await read(0, 3)).toBe('0123');
    expect(await read(10, 15)).toBe('abcdef');
    expect(await read(19, 19)).toBe('j');
    expect((await storage.get('ranges/r.bin'))!.range).toBeUndefined();
  });

  it('streams 50 MB in and out without holding it in memory', async () => {
    const size = 50 * 1024 * 1024;
    const source = generatedStream(size);
    const before = heldMemory();
    let peak = before;
    // 100 ms after each sample ends: a full collection is slow (more so on a loaded machine), and a put that held the
    // object would hold it for longer. Not a fixed interval: with collections slower than it, the samples ran back to
    // back, the stream moved one chunk between two of them, and the test timed out (a full run under load).
    let sampler: NodeJS.Timeout | undefined;
    const sample = () => {
      peak = Math.max(peak, heldMemory());
      sampler = setTimeout(sample, 100);
    };
    sampler = setTimeout(sample, 100);
    try {
      expect(await storage.put('big/50mb.bin', source.stream)).toEqual({ size });
      const object = (await storage.get('big/50mb.bin'))!;
      expect(object.size).toBe(size);
      expect(await digestOf(object.stream)).toBe(source.digest());
    } finally {
      clearTimeout(sampler);
    }
    // Measured: the disk holds a few 64 KB chunks (under 1 MB); an S3 upload up to four 5 MB parts (the one being
    // filled, its copy, two in flight: about 26 MB). A put or get that held the whole object would pass 50 MB.
    // 46 MB, not 40: on a loaded machine under Node 24 the S3 case held 42.6 MB once (parts waiting on a slow s3rver);
    // a whole 50 MB object held would still pass it.
    expect(peak - before).toBeLessThan(46 * 1024 * 1024);
    await storage.delete('big/50mb.bin');
  }, 120_000);

  it('an interrupted put rejects and leaves no object, and keeps the previous one', async () => {
    // Cut off after 12 MB: on S3 a multipart upload with parts already sent, which is aborted.
    await expect(
      storage.put('cut/new.bin', generatedStream(20 * 1024 * 1024, 12 * 1024 * 1024).stream),
    ).rejects.toThrow('the client went away');
    expect(await storage.get('cut/new.bin')).toBeUndefined();
    // Cut off at once: a single-request upload on S3.
    await storage.put('cut/old.txt', text('kept'));
    await expect(storage.put('cut/old.txt', generatedStream(1024, 100).stream)).rejects.toThrow(
      'the client went away',
    );
    expect((await buffer((await storage.get('cut/old.txt'))!.stream)).toString()).toBe('kept');
    expect(await keysOf(storage, 'cut/')).toEqual(['cut/old.txt']);
    // What is left of cut-off writes (temporary files, unfinished uploads) is gone or was never there.
    await storage.removeAbandonedWrites(new Date(Date.now() + 60_000));
    expect(await keysOf(storage, 'cut/')).toEqual(['cut/old.txt']);
  });

  it('a put that need not be durable (a generated copy) replaces, reads back, and when cut off keeps the previous object', async () => {
    await storage.put('copies/a.png', text('first'), { durable: false });
    expect(await storage.put('copies/a.png', text('second'), { durable: false })).toEqual({ size: 6 });
    expect((await buffer((await storage.get('copies/a.png'))!.stream)).toString()).toBe('second');
    await expect(
      storage.put('copies/a.png', generatedStream(1024, 100).stream, { durable: false }),
    ).rejects.toThrow('the client went away');
    expect(await keysOf(storage, 'copies/')).toEqual(['copies/a.png']);
    expect((await buffer((await storage.get('copies/a.png'))!.stream)).toString()).toBe('second');
  });

  it('puts a buffer in one go, durable or not, replacing the previous object, with its size and type', async () => {
    expect(await storage.put('buffers/a.png', Buffer.from('first'))).toEqual({ size: 5 });
    expect(await storage.put('buffers/a.png', Buffer.from('second one'), { durable: false })).toEqual({
      size: 10,
    });
    expect(await storage.put('buffers/empty.txt', Buffer.alloc(0))).toEqual({ size: 0 });
    const object = await storage.get('buffers/a.png');
    expect([object?.size, object?.contentType]).toEqual([10, 'image/png']);
    expect((await buffer(object!.stream)).toString()).toBe('second one');
    expect(await storage.stat('buffers/empty.txt')).toEqual({ size: 0 });
    expect(await keysOf(storage, 'buffers/')).toEqual(['buffers/a.png', 'buffers/empty.txt']);
  });

  it('copies an object inside the store to an object of its own: removing or replacing either leaves the other', async () => {
    await storage.put('versions/9/a.png', Buffer.from('version file'));
    expect(await storage.copy('versions/9/a.png', 'history/9/b.png')).toEqual({ size: 12 });
    const copied = await storage.get('history/9/b.png');
    expect([copied?.size, copied?.contentType]).toEqual([12, 'image/png']);
    expect((await buffer(copied!.stream)).toString()).toBe('version file');
    await storage.put('versions/9/a.png', Buffer.from('replaced'));
    expect((await buffer((await storage.get('history/9/b.png'))!.stream)).toString()).toBe('version file');
    await storage.delete('versions/9/a.png');
    expect((await buffer((await storage.get('history/9/b.png'))!.stream)).toString()).toBe('version file');
  });
});
