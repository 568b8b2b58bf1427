import { messages, type GameFile } from '@reskin/contract';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { notifySuccess } from '../../../lib/toasts';
import { useRestoreVersionFile } from '../../../api/versions';

/**
 * 'Restore original' on a replaced file: `askRestore(file)` opens the confirmation (`restoreDialog`,
 * to be rendered by the editor), whose Confirm removes the version's replacement, so the version serves the
 * (watermarked) original again. The editor holds it rather than the file's button: the button goes away
 * with the replacement, and a mutation's own callbacks do not run once their component is gone.
 */
export function useRestoreOriginal(versionId: number) {
  const [asking, setAsking] = useState<GameFile | null>(null);
  const restoreCall = useRestoreVersionFile();

  const restore = () => {
    setAsking(null);
    if (!asking) return;
    restoreCall.mutate(
      { versionId, fileId: asking.fileId },
      {
        onSuccess: () => notifySuccess(messages.originalRestored),
        // The client has toasted the server's reason (a lock set meanwhile is 423).
      },
    );
  };

  const restoreDialog = (
    <ConfirmDialog
      show={asking !== null}
      question={asking ? messages.confirmRestoreOriginal(asking.path) : ''}
      onCancel={() => setAsking(null)}
      onConfirm={restore}
    />
  );

  return { askRestore: setAsking, restoring: restoreCall.isPending, restoreDialog };
}
