import {
  frameUploadSchema,
  messages,
  validationMessages as m,
  type AtlasFrame,
  type GameFile,
} from '@reskin/contract';
import { useCallback } from 'react';
import { useConfirm } from '../../../components/ui/use-confirm';
import { failureTitle } from '../../../lib/failure-titles';
import { notifyError, notifyFailure, notifySuccess, notifyWarning } from '../../../lib/toasts';
import { uploadVersionFrame, useRestoreVersionFrame, useUploadAnswer } from '../../../api/versions';
import type { DropOutcome, ReportProgress } from '../components/drop-area';
import { isImageFile, singleDropRefusal } from '../lib/drop-checks';
import { readImageSize } from '../lib/read-image-size';
import { frameSizeRefusal } from '../lib/sheet-frames';

function refused(message: string): DropOutcome {
  notifyFailure(message);
  return { ok: false, message };
}

/** Why a file cannot replace the frame, checked in the browser (the server checks again), or null. */
async function localRefusal(frame: AtlasFrame, file: File): Promise<string | null> {
  if (!isImageFile(file)) return m.imageReadError;
  try {
    return frameSizeRefusal(frame, await readImageSize(file));
  } catch (error) {
    return error instanceof Error ? error.message : m.imageReadError;
  }
}

/**
 * Replacing and restoring single frames of one sprite sheet inside a version: a drop on a frame's own
 * area is checked in the browser for the frame's source size, then sent to POST /game-version/upload-frame; the
 * server composes the version's sheet before it answers, and its notice (visible pixels outside a trimmed frame
 * were dropped) is shown as a warning. 'Restore original' asks first, then removes the frame's replacement.
 * The answer (the composed sheet with the frames replaced in it) goes into the version's file list as it is;
 * a refusal reloads it (useUploadAnswer).
 */
export function useFrameUploads(versionId: number, sheet: GameFile) {
  const answered = useUploadAnswer(versionId);

  const replaceFrame = useCallback(
    async (frame: AtlasFrame, files: File[], progress: ReportProgress): Promise<DropOutcome> => {
      const countRefusal = singleDropRefusal(files.length);
      if (countRefusal) return refused(countRefusal);
      const file = files[0];
      if (!file) return refused(m.fileNotFound);
      const refusal = await localRefusal(frame, file);
      if (refusal) return refused(refusal);
      const outcome = await uploadVersionFrame(versionId, sheet.fileId, frame.name, file, (loaded, total) =>
        progress(loaded / total),
      );
      if (!outcome.ok && outcome.sessionEnded) return { ok: false, message: messages.sessionEnded };
      await answered(outcome);
      if (!outcome.ok) {
        notifyError(failureTitle({ action: 'upload' }), messages.uploadFailed, outcome.message);
        return { ok: false, message: outcome.message };
      }
      const notice = frameUploadSchema.safeParse(outcome.body).data?.notice;
      notifySuccess(messages.uploaded);
      if (notice) notifyWarning(notice);
      return { ok: true, message: messages.uploaded };
    },
    [answered, sheet.fileId, versionId],
  );

  const { confirm, dialog: restoreDialog } = useConfirm();
  const restoreCall = useRestoreVersionFrame();
  const askRestore = async (frame: AtlasFrame) => {
    if (!(await confirm(messages.confirmRestoreFrame(frame.name, sheet.path)))) return;
    restoreCall.mutate(
      { versionId, fileId: sheet.fileId, frame: frame.name },
      {
        onSuccess: () => notifySuccess(messages.originalRestored),
        // The client has toasted the server's reason (a lock set meanwhile is 423).
      },
    );
  };
  return {
    replaceFrame,
    askRestore: (frame: AtlasFrame) => void askRestore(frame),
    restoring: restoreCall.isPending,
    restoreDialog,
  };
}
