import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type Dirent } from 'node:fs';
import { chmod, link, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import mime from 'mime';
import pMap from 'p-map';
import { makePrivateDir, privateFileMode } from '../lib/private-files';
import type { ByteRange, PutOptions, Storage, StoredKey, StoredObject } from './storage';

const temporarySuffix = '.partial';
/** Files removed at a time by deleteMany, and synced at a time by makeDurable. */
const deleteConcurrency = 16;
const syncConcurrency = 16;

/** Refuses keys that could leave the storage root. */
function checkKey(key: string): string {
  const parts = key.split('/');
  if (
    key === '' ||
    key.startsWith('/') ||
    key.includes('\\') ||
    key.includes('\0') ||
    parts.some((p) => p === '' || p === '.' || p === '..')
  ) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }
  return key;
}

/** Writes a buffer to a new file at `path`, and waits for the disk unless `durable` is false; answers its size. */
async function writeBuffer(path: string, data: Buffer, options: PutOptions): Promise<number> {
  const handle = await open(path, 'wx', privateFileMode);
  try {
    await handle.writeFile(data);
    if (options.durable !== false) await handle.sync();
  } finally {
    await handle.close();
  }
  return data.length;
}

/** Streams `data` to a new file at `path`, and waits for the disk unless `durable` is false; answers its size. */
async function writeStream(path: string, data: Readable, options: PutOptions): Promise<number> {
  const file = createWriteStream(path, { flags: 'wx', mode: privateFileMode });
  try {
    await pipeline(data, file);
  } catch (error) {
    // A source that fails at once fails the pipeline before the file is even open; the stream still opens
    // (creates) it and only then closes. Removing it before that close would leave the file behind.
    if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
    throw error;
  }
  if (options.durable !== false) {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
  return file.bytesWritten;
}

/** Stores objects as files under a root folder (DATA_DIR/files). */
export class LocalDiskStorage implements Storage {
  constructor(private readonly root: string) {}

  /**
   * Folders this storage has made sure of. Making sure again before every write and link (a recursive mkdir and
   * its stat) was a tenth of a batch row's work on the main thread (decision 0060); nothing here removes a folder,
   * and one removed meanwhile is made again when a write or link into it finds it missing.
   */
  private readonly folders = new Set<string>();

  private pathOf(key: string): string {
    return join(this.root, ...checkKey(key).split('/'));
  }

  private async folderOf(target: string): Promise<void> {
    const folder = dirname(target);
    if (this.folders.has(folder)) return;
    await makePrivateDir(folder);
    this.folders.add(folder);
  }

  /** `step` into the folder of `target`; once more after making the folder when it was gone (ENOENT). */
  private async inFolder<T>(target: string, step: () => Promise<T>): Promise<T> {
    await this.folderOf(target);
    try {
      return await step();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !this.folders.delete(dirname(target)))
        throw error;
      await this.folderOf(target);
      return step();
    }
  }

  async put(key: string, data: Readable | Buffer, options: PutOptions = {}): Promise<{ size: number }> {
    const target = this.pathOf(key);
    // A stream cannot be written twice: its folder is made sure of every time.
    if (!Buffer.isBuffer(data)) await makePrivateDir(dirname(target));
    // Written under a temporary name and renamed into place: a failed or cut-off write never replaces
    // (or half-replaces) the previous object.
    const temporary = `${target}.${randomBytes(6).toString('hex')}${temporarySuffix}`;
    let size: number;
    try {
      size = Buffer.isBuffer(data)
        ? await this.inFolder(target, () => writeBuffer(temporary, data, options))
        : await writeStream(temporary, data, options);
      // Readable by the server's user only, whatever the umask.
      await chmod(temporary, privateFileMode);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { size };
  }

  async copy(from: string, to: string): Promise<{ size: number }> {
    const source = this.pathOf(from);
    const target = this.pathOf(to);
    try {
      // Objects are never changed in place (a put renames a new file over the key), so two names of one file are
      // two objects: deleting either unlinks only its name.
      await this.inFolder(target, () => link(source, target));
    } catch (error) {
      // A file system without hard links: the bytes written again.
      if (!['EPERM', 'ENOTSUP', 'EXDEV', 'EMLINK'].includes((error as NodeJS.ErrnoException).code ?? ''))
        throw error;
      return this.put(to, createReadStream(source));
    }
    return { size: (await stat(target)).size };
  }

  async makeDurable(keys: string[]): Promise<void> {
    // Many fsyncs in flight share the journal's commits: 300 files of 195 KB took 250 ms written without one,
    // 450-530 ms with an fsync after each write, 300 ms with all of them after the writes (decision 0061).
    await pMap(
      keys,
      async (key) => {
        const handle = await open(this.pathOf(key), 'r');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      },
      { concurrency: syncConcurrency },
    );
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | undefined> {
    const path = this.pathOf(key);
    const info = await this.stat(key);
    if (!info) return undefined;
    return {
      stream: createReadStream(path, range ? { start: range.start, end: range.end } : {}),
      size: info.size,
      contentType: mime.getType(key) ?? 'application/octet-stream',
      ...(range && { range }),
    };
  }

  async stat(key: string): Promise<{ size: number } | undefined> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    // An object is one file: unlinked at once (rm would lstat it first; a batch deletes three keys a row).
    await unlink(this.pathOf(key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  async deleteMany(keys: string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += deleteConcurrency) {
      await Promise.all(keys.slice(start, start + deleteConcurrency).map((key) => this.delete(key)));
    }
  }

  async removeAbandonedWrites(before: Date): Promise<number> {
    let removed = 0;
    for (const entry of await this.entries(this.root)) {
      if (!entry.isFile() || !entry.name.endsWith(temporarySuffix)) continue;
      const path = join(entry.parentPath, entry.name);
      const info = await stat(path).catch(() => undefined);
      // Gone meanwhile (its write finished or failed), or still being written to.
      if (!info || info.mtime >= before) continue;
      await rm(path, { force: true });
      removed++;
    }
    return removed;
  }

  async removeFailedWrites(): Promise<number> {
    return 0;
  }

  async *list(prefix = ''): AsyncIterable<StoredKey> {
    const start = prefix === '' ? this.root : this.pathOf(prefix.replace(/\/$/, ''));
    for (const entry of await this.entries(start)) {
      if (!entry.isFile() || entry.name.endsWith(temporarySuffix)) continue;
      const path = join(entry.parentPath, entry.name);
      const info = await stat(path).catch(() => undefined);
      // Deleted between the listing and now: not there any more.
      if (!info) continue;
      yield { key: relative(this.root, path).split(sep).join('/'), lastModified: info.mtime };
    }
  }

  /** Everything under a folder, at any depth; nothing when the folder does not exist. */
  private async entries(folder: string): Promise<Dirent[]> {
    try {
      return await readdir(folder, { recursive: true, withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }
}
