import { errorEnvelopeSchema, limits, messages, uploadResultSchema } from '@reskin/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { failureTitle } from '../../../lib/failure-titles';
import { notifyError, notifySuccess } from '../../../lib/toasts';
import { invalidateGameFiles, uploadGameFile, uploadGameZip } from '../../../api/game-files';
import { batchRefusal } from '../lib/upload-path';
import { runQueue } from '../lib/upload-queue';

/** Files in flight at once: enough to keep the line busy, few enough to keep each file's progress honest. */
const concurrency = 3;
/** Progress repaints at most this often; every finished file repaints at once. */
const repaintMs = 100;

export interface UploadItem {
  file: File;
  /** The path inside the game. */
  fullPath: string;
}

export interface UploadError {
  path: string;
  /** The title of the failure's error toast, in words (lib/failure-titles.ts). */
  title: string;
  message: string;
}

export interface UploadBatchState {
  /** True while files are being sent; the progress stays shown a while after the batch ends. */
  running: boolean;
  showProgress: boolean;
  total: number;
  finished: number;
  failed: number;
  /** 0-100, by bytes. */
  percent: number;
  errors: UploadError[];
  /** The .zip being (or last) uploaded, when the batch is one zip unpacked on the server. */
  zipName?: string;
}

const idle: UploadBatchState = {
  running: false,
  showProgress: false,
  total: 0,
  finished: 0,
  failed: 0,
  percent: 0,
  errors: [],
};

type AbortRef = { current: AbortController | null };
type TimerRef = { current: number | undefined };

/** Starts an upload: one still running is stopped, and the progress is not hidden meanwhile. */
function startUpload(abortRef: AbortRef, hideTimer: TimerRef): AbortController {
  abortRef.current?.abort();
  window.clearTimeout(hideTimer.current);
  const controller = new AbortController();
  abortRef.current = controller;
  return controller;
}

/** SPEC §4: the drop area resets 5000 ms after success and 7000 ms after an error; errors stay listed. */
function hideProgressLater(
  hideTimer: TimerRef,
  setState: (update: (current: UploadBatchState) => UploadBatchState) => void,
  ok: boolean,
) {
  const resetMs = ok ? limits.dropResetAfterSuccessMs : limits.dropResetAfterErrorMs;
  hideTimer.current = window.setTimeout(
    () => setState((current) => ({ ...current, showProgress: false })),
    resetMs,
  );
}

/**
 * Uploads a batch of game files one file per request, a few at a time, with overall progress and an error per
 * failed file (the server's first detail, e.g. 'Original Size 40 x 30 Loaded Size 41 x 30'). The server takes
 * up to 1000 files in one all-or-nothing request; per-file requests let the good files through and say
 * exactly which ones failed.
 */
export function useUploadBatch(gameId: number) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<UploadBatchState>(idle);
  const abortRef = useRef<AbortController | null>(null);
  const hideTimer = useRef<number | undefined>(undefined);

  useEffect(
    () => () => {
      // Leaving the screen stops the batch quietly: no more requests, repaints or toasts.
      abortRef.current?.abort();
      abortRef.current = null;
      window.clearTimeout(hideTimer.current);
    },
    [],
  );

  const upload = useCallback(
    async (items: UploadItem[]): Promise<void> => {
      const refusal = batchRefusal(items.length);
      if (refusal !== null) {
        const title = failureTitle({ action: 'upload' });
        notifyError(title, refusal);
        setState({ ...idle, errors: [{ path: '', title, message: refusal }] });
        return;
      }
      const controller = startUpload(abortRef, hideTimer);

      const sizes = items.map((item) => Math.max(1, item.file.size));
      const bytesTotal = sizes.reduce((sum, size) => sum + size, 0);
      const sentFraction = new Array<number>(items.length).fill(0);
      const errors: UploadError[] = [];
      let sessionEnded = false;
      let finished = 0;
      let repaint: number | undefined;

      const snapshot = (running: boolean): UploadBatchState => {
        const bytesSent = sentFraction.reduce(
          (sum, fraction, index) => sum + fraction * (sizes[index] ?? 0),
          0,
        );
        return {
          running,
          showProgress: true,
          total: items.length,
          finished,
          failed: errors.length,
          percent: Math.min(100, Math.round((bytesSent / bytesTotal) * 100)),
          errors: [...errors],
        };
      };
      const paintNow = () => {
        window.clearTimeout(repaint);
        repaint = undefined;
        if (!controller.signal.aborted) setState(snapshot(true));
      };
      const paintSoon = () => {
        repaint ??= window.setTimeout(paintNow, repaintMs);
      };

      setState(snapshot(true));
      await runQueue(items, concurrency, async (item, index) => {
        if (controller.signal.aborted) return;
        const outcome = await uploadGameFile({
          gameId,
          file: item.file,
          fullPath: item.fullPath,
          signal: controller.signal,
          onProgress: (loaded, total) => {
            // The request also carries the form fields; the file's share is close enough for a bar.
            sentFraction[index] = total > 0 ? Math.min(0.99, loaded / total) : 0;
            paintSoon();
          },
        });
        sentFraction[index] = 1;
        finished++;
        if (!outcome.ok) {
          errors.push({ path: item.fullPath, title: outcome.title, message: outcome.message });
          // A lost session stops the batch; the session has said so in its own toast and gone to /login.
          if (outcome.sessionEnded) {
            sessionEnded = true;
            controller.abort();
          }
        }
        paintNow();
      });
      window.clearTimeout(repaint);
      if (abortRef.current !== controller) return;
      abortRef.current = null;
      if (sessionEnded) return;

      setState(snapshot(false));
      await invalidateGameFiles(queryClient, gameId);
      const [firstError] = errors;
      if (!firstError) {
        notifySuccess(messages.uploaded);
      } else if (items.length === 1) {
        notifyError(firstError.title, firstError.message);
      } else {
        // One toast for the batch; every failed file is listed on the screen.
        notifyError(failureTitle({ action: 'upload' }), messages.uploadFailed, firstError.message);
      }
      hideProgressLater(hideTimer, setState, errors.length === 0);
    },
    [gameId, queryClient],
  );

  /**
   * Uploads a game folder as one .zip, unpacked on the server with the rules of a folder upload, all or nothing:
   * one request, its progress by bytes sent, then the count of files it held or an error per refused file (the
   * details of the server's refusal).
   */
  const uploadZip = useCallback(
    async (file: File): Promise<void> => {
      const controller = startUpload(abortRef, hideTimer);
      const base: UploadBatchState = {
        ...idle,
        running: true,
        showProgress: true,
        total: 1,
        zipName: file.name,
      };
      setState(base);
      const outcome = await uploadGameZip({
        gameId,
        file,
        signal: controller.signal,
        onProgress: (loaded, total) => {
          // Sending is most of the wait; the last percent is the server unpacking and checking.
          const percent = total > 0 ? Math.min(99, Math.round((loaded / total) * 100)) : 0;
          if (!controller.signal.aborted) setState((current) => ({ ...current, percent }));
        },
      });
      if (abortRef.current !== controller) return;
      abortRef.current = null;
      if (!outcome.ok && outcome.sessionEnded) return;

      let errors: UploadError[] = [];
      let total = 0;
      if (outcome.ok) {
        const results = uploadResultSchema.array().safeParse(outcome.body);
        total = results.success ? results.data.length : 0;
      } else {
        const envelope = errorEnvelopeSchema.safeParse(outcome.body);
        const details = envelope.success ? (envelope.data.error.details ?? []) : [];
        errors = details.map((detail) => ({
          path: detail.path.startsWith('/files/') ? detail.path.slice('/files/'.length) : '',
          title: outcome.title,
          message: detail.message,
        }));
        if (errors.length === 0)
          errors = [{ path: file.name, title: outcome.title, message: outcome.message }];
      }
      setState({
        ...base,
        running: false,
        total,
        finished: total,
        failed: errors.length,
        percent: 100,
        errors,
      });
      await invalidateGameFiles(queryClient, gameId);
      if (outcome.ok) notifySuccess(messages.uploaded);
      else notifyError(outcome.title, outcome.message);
      hideProgressLater(hideTimer, setState, outcome.ok);
    },
    [gameId, queryClient],
  );

  const dismissErrors = useCallback(() => setState((current) => ({ ...current, errors: [] })), []);

  return { state, upload, uploadZip, dismissErrors };
}
