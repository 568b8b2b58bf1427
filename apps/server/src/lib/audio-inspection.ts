import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { fileTypeFromStream } from 'file-type';
import { extensionOf } from './game-paths';

/** Sound kinds a version may replace (by the original file's extension). */
export const audioExtensions = new Set(['ogg', 'oga', 'mp3', 'wav', 'm4a', 'aac', 'flac', 'opus', 'weba']);

export function isAudioPath(path: string): boolean {
  return audioExtensions.has(extensionOf(path));
}

/** Whether a file's content is audio, sniffed from its first bytes (never its name). */
export async function isAudioContent(content: Readable): Promise<boolean> {
  try {
    const type = await fileTypeFromStream(Readable.toWeb(content) as ReadableStream<Uint8Array>);
    return type !== undefined && (type.mime.startsWith('audio/') || type.mime === 'application/ogg');
  } finally {
    content.destroy();
  }
}
