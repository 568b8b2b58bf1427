import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';

/** Whether a file's content is audio, sniffed from its first bytes (never its name). */
export async function isAudioContent(content: Readable): Promise<boolean> {
  try {
    // Loaded on the first sniff, not at start-up (decision 0064).
    const { fileTypeFromStream } = await import('file-type');
    const type = await fileTypeFromStream(Readable.toWeb(content) as ReadableStream<Uint8Array>);
    return type !== undefined && (type.mime.startsWith('audio/') || type.mime === 'application/ogg');
  } finally {
    content.destroy();
  }
}
