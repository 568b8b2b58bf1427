import { buildHeaders, describeFailure, parseBody } from './api-client';

const apiPrefix = '/api';

/** One file of a multipart upload, sent as the fields `fullPath` and `filename` followed by the `file` part. */
export interface UploadPart {
  /** The file's path inside the game (a folder upload's relative path, or the file name). */
  fullPath: string;
  filename: string;
  file: Blob;
}

export type UploadOutcome =
  | { ok: true; status: number; body: unknown }
  | {
      ok: false;
      /** 0 when the server could not be reached or the upload was aborted. */
      status: number;
      /** The title and message the client's error toast would show (SPEC §8). */
      title: string;
      message: string;
      body: unknown;
    };

export interface UploadOptions {
  /** Bytes of the request body sent so far, and the body's total. */
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * POSTs files as multipart/form-data to `/api` + path with XMLHttpRequest, whose upload events give the
 * progress that fetch cannot. It carries the api client's headers (bearer token, X-XSRF-TOKEN), minus the JSON
 * content type: the browser sets the multipart one with its boundary.
 *
 * It never rejects and shows no toast: a batch of uploads reports failures per file, so the caller decides
 * what to show. A 401 is answered like any failure; the caller's next API call logs the session out.
 */
export function uploadMultipart(
  path: string,
  parts: UploadPart[],
  options: UploadOptions = {},
): Promise<UploadOutcome> {
  const url = `${apiPrefix}${path}`;
  const form = new FormData();
  for (const part of parts) {
    form.append('fullPath', part.fullPath);
    form.append('filename', part.filename);
    form.append('file', part.file, part.filename);
  }

  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    const headers = buildHeaders('POST', url);
    headers.delete('Content-Type');
    headers.forEach((value, name) => xhr.setRequestHeader(name, value));

    const { onProgress, signal } = options;
    if (onProgress) {
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded, event.total);
      };
    }
    const failLocally = (title: string, message: string) =>
      resolve({ ok: false, status: 0, title, message, body: undefined });
    const abort = () => xhr.abort();

    xhr.onload = () => {
      signal?.removeEventListener('abort', abort);
      const body = parseBody(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve({ ok: true, status: xhr.status, body });
        return;
      }
      const { title, message } = describeFailure(xhr.status, xhr.statusText, body);
      resolve({ ok: false, status: xhr.status, title, message, body });
    };
    xhr.onerror = () => {
      signal?.removeEventListener('abort', abort);
      failLocally('NetworkError', 'The server could not be reached.');
    };
    xhr.onabort = () => failLocally('AbortError', 'The upload was cancelled.');

    if (signal?.aborted) {
      failLocally('AbortError', 'The upload was cancelled.');
      return;
    }
    signal?.addEventListener('abort', abort, { once: true });
    xhr.send(form);
  });
}
