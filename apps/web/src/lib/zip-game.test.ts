// @vitest-environment node
// Real zips, written with yazl (the server's tests' writer) or, for an encrypted entry, zip.js's ZipWriter, read
// back through the central directory as the browser does. Node's Blob and DecompressionStream stand in for the
// browser's (jsdom has neither).
import { limits, uploadMessages } from '@reskin/contract';
import { BlobWriter, TextReader, ZipWriter } from '@zip.js/zip.js';
import { describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { UnreadableZipError, inflateEntry, planZipGame, readZipEntries, type ZipGameEntry } from './zip-game';

const MB = 1024 * 1024;
const maxFileSizeBytes = 50 * MB;

interface Entry {
  name: string;
  content?: string | Uint8Array;
  directory?: boolean;
  /** Deflated unless false (stored). */
  compress?: boolean;
}

async function makeZip(entries: Entry[]): Promise<Blob> {
  const zip = new ZipFile();
  for (const { name, content, directory, compress } of entries) {
    if (directory) zip.addEmptyDirectory(name);
    else zip.addBuffer(Buffer.from(content ?? name), name, { compress: compress ?? true });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return new Blob([Buffer.concat(chunks)]);
}

async function encryptedZip(): Promise<Blob> {
  const writer = new ZipWriter(new BlobWriter('application/zip'), { useWebWorkers: false });
  await writer.add('index.html', new TextReader('<!doctype html>'));
  await writer.add('secret.js', new TextReader('var secret = 1;'), { password: 'pw' });
  return writer.close();
}

/**
 * The zip with the uncompressed size its central directory declares for `name` replaced: what a zip bomb or a
 * lying zip looks like, without writing gigabytes.
 */
async function withDeclaredSize(zip: Blob, name: string, uncompressedSize: number): Promise<Blob> {
  const bytes = new Uint8Array(await zip.arrayBuffer());
  const view = new DataView(bytes.buffer);
  const wanted = new TextEncoder().encode(name);
  for (let at = 0; at + 46 <= bytes.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(at + 28, true);
    const found = bytes.subarray(at + 46, at + 46 + nameLength);
    if (found.length === wanted.length && found.every((byte, i) => byte === wanted[i])) {
      view.setUint32(at + 24, uncompressedSize, true);
      return new Blob([bytes]);
    }
  }
  throw new Error(`${name} is not in the central directory`);
}

/** A zip's kept entries (readZipEntries, with no top folder in the game). */
const entriesOf = async (zip: Blob) => (await readZipEntries(zip)).entries;

const asFile = (zip: Blob, name = 'game.zip') => new File([zip], name, { type: 'application/zip' });

describe('readZipEntries', () => {
  it('reads the game paths as the zip route gives them: top folder left out, folders and Finder junk skipped', async () => {
    const zip = await makeZip([
      { name: 'star/', directory: true },
      { name: 'star/index.html', content: '<!doctype html>' },
      { name: 'star/js/app.js', content: 'var a = 1;' },
      { name: 'star/.DS_Store', content: 'junk' },
      { name: '__MACOSX/star/._index.html', content: 'junk' },
    ]);
    const entries = await entriesOf(zip);
    expect(entries.map((entry) => entry.path)).toEqual(['index.html', 'js/app.js']);
    expect(entries[1]).toMatchObject({ name: 'star/js/app.js', uncompressedSize: 10, encrypted: false });
  });

  it('decision 0052: skips dotfiles, files in dot-folders and system junk, and counts them; keeps the top folder the game already has', async () => {
    const zip = await makeZip([
      { name: 'star/index.html', content: '<!doctype html>' },
      { name: 'star/.gitignore', content: 'node_modules' },
      { name: 'star/.git/HEAD', content: 'ref: refs/heads/main' },
      { name: 'star/img/Thumbs.db', content: 'junk' },
      { name: 'star/img/a.png', content: 'png' },
      { name: '__MACOSX/star/._a.png', content: 'junk' },
    ]);
    const read = await readZipEntries(zip);
    expect(read.entries.map((entry) => entry.path)).toEqual(['index.html', 'img/a.png']);
    expect(read.skipped).toBe(4);
    // A game that has a star/ folder already: the upload is a part of its tree, so the folder stays.
    const asked: string[] = [];
    const inGame = await readZipEntries(zip, async (folder) => (asked.push(folder), folder === 'star'));
    expect(asked).toEqual(['star']);
    expect(inGame.entries.map((entry) => entry.path)).toEqual(['star/index.html', 'star/img/a.png']);
  });

  it('keeps the paths when the entries share no top folder, and inflates each entry to its bytes', async () => {
    const png = new Uint8Array(3000).map((_, i) => (i * 7) % 256);
    const zip = await makeZip([
      { name: 'index.html', content: '<!doctype html>'.repeat(20) },
      { name: 'img/a.png', content: png, compress: false },
    ]);
    const entries = await entriesOf(zip);
    expect(entries.map((entry) => entry.path)).toEqual(['index.html', 'img/a.png']);
    expect(entries[0]!.entry.compressionMethod).toBe(8);
    expect(await (await inflateEntry(entries[0]!)).text()).toBe('<!doctype html>'.repeat(20));
    expect(entries[1]!.entry.compressionMethod).toBe(0);
    expect(new Uint8Array(await (await inflateEntry(entries[1]!)).arrayBuffer())).toEqual(png);
  });

  it('fails an entry that inflates to more bytes than it declares', async () => {
    const zip = await withDeclaredSize(
      await makeZip([{ name: 'a.txt', content: 'x'.repeat(500) }]),
      'a.txt',
      20,
    );
    const [entry] = await entriesOf(zip);
    await expect(inflateEntry(entry!)).rejects.toThrow(
      'a.txt unpacks to more than the 20 bytes it declares.',
    );
  });
});

describe('planZipGame', () => {
  it('sends a zip within the zip route limits to the zip route', async () => {
    const zip = await makeZip([{ name: 'g/index.html' }, { name: 'g/a.js' }]);
    expect(planZipGame(await entriesOf(zip), zip.size, maxFileSizeBytes)).toEqual({ kind: 'zip-route' });
  });

  it('unpacks in the browser a zip with more entries than one request takes, in entry order', async () => {
    const count = limits.adminUploadFiles + 1;
    const zip = await makeZip(
      Array.from({ length: count }, (_, i) => ({ name: `g/data/${i}.json`, content: `{"n":${i}}` })),
    );
    const plan = planZipGame(await entriesOf(asFile(zip)), zip.size, maxFileSizeBytes);
    if (plan.kind !== 'unpack') throw new Error(`planned ${plan.kind}`);
    expect(plan.items).toHaveLength(count);
    expect(plan.items[0]).toMatchObject({ fullPath: 'data/0.json', size: 7 });
    expect(plan.items.at(-1)?.fullPath).toBe(`data/${count - 1}.json`);
    expect(await (await plan.items[1000]!.read()).text()).toBe('{"n":1000}');
  });

  it('refuses an entry declared over the per-file limit with the server words, before anything is sent', async () => {
    const zip = await withDeclaredSize(
      await makeZip([{ name: 'g/index.html' }, { name: 'g/big.bin', content: 'x' }]),
      'g/big.bin',
      3 * 1024 ** 3,
    );
    expect(planZipGame(await entriesOf(zip), zip.size, maxFileSizeBytes)).toEqual({
      kind: 'refused',
      status: 413,
      message: uploadMessages.fileTooLarge('big.bin', maxFileSizeBytes),
    });
    expect(uploadMessages.fileTooLarge('big.bin', maxFileSizeBytes)).toBe(
      'big.bin is larger than the 50 MB limit per file.',
    );
  });

  it('refuses an entry that unpacks to more than the ratio allows (a zip bomb)', async () => {
    const zeros = new Uint8Array(limits.zipUpload.ratioMinBytes * 2);
    const zip = await makeZip([{ name: 'g/index.html' }, { name: 'g/zeros.bin', content: zeros }]);
    const entries = await entriesOf(zip);
    expect(entries[1]!.uncompressedSize / entries[1]!.compressedSize).toBeGreaterThan(
      limits.zipUpload.maxCompressionRatio,
    );
    expect(planZipGame(entries, zip.size, maxFileSizeBytes)).toEqual({
      kind: 'refused',
      status: 413,
      message: uploadMessages.zipEntryRatio('zeros.bin'),
    });
  });

  it('refuses entries that together unpack to more than the total limit', () => {
    const each = 40 * MB;
    const count = Math.floor(limits.zipUpload.maxUnpackedBytes / each) + 1;
    const entries = Array.from(
      { length: count },
      (_, i) =>
        ({
          path: `${i}.bin`,
          name: `${i}.bin`,
          compressedSize: each / 2,
          uncompressedSize: each,
          encrypted: false,
        }) as Partial<ZipGameEntry> as ZipGameEntry,
    );
    expect(planZipGame(entries, 1, maxFileSizeBytes)).toEqual({
      kind: 'refused',
      status: 413,
      message: uploadMessages.zipUnpackedTotal,
    });
    expect(uploadMessages.zipUnpackedTotal).toBe('The zip unpacks to more than 2 GB.');
    expect(planZipGame(entries.slice(0, -1), 1, maxFileSizeBytes).kind).toBe('zip-route');
  });

  it('refuses an encrypted entry', async () => {
    const zip = await encryptedZip();
    expect(planZipGame(await entriesOf(zip), zip.size, maxFileSizeBytes)).toEqual({
      kind: 'refused',
      status: 422,
      message: uploadMessages.zipEntryEncrypted('secret.js'),
    });
  });

  it('sees a zip that is not one as unreadable', async () => {
    await expect(readZipEntries(new Blob(['not a zip at all']))).rejects.toBeInstanceOf(UnreadableZipError);
  });
});
