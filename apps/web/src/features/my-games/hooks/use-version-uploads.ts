import { limits, messages, validationMessages as m, type GameFile } from '@reskin/contract';
import { useCallback } from 'react';
import { failureTitle } from '../../../lib/failure-titles';
import { notifyError, notifyFailure, notifySuccess } from '../../../lib/toasts';
import { uploadPathOf } from '../../../lib/upload-path';
import { uploadVersionFile, useUploadAnswer } from '../../../api/versions';
import type { DropOutcome, ReportProgress } from '../components/drop-area';
import {
  imageSizeRefusal,
  isAudioFile,
  isImageFile,
  matchFiles,
  singleDropRefusal,
  type DroppedFile,
} from '../lib/drop-checks';
import { readImageSize } from '../lib/read-image-size';

export type ReplaceKind = 'image' | 'audio';

const dropped = (file: File): DroppedFile & { file: File } => ({
  file,
  name: file.name,
  fullPath: uploadPathOf(file),
  type: file.type,
});

/** Why a file cannot replace `target`, checked in the browser (the server checks again), or null. */
async function localRefusal(kind: ReplaceKind, target: GameFile, file: File): Promise<string | null> {
  if (kind === 'audio') return isAudioFile(file) ? null : m.notAudio;
  if (!isImageFile(file)) return m.imageReadError;
  try {
    return imageSizeRefusal(target, await readImageSize(file));
  } catch (error) {
    return error instanceof Error ? error.message : m.imageReadError;
  }
}

/** What `send` answers when the session ended during the upload: the session has shown its own toast and gone to /login. */
const sessionEnded = Symbol('session ended');

function refused(message: string): DropOutcome {
  notifyFailure(message);
  return { ok: false, message };
}

/**
 * Replacing game files inside a version: one file dropped on its own target, or up to 50 matched to the
 * game's files by path or name (SPEC §5). Files are checked in the browser first; each accepted file goes
 * up in its own request, and its answer goes into the version's file list (useUploadAnswer).
 */
export function useVersionUploads(versionId: number, kind: ReplaceKind, targets: readonly GameFile[]) {
  const answered = useUploadAnswer(versionId);

  const send = useCallback(
    async (
      target: GameFile,
      file: File,
      progress: ReportProgress,
    ): Promise<string | typeof sessionEnded | null> => {
      const outcome = await uploadVersionFile(versionId, target.fileId, target.path, file, (loaded, total) =>
        progress(loaded / total),
      );
      if (!outcome.ok && outcome.sessionEnded) return sessionEnded;
      await answered(outcome);
      if (outcome.ok) return null;
      return outcome.status === 404 ? m.fileNotFound : outcome.message;
    },
    [answered, versionId],
  );

  /** A drop on one game file's own area. */
  const replaceOne = useCallback(
    async (target: GameFile | undefined, files: File[], progress: ReportProgress): Promise<DropOutcome> => {
      const countRefusal = singleDropRefusal(files.length);
      if (countRefusal) return refused(countRefusal);
      const file = files[0];
      if (!target || !file) return refused(m.fileNotFound);
      const refusal = await localRefusal(kind, target, file);
      if (refusal) return refused(refusal);
      const failure = await send(target, file, progress);
      if (failure === sessionEnded) return { ok: false, message: messages.sessionEnded };
      if (failure) {
        notifyError(failureTitle({ action: 'upload' }), messages.uploadFailed, failure);
        return { ok: false, message: failure };
      }
      notifySuccess(messages.uploaded);
      return { ok: true, message: messages.uploaded };
    },
    [kind, send],
  );

  /** A drop of several files on the editor's 'Add Game Files' area. */
  const replaceMany = useCallback(
    async (files: File[], progress: ReportProgress): Promise<DropOutcome> => {
      if (files.length > limits.versionMultiUploadFiles) {
        return refused(
          `At most ${limits.versionMultiUploadFiles} files can be dropped at once; ${files.length} were dropped.`,
        );
      }
      const matches = matchFiles(files.map(dropped), targets);
      const problems: string[] = [];
      let uploaded = 0;
      for (const [index, match] of matches.entries()) {
        const report: ReportProgress = (fraction) => progress((index + fraction) / matches.length);
        let failure = 'refusal' in match ? match.refusal : null;
        if (!failure && 'target' in match) {
          const { file } = match.file;
          const result =
            (await localRefusal(kind, match.target, file)) ?? (await send(match.target, file, report));
          if (result === sessionEnded) return { ok: false, message: messages.sessionEnded };
          failure = result;
        }
        if (failure) problems.push(`${match.file.fullPath}: ${failure}`);
        else uploaded += 1;
        report(1);
      }
      const summary = `${uploaded} of ${matches.length} files uploaded.`;
      if (problems.length > 0) {
        notifyError(failureTitle({ action: 'upload' }), messages.uploadFailed, problems[0] ?? summary);
        return { ok: false, message: summary, details: problems };
      }
      notifySuccess(messages.uploaded);
      return { ok: true, message: `${messages.uploaded} ${summary}` };
    },
    [kind, send, targets],
  );

  return { replaceOne, replaceMany };
}
