import { uploadMultipart, type UploadOutcome } from '../../../lib/upload-request';

/**
 * POST /game-version/upload/{versionId}/{fileId}: replaces one game file inside a version (multipart file and
 * fullPath). Never rejects: the drop area shows the outcome.
 */
export function uploadVersionFile(
  versionId: number,
  fileId: number,
  fullPath: string,
  file: File,
  onProgress?: (loaded: number, total: number) => void,
): Promise<UploadOutcome> {
  return uploadMultipart(
    `/game-version/upload/${versionId}/${fileId}`,
    [{ fullPath, filename: file.name, file }],
    {
      onProgress,
    },
  );
}
