import { fromBufferPromise, type Entry } from 'yauzl';

/** One entry of a zip: its name, how it is stored (0 stored, 8 deflated) and its unpacked bytes. */
export interface ZipEntry {
  name: string;
  compressionMethod: number;
  bytes: Buffer;
}

/** The entries of a zip in their order (the one zip reader of the server's tests). */
export async function readZipEntries(bytes: Buffer): Promise<ZipEntry[]> {
  const zip = await fromBufferPromise(bytes, { lazyEntries: true });
  const entries: ZipEntry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          entries.push({
            name: entry.fileName,
            compressionMethod: entry.compressionMethod,
            bytes: Buffer.concat(chunks),
          });
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

/** The entries of a zip answer (files.zip), by name. */
export async function readZip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Map((await readZipEntries(bytes)).map((entry) => [entry.name, entry.bytes]));
}
