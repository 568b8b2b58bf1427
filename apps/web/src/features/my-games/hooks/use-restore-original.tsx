import { messages, type GameFile } from '@reskin/contract';
import { useConfirm } from '../../../components/ui/use-confirm';
import { notifySuccess } from '../../../lib/toasts';
import { useRestoreVersionFile } from '../../../api/versions';

/**
 * 'Restore original' on a replaced file: `askRestore(file)` asks for confirmation (`restoreDialog`,
 * to be rendered by the editor), whose Confirm removes the version's replacement, so the version serves the
 * (watermarked) original again. The editor holds it rather than the file's button: the button goes away
 * with the replacement, and a mutation's own callbacks do not run once their component is gone.
 */
export function useRestoreOriginal(versionId: number) {
  const { confirm, dialog: restoreDialog } = useConfirm();
  const restoreCall = useRestoreVersionFile();

  const askRestore = async (file: GameFile) => {
    if (!(await confirm(messages.confirmRestoreOriginal(file.path)))) return;
    restoreCall.mutate(
      { versionId, fileId: file.fileId },
      {
        onSuccess: () => notifySuccess(messages.originalRestored),
        // The client has toasted the server's reason (a lock set meanwhile is 423).
      },
    );
  };

  return {
    askRestore: (file: GameFile) => void askRestore(file),
    restoring: restoreCall.isPending,
    restoreDialog,
  };
}
