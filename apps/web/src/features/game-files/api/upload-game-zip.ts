import { uploadMultipart, type UploadOutcome } from '../../../lib/upload-request';

export interface GameZipUpload {
  gameId: number;
  file: File;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

/** Whether a chosen file is a zip of a game folder, to be unpacked on the server. */
export const isZipFile = (file: File) => /\.zip$/i.test(file.name);

/**
 * POST /game/upload-zip/{gameId}: the game folder as one .zip, unpacked on the server with the rules of a folder
 * upload, all or nothing. The answer is one result per unpacked file; a refusal's details name each file.
 */
export function uploadGameZip({ gameId, file, onProgress, signal }: GameZipUpload): Promise<UploadOutcome> {
  return uploadMultipart(`/game/upload-zip/${gameId}`, [{ fullPath: file.name, filename: file.name, file }], {
    onProgress,
    signal,
  });
}
