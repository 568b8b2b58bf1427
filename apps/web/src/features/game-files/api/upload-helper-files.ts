import { uploadMultipart, type UploadOutcome } from '../../../lib/upload-request';

/** POST /games/{id}/psd-files/ (multipart; a file with an existing name replaces it). */
export function uploadHelperFiles(
  gameId: number,
  files: File[],
  onProgress?: (loaded: number, total: number) => void,
): Promise<UploadOutcome> {
  return uploadMultipart(
    `/games/${gameId}/psd-files/`,
    files.map((file) => ({ fullPath: file.name, filename: file.name, file })),
    { onProgress },
  );
}
