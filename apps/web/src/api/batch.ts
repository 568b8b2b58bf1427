import {
  batchAnswerSchema,
  type BatchAnswer,
  type BatchChoice,
  type FitMode,
  type LoudnessMode,
} from '@reskin/contract';
import {
  buildHeaders,
  describeFailure,
  endSessionOnUnauthorized,
  logFailure,
  parseBody,
} from '../lib/api-client';
import { uploadMultipart, type UploadPart } from '../lib/upload-request';

/** What the batch route is sent besides the files (packages/contract/src/batch.ts). */
export interface BatchRequestOptions {
  dryRun: boolean;
  /** The fit of every image of another pixel size, unless `fits` names the row. */
  fit?: FitMode;
  fits?: Record<string, FitMode>;
  choices?: Record<string, BatchChoice>;
  skip?: string[];
  loudness?: LoudnessMode;
  /** Every sound row also replaces its twins (other formats of the same path and name), decision 0050. */
  alsoTwins?: boolean;
  /** Per row (its path as sent): the fileIds of its twins replaced too. */
  twins?: Record<string, number[]>;
}

export type BatchCallOutcome =
  { ok: true; answer: BatchAnswer } | { ok: false; title: string; message: string; sessionEnded: boolean };

/** The options as the route's form fields (sent before the files, so the server reads them first). */
function optionFields(options: BatchRequestOptions): Record<string, string> {
  const fields: Record<string, string> = { dryRun: String(options.dryRun) };
  if (options.fit) fields.fit = options.fit;
  if (options.fits && Object.keys(options.fits).length > 0) fields.fits = JSON.stringify(options.fits);
  if (options.choices && Object.keys(options.choices).length > 0)
    fields.choices = JSON.stringify(options.choices);
  if (options.skip && options.skip.length > 0) fields.skip = JSON.stringify(options.skip);
  if (options.loudness) fields.loudness = options.loudness;
  if (options.alsoTwins) fields.alsoTwins = 'true';
  if (options.twins && Object.keys(options.twins).length > 0) fields.twins = JSON.stringify(options.twins);
  return fields;
}

/**
 * POST /game-versions/{versionId}/batch: the files with their relative paths (`path` before each file), or one
 * .zip. With dryRun the answer is the plan and nothing is stored; otherwise each row's outcome. Never rejects.
 */
export async function sendBatch(
  versionId: number,
  files: { path: string; file: File }[],
  options: BatchRequestOptions,
  onProgress?: (loaded: number, total: number) => void,
): Promise<BatchCallOutcome> {
  const parts: UploadPart[] = files.map(({ path, file }) => ({ fullPath: path, filename: file.name, file }));
  const outcome = await uploadMultipart(`/game-versions/${versionId}/batch`, parts, {
    fields: optionFields(options),
    pathField: 'path',
    onProgress,
  });
  if (!outcome.ok) {
    return {
      ok: false,
      title: outcome.title,
      message: outcome.message,
      sessionEnded: outcome.sessionEnded === true,
    };
  }
  const parsed = batchAnswerSchema.safeParse(outcome.body);
  if (!parsed.success) {
    return {
      ok: false,
      title: 'Unexpected answer',
      message: 'The server answered something unexpected.',
      sessionEnded: false,
    };
  }
  return { ok: true, answer: parsed.data };
}

export type FitPreviewOutcome = { ok: true; blob: Blob } | { ok: false; message: string };

/**
 * POST /game-versions/{versionId}/files/{fileId}/fit-preview?fit=&frame=: the incoming image fitted exactly as
 * the batch would store it, in the original's format. Never rejects: the row shows why there is no preview.
 */
export async function fetchFitPreview(
  versionId: number,
  target: { fileId: number; frame: string | null },
  fit: FitMode,
  file: File,
  signal?: AbortSignal,
): Promise<FitPreviewOutcome> {
  const query = new URLSearchParams({ fit });
  if (target.frame) query.set('frame', target.frame);
  const url = `/api/game-versions/${versionId}/files/${target.fileId}/fit-preview?${query.toString()}`;
  const headers = buildHeaders('POST', url);
  headers.delete('Content-Type');
  headers.set('Accept', 'image/*, application/json');
  const form = new FormData();
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, body: form, signal });
  } catch {
    return { ok: false, message: 'The server could not be reached.' };
  }
  if (response.ok) return { ok: true, blob: await response.blob() };
  const failure = describeFailure(
    response.status,
    response.statusText,
    parseBody(await response.text()),
    'load',
  );
  logFailure('POST', url, failure, response.headers.get('X-Request-Id'));
  if (response.status === 401) endSessionOnUnauthorized();
  return { ok: false, message: failure.message };
}
