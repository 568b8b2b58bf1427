import { buildHeaders, describeFailure, endSessionOnUnauthorized, logFailure, parseBody } from './api-client';
import { failureTitle, failureTitles } from './failure-titles';

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
      /** The title (in words) and message of the failure's error toast (SPEC §8). */
      title: string;
      message: string;
      body: unknown;
      /** A 401: the session has ended; it has shown its own toast and gone to /login, so the caller shows none. */
      sessionEnded?: boolean;
    };

export interface UploadOptions {
  /** Bytes of the request body sent so far, and the body's total. */
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
  /** Plain fields sent before every file part (a server that streams the file reads them first). */
  fields?: Record<string, string>;
  /**
   * The one field that carries each part's path, sent right before the part (`path` for the batch route).
   * Unset: the `fullPath` and `filename` fields.
   */
  pathField?: string;
}

/**
 * POSTs files as multipart/form-data to `/api` + path with XMLHttpRequest, whose upload events give the
 * progress that fetch cannot. It carries the api client's headers (bearer token, X-XSRF-TOKEN), minus the JSON
 * content type: the browser sets the multipart one with its boundary.
 *
 * It never rejects and shows no toast: a batch of uploads reports failures per file, so the caller decides
 * what to show. A 401 ends the session at once (one 'Session ended' toast, /login): the outcome says so, and
 * the caller shows nothing more.
 */
export function uploadMultipart(
  path: string,
  parts: UploadPart[],
  options: UploadOptions = {},
): Promise<UploadOutcome> {
  const url = `${apiPrefix}${path}`;
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
  for (const part of parts) {
    if (options.pathField) form.append(options.pathField, part.fullPath);
    else {
      form.append('fullPath', part.fullPath);
      form.append('filename', part.filename);
    }
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
      const failure = describeFailure(xhr.status, xhr.statusText, body, 'upload');
      logFailure('POST', url, failure, xhr.getResponseHeader('X-Request-Id'));
      const sessionEnded = xhr.status === 401 && endSessionOnUnauthorized();
      resolve({
        ok: false,
        status: xhr.status,
        title: failure.title,
        message: failure.message,
        body,
        sessionEnded,
      });
    };
    xhr.onerror = () => {
      signal?.removeEventListener('abort', abort);
      failLocally(failureTitle({ status: 0, action: 'upload' }), 'The server could not be reached.');
    };
    xhr.onabort = () => failLocally(failureTitles.cancelled, 'The upload was cancelled.');

    if (signal?.aborted) {
      failLocally(failureTitles.cancelled, 'The upload was cancelled.');
      return;
    }
    signal?.addEventListener('abort', abort, { once: true });
    xhr.send(form);
  });
}
