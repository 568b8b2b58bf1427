import {
  commonTopFolder,
  errorEnvelopeSchema,
  keptUploadNames,
  limits,
  messages,
  uploadMessages,
  uploadPaths,
  uploadResultSchema,
} from '@reskin/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { configKeys, getConfig } from '../../../api/config';
import {
  gameHasTopFolder,
  invalidateGameFiles,
  uploadGameFiles,
  uploadGameZip,
} from '../../../api/game-files';
import { failureTitle } from '../../../lib/failure-titles';
import { notifyError, notifySuccess } from '../../../lib/toasts';
import type { UploadItem } from '../../../lib/upload-item';
import { uploadInBatches } from '../lib/upload-batches';
import type { ZipGamePlan } from '../../../lib/zip-game';

export type { UploadItem };

/** Progress repaints at most this often; every finished batch repaints at once. */
const repaintMs = 100;

const noFilesChosen = uploadMessages.chooseFiles;

interface ZipSource {
  name: string;
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
  /** Files not stored by the last upload, to be sent again. */
  retryItems: readonly UploadItem[];
  /** Files the last upload skipped as no game files (dotfiles, dot-folders, system junk: decision 0052). */
  skipped: number;
  /** The .zip being (or last) uploaded. */
  zipName?: string;
  /**
   * How the zip goes: its central directory being read in the browser, sent whole to the zip route, or unpacked in
   * the browser and sent in batches.
   */
  zipMode?: 'reading' | 'whole' | 'unpacked';
}

const idle: UploadBatchState = {
  running: false,
  showProgress: false,
  total: 0,
  finished: 0,
  failed: 0,
  percent: 0,
  errors: [],
  retryItems: [],
  skipped: 0,
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
 * Uploads the files of a game, any number of them (a folder, files, or a zip unpacked in the browser), in batches
 * the folder route accepts (limits.uploadBatch, lib/upload-batches.ts), with one progress over the whole upload
 * by bytes and an error per file not stored (the server's reason, e.g. 'Original Size 40 x 30 Loaded Size 41 x 30').
 * The files not stored stay at hand to be sent again.
 */
export function useUploadBatch(gameId: number) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<UploadBatchState>(idle);
  const abortRef = useRef<AbortController | null>(null);
  const hideTimer = useRef<number | undefined>(undefined);

  useEffect(
    () => () => {
      // Leaving the screen stops the upload quietly: no more requests, repaints or toasts.
      abortRef.current?.abort();
      abortRef.current = null;
      window.clearTimeout(hideTimer.current);
    },
    [],
  );

  /** Sends `items` in batches; `zip` names the zip they were unpacked from; `skipped` the files left out before. */
  const sendItems = useCallback(
    async (
      items: readonly UploadItem[],
      controller: AbortController,
      zip?: ZipSource,
      skipped = 0,
    ): Promise<void> => {
      const sizes = items.map((item) => Math.max(1, item.size));
      const bytesTotal = sizes.reduce((sum, size) => sum + size, 0);
      const sentFraction = new Array<number>(items.length).fill(0);
      const errors: UploadError[] = [];
      const failedItems: UploadItem[] = [];
      let finished = 0;
      let bytesSent = 0;
      let repaint: number | undefined;

      const snapshot = (running: boolean): UploadBatchState => {
        let inFlight = 0;
        sentFraction.forEach((fraction, index) => {
          if (fraction > 0 && fraction < 1) inFlight += fraction * (sizes[index] ?? 0);
        });
        return {
          running,
          showProgress: true,
          total: items.length,
          finished,
          failed: errors.length,
          percent: Math.min(100, Math.floor(((bytesSent + inFlight) / bytesTotal) * 100)),
          errors: [...errors],
          retryItems: [...failedItems],
          skipped,
          zipName: zip?.name,
          zipMode: zip ? 'unpacked' : undefined,
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
      const { sessionEnded } = await uploadInBatches({
        items,
        signal: controller.signal,
        send: (parts, onProgress) =>
          uploadGameFiles({ gameId, parts, onProgress, signal: controller.signal }),
        onSending: (indices, fraction) => {
          // The request also carries the form fields; the files' share is close enough for a bar.
          for (const index of indices) sentFraction[index] = Math.min(0.99, fraction);
          paintSoon();
        },
        onSettled: (indices, failure) => {
          for (const index of indices) {
            sentFraction[index] = 1;
            bytesSent += sizes[index] ?? 0;
            finished++;
            const item = items[index]!;
            if (failure) {
              errors.push({ path: item.fullPath, title: failure.title, message: failure.message });
              failedItems.push(item);
            }
          }
          paintNow();
        },
      });
      window.clearTimeout(repaint);
      if (abortRef.current !== controller) return;
      abortRef.current = null;
      // A lost session stops the upload; the session has said so in its own toast and gone to /login.
      if (sessionEnded) return;

      setState(snapshot(false));
      await invalidateGameFiles(queryClient, gameId);
      const [firstError] = errors;
      if (!firstError) {
        notifySuccess(messages.uploaded);
      } else if (items.length === 1) {
        notifyError(firstError.title, firstError.message);
      } else {
        // One toast for the upload; every file not stored is listed on the screen.
        notifyError(failureTitle({ action: 'upload' }), messages.uploadFailed, firstError.message);
      }
      hideProgressLater(hideTimer, setState, errors.length === 0);
    },
    [gameId, queryClient],
  );

  /**
   * Uploads chosen or dropped files under the paths the zip route would give them (decision 0052, the contract's
   * upload rules): dotfiles, dot-folders and system junk skipped and counted, and the top folder they all share left
   * out unless the game already has a folder of that name (asked of the server once).
   */
  const upload = useCallback(
    async (chosen: readonly UploadItem[]): Promise<void> => {
      const { kept, skipped } = keptUploadNames(chosen, (item) => item.fullPath);
      if (kept.length === 0) {
        const title = failureTitle({ action: 'upload' });
        notifyError(title, noFilesChosen);
        setState({ ...idle, skipped, errors: [{ path: '', title, message: noFilesChosen }] });
        return;
      }
      const controller = startUpload(abortRef, hideTimer);
      const names = kept.map((item) => item.fullPath);
      const top = commonTopFolder(names);
      let topFolderInGame = false;
      try {
        topFolderInGame = top !== '' && (await gameHasTopFolder(gameId, top.slice(0, -1)));
      } catch {
        // The client has toasted why the game's files could not be asked; nothing is sent.
        if (abortRef.current === controller) abortRef.current = null;
        return;
      }
      if (abortRef.current !== controller) return;
      const paths = uploadPaths(names, topFolderInGame);
      const items = kept.map((item, index) => ({ ...item, fullPath: paths[index]! }));
      await sendItems(items, controller, undefined, skipped);
    },
    [gameId, sendItems],
  );

  /** Sends again the files the last upload did not store. */
  const retry = useCallback(async (): Promise<void> => {
    const items = state.retryItems;
    if (items.length === 0) return;
    const zip = state.zipName === undefined ? undefined : { name: state.zipName };
    await sendItems(items, startUpload(abortRef, hideTimer), zip);
  }, [sendItems, state.retryItems, state.zipName]);

  /**
   * Uploads a game folder chosen as one .zip. Its central directory is read here first (lib/zip-game.ts, loaded
   * now): a zip the server would refuse for its sizes is refused at once with the server's words; one within the
   * zip route's limits goes to it whole (unpacked on the server, all or nothing: one request, its progress by bytes
   * sent, then the count of files it held or an error per refused file); a larger one is unpacked here and sent
   * in batches like a folder.
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
        zipMode: 'reading',
      };
      setState(base);
      let plan: ZipGamePlan;
      try {
        const [config, zipGame] = await Promise.all([
          queryClient.fetchQuery({ queryKey: configKeys.all, queryFn: getConfig, staleTime: Infinity }),
          import('../../../lib/zip-game'),
        ]);
        plan = await zipGame.zipGamePlan(file, config.maxFileSizeBytes, (folder) =>
          gameHasTopFolder(gameId, folder),
        );
      } catch (error) {
        // The config or the zip module could not be loaded: the server is then left to judge the zip.
        console.warn('The zip could not be checked in the browser', error);
        plan = { kind: 'zip-route' };
      }
      if (abortRef.current !== controller) return;

      if (plan.kind === 'refused') {
        abortRef.current = null;
        const title = failureTitle({ status: plan.status, action: 'upload' });
        setState({
          ...base,
          running: false,
          zipMode: 'whole',
          failed: 1,
          percent: 0,
          errors: [{ path: file.name, title, message: plan.message }],
        });
        notifyError(title, plan.message);
        hideProgressLater(hideTimer, setState, false);
        return;
      }
      const skipped = plan.skipped ?? 0;
      if (plan.kind === 'unpack') {
        await sendItems(plan.items, controller, { name: file.name }, skipped);
        return;
      }

      setState({ ...base, zipMode: 'whole', skipped });
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
        zipMode: 'whole',
        total,
        finished: total,
        failed: errors.length,
        percent: 100,
        errors,
        skipped,
      });
      await invalidateGameFiles(queryClient, gameId);
      if (outcome.ok) notifySuccess(messages.uploaded);
      else notifyError(outcome.title, outcome.message);
      hideProgressLater(hideTimer, setState, outcome.ok);
    },
    [gameId, queryClient, sendItems],
  );

  const dismissErrors = useCallback(() => setState((current) => ({ ...current, errors: [] })), []);

  return { state, upload, uploadZip, retry, dismissErrors };
}
