import { emptyTexts, messages } from '@reskin/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import Button from 'react-bootstrap/Button';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { DataTable } from '../../../components/lists/data-table';
import { useConfirm } from '../../../components/ui/use-confirm';
import { FilePickerButton } from '../../../components/ui/file-picker-button';
import { notifyError, notifySuccess } from '../../../lib/toasts';
import {
  type HelperFile,
  helperFileKeys,
  uploadHelperFiles,
  useDeleteHelperFile,
  useHelperFiles,
} from '../../../api/helper-files';
import { formatSize } from '../../../lib/format-size';

/**
 * The game's helper files (DESIGN.md: PSD sources, fonts, guides for the artists): upload, download links
 * and delete. They are never served to the play frame.
 */
export function HelperFilesSection({ gameId }: { gameId: number }) {
  const helperFiles = useHelperFiles(gameId);
  const queryClient = useQueryClient();
  const deleteCall = useDeleteHelperFile();
  const [percent, setPercent] = useState<number | null>(null);
  const { confirm, dialog } = useConfirm();
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const chosen = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (files.length === 0) return;
    setPercent(0);
    const outcome = await uploadHelperFiles(gameId, files, (loaded, total) => {
      if (mounted.current) setPercent(Math.round((loaded / total) * 100));
    });
    if (!mounted.current) return;
    setPercent(null);
    await queryClient.invalidateQueries({ queryKey: helperFileKeys.list(gameId) });
    if (outcome.ok) notifySuccess(messages.uploaded);
    else if (!outcome.sessionEnded) notifyError(outcome.title, outcome.message);
  };

  const askDelete = async (file: HelperFile) => {
    if (!(await confirm(messages.confirmDeleteFile))) return;
    deleteCall.mutate(
      { gameId, helperId: file.id },
      {
        onSuccess: () => notifySuccess(messages.fileDeleted),
      },
    );
  };

  const files = helperFiles.data?.files ?? [];
  const uploading = percent !== null;

  return (
    <>
      <DataTable
        // The count reads the files shown, '(0)' while they load.
        title={{ text: 'Helper Files', total: files.length, as: 'h2', card: { className: 'mt-4' } }}
        toolbar={
          <div className="mb-3">
            <FilePickerButton
              id="helper-input"
              multiple
              disabled={uploading}
              onChange={(event) => void chosen(event)}
            >
              Upload helper files
            </FilePickerButton>
            {uploading && <ProgressBar className="mt-2" now={percent} label={`${percent}%`} animated />}
          </div>
        }
        status={helperFiles.status}
        emptyText={emptyTexts.helperFiles}
        columns={[
          {
            id: 'name',
            header: 'Name',
            cellProps: { className: 'text-break' },
            // The url carries a short-lived download ticket: a plain link in a new window works.
            cell: (file) => (
              <a href={file.url} target="_blank" rel="noopener noreferrer">
                {file.name}
              </a>
            ),
          },
          {
            id: 'size',
            header: 'Size',
            cellProps: { className: 'text-nowrap' },
            cell: (file) => formatSize(file.size),
          },
          {
            id: 'actions',
            header: 'Actions',
            cell: (file) => (
              <Button size="sm" variant="outline-danger" onClick={() => void askDelete(file)}>
                Delete
              </Button>
            ),
          },
        ]}
        data={files}
        getRowKey={(file) => file.id}
        size="sm"
        aria-label="Helper files"
      />
      {dialog}
    </>
  );
}
