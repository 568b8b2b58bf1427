import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { fileTypeFromStream } from 'file-type';
import { kindOfName } from '@reskin/contract';

/** Sound kinds a version may replace, by the original file's extension (the contract's audio format). */
export function isAudioPath(path: string): boolean {
  return kindOfName(path) === 'audio';
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
