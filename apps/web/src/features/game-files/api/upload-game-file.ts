import { uploadMultipart, type UploadOutcome } from '../../../lib/upload-request';

export interface GameFileUpload {
  gameId: number;
  file: Blob;
  /** The path inside the game; an existing path replaces that file and keeps its fileId. */
  fullPath: string;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * POST /game/upload/{gameId} with one file. The server takes up to 1000 files per request, all or nothing;
 * the screen sends them one by one instead, so each file gets its own progress and its own error.
 */
export function uploadGameFile({
  gameId,
  file,
  fullPath,
  onProgress,
  signal,
}: GameFileUpload): Promise<UploadOutcome> {
  return uploadMultipart(`/game/upload/${gameId}`, [{ fullPath, filename: baseName(fullPath), file }], {
    onProgress,
    signal,
  });
}
