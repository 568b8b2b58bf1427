import type { Storage } from './storage';

/**
 * The first `bytes` bytes of a stored object (all of it when it is shorter), read as a range so a large file is
 * never read whole; undefined when the object is missing. `size`, when the caller knows it (a game file's
 * recorded size), saves asking the store (on S3 a request per file).
 */
export async function readPrefix(
  storage: Storage,
  key: string,
  bytes: number,
  size?: number,
): Promise<Buffer | undefined> {
  if (bytes <= 0) return Buffer.alloc(0);
  const known = size ?? (await storage.stat(key))?.size;
  if (known === undefined) return undefined;
  if (known === 0) return Buffer.alloc(0);
  const object = await storage.get(key, { start: 0, end: Math.min(bytes, known) - 1 });
  if (!object) return undefined;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of object.stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    chunks.push(buffer);
    total += buffer.length;
    if (total >= bytes) break;
  }
  object.stream.destroy();
  return Buffer.concat(chunks).subarray(0, bytes);
}
