import { errorEnvelopeSchema, limits } from '@reskin/contract';
import { failureTitle } from '../../../lib/failure-titles';
import type { UploadOutcome, UploadPart } from '../../../lib/upload-request';
import type { UploadItem } from '../../../lib/upload-item';
import { runQueue } from './upload-queue';

// A game of any number of files goes to the folder route (POST /game/upload/{gameId}) in batches the server
// accepts (decision 0039). Each request is all or nothing on the server; here a refused request is
// sent again without the files its refusal names (or split in halves when it names none), so every good file
// goes in and every refused one is listed with the server's reason. A request that breaks (no answer, 5xx) is
// sent again a few times; then the upload stops and every file not stored is listed, ready to be sent again.

export interface BatchLimits {
  /** Most files in one request (within limits.adminUploadFiles). */
  files: number;
  /** Most bytes of files in one request; a single larger file goes alone. */
  bytes: number;
}

/**
 * Splits files, in their order, into consecutive batches of at most `files` files and `bytes` bytes; a file over
 * `bytes` is a batch of its own. Returns the items' indices per batch.
 */
export function planBatches(sizes: readonly number[], batch: BatchLimits = limits.uploadBatch): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let currentBytes = 0;
  sizes.forEach((size, index) => {
    if (current.length > 0 && (current.length >= batch.files || currentBytes + size > batch.bytes)) {
      batches.push(current);
      current = [];
      currentBytes = 0;
    }
    current.push(index);
    currentBytes += size;
  });
  if (current.length > 0) batches.push(current);
  return batches;
}

export interface FileFailure {
  index: number;
  title: string;
  message: string;
}

export interface BatchUploadOptions {
  items: readonly UploadItem[];
  /** Sends one request of the folder route. */
  send: (parts: UploadPart[], onProgress: (loaded: number, total: number) => void) => Promise<UploadOutcome>;
  signal: AbortSignal;
  /** Bytes of a request's body sent so far (0-1), for the files it carries. */
  onSending: (indices: readonly number[], fraction: number) => void;
  /** Files stored (failure undefined) or not stored (with the reason). */
  onSettled: (indices: readonly number[], failure?: { title: string; message: string }) => void;
  batch?: BatchLimits;
  concurrent?: number;
  /** Waits before sending a broken request again; one more try per entry. */
  retryDelaysMs?: readonly number[];
}

export interface BatchUploadResult {
  /** A 401 ended the session: it has said so itself. */
  sessionEnded: boolean;
}

/** Whether a failed request may succeed when sent again as it was: no answer, or a server fault (not 507). */
const isTransient = (outcome: UploadOutcome & { ok: false }) =>
  outcome.status === 0 || (outcome.status >= 500 && outcome.status !== 507);

/**
 * Whether a refusal is about the files of the request (their paths, types, sizes, contents), so the other files
 * can go without them; anything else (a full disk, a lost permission, a game that is gone) stops the upload.
 */
const isFileRefusal = (status: number) =>
  status === 400 || status === 413 || status === 415 || status === 422;

/** The paths a refusal names (`/files/<path>` details), each with its message. */
function namedFiles(body: unknown): Map<string, string> {
  const envelope = errorEnvelopeSchema.safeParse(body);
  const named = new Map<string, string>();
  if (!envelope.success) return named;
  for (const detail of envelope.data.error.details ?? []) {
    if (detail.path.startsWith('/files/')) named.set(detail.path.slice('/files/'.length), detail.message);
  }
  return named;
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Uploads every item in batches; never rejects. Each item is settled exactly once, unless the run is aborted. */
export async function uploadInBatches(options: BatchUploadOptions): Promise<BatchUploadResult> {
  const { items, send, signal, onSending, onSettled } = options;
  const retryDelaysMs = options.retryDelaysMs ?? [1000, 3000];
  const batches = planBatches(
    items.map((item) => item.size),
    options.batch ?? limits.uploadBatch,
  );
  let stop: { title: string; message: string } | null = null;
  let sessionEnded = false;

  /** Sends `indices` until each is stored or refused (or the upload stops). */
  const sendBatch = async (indices: number[]): Promise<void> => {
    if (signal.aborted) return;
    if (stop) return onSettled(indices, stop);
    const parts: UploadPart[] = [];
    const readable: number[] = [];
    for (const index of indices) {
      const item = items[index]!;
      try {
        const file = await item.read();
        parts.push({
          fullPath: item.fullPath,
          filename: item.fullPath.slice(item.fullPath.lastIndexOf('/') + 1),
          file,
        });
        readable.push(index);
      } catch (error) {
        onSettled([index], {
          title: failureTitle({ action: 'upload' }),
          message: `${item.fullPath}: ${(error as Error).message}`,
        });
      }
    }
    if (readable.length === 0 || signal.aborted) return;

    let outcome: UploadOutcome | undefined;
    for (let attempt = 0; ; attempt++) {
      outcome = await send(parts, (loaded, total) => onSending(readable, total > 0 ? loaded / total : 0));
      if (outcome.ok || signal.aborted || !isTransient(outcome) || attempt >= retryDelaysMs.length) break;
      onSending(readable, 0);
      await wait(retryDelaysMs[attempt]!, signal);
      if (signal.aborted) return;
    }
    if (signal.aborted) return;
    if (outcome.ok) return onSettled(readable);
    if (outcome.sessionEnded) {
      sessionEnded = true;
      return;
    }
    const failure = { title: outcome.title, message: outcome.message };
    if (!isFileRefusal(outcome.status)) {
      stop ??= failure;
      return onSettled(readable, failure);
    }
    const named = namedFiles(outcome.body);
    const refused = readable.filter((index) => named.has(items[index]!.fullPath));
    for (const index of refused)
      onSettled([index], { title: outcome.title, message: named.get(items[index]!.fullPath)! });
    const rest = readable.filter((index) => !named.has(items[index]!.fullPath));
    if (rest.length === 0) return;
    if (refused.length > 0) return sendBatch(rest);
    // The refusal names no file of the request (a path the server could not take, a file over the size limit):
    // halves find the refused files in a few requests and let the others through.
    if (rest.length === 1) return onSettled(rest, failure);
    const half = Math.ceil(rest.length / 2);
    await sendBatch(rest.slice(0, half));
    await sendBatch(rest.slice(half));
  };

  await runQueue(batches, options.concurrent ?? limits.uploadBatch.concurrent, async (indices) => {
    if (!sessionEnded) await sendBatch(indices);
  });
  return { sessionEnded };
}
