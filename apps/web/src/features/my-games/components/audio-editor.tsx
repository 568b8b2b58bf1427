import { emptyTexts, limits, type GameFile } from '@reskin/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { fileUrl } from '../../../lib/play-file-url';
import { useRestoreOriginal } from '../hooks/use-restore-original';
import { useVersionUploads } from '../hooks/use-version-uploads';
import { DropArea } from './drop-area';
import { UsageBadge } from '../../../components/ui/file-usage';
import type { FileEditorProps } from './image-editor';
import { FileHistoryDialog, type HistoryFile } from '../../../components/version-history/file-history-dialog';
import { NotesButton } from '../../../components/review/notes-button';
import { DataTable, type DataColumn, type TableSort } from '../../../components/lists/data-table';

/**
 * The audio-file editor (SPEC §2 "Audio files editor"): a drop area 'Add Game Files' for several sounds, and
 * the table 'Current Game Files (n)' with Download, an inline player of the version's sound (and 'Restore
 * original' once replaced), the sortable Path and a drop area per row.
 */
export function AudioEditor({
  versionId,
  files: sounds,
  shown,
  usage,
  replaced,
  playPaths,
  readOnlyReason,
  focusedFileId = null,
}: FileEditorProps) {
  const { replaceOne, replaceMany } = useVersionUploads(versionId, 'audio', sounds);
  const { askRestore, restoring, restoreDialog } = useRestoreOriginal(versionId);
  // Unset: the workbench's order (path, or most loaded in play); the Path header sorts by path either way.
  const [ascending, setAscending] = useState<boolean | null>(null);
  // The sound whose history (every replacement kept) is open.
  const [historyOf, setHistoryOf] = useState<HistoryFile | null>(null);
  const rows =
    ascending === null
      ? shown
      : [...shown].sort((a, b) => (ascending ? 1 : -1) * a.path.localeCompare(b.path));
  // What the header says: the order the rows are in (the workbench's default order is the path's, ascending).
  const byPath = rows.every(
    (file, index) => index === 0 || rows[index - 1]!.path.localeCompare(file.path) <= 0,
  );
  const direction = ascending ?? (byPath ? true : null);
  const originalOf = (sound: GameFile) => fileUrl(playPaths, playPaths.wtmFile, sound.path, sound.updatedAt);
  // The inbox's row opens its notes once: a row scrolled out of view and back (so mounted again) stays closed.
  const [openNotesOf, setOpenNotesOf] = useState(focusedFileId);
  const columns: DataColumn<GameFile>[] = [
    {
      id: 'download',
      header: 'Download',
      cell: (sound) => (
        <a href={originalOf(sound)} target="_blank" rel="noreferrer" download>
          Download
        </a>
      ),
    },
    {
      id: 'player',
      header: 'Player',
      cell: (sound) => {
        const own = replaced.get(sound.fileId);
        const current = own
          ? fileUrl(playPaths, playPaths.orjFile, sound.path, own.updatedAt)
          : originalOf(sound);
        return (
          <>
            <audio controls preload="none" src={current} aria-label={`Play ${sound.path}`} />
            <div className="d-flex flex-wrap align-items-center gap-2 small text-body-secondary">
              {own ? 'Your sound' : 'Original sound'}
              <UsageBadge usage={usage.get(sound.fileId)} />
              <Button
                size="sm"
                variant="outline-primary"
                aria-label={`History of ${sound.path}`}
                onClick={() =>
                  setHistoryOf({
                    fileId: sound.fileId,
                    path: sound.path,
                    kind: 'sound',
                    originalSrc: originalOf(sound),
                  })
                }
              >
                History
              </Button>
              <NotesButton
                versionId={versionId}
                target={{ fileId: sound.fileId }}
                subject={sound.path}
                initiallyOpen={openNotesOf === sound.fileId}
                onClose={() => setOpenNotesOf(null)}
              />
              {own && !readOnlyReason && (
                <Button
                  size="sm"
                  variant="outline-secondary"
                  onClick={() => askRestore(sound)}
                  disabled={restoring}
                >
                  Restore original
                </Button>
              )}
            </div>
          </>
        );
      },
    },
    {
      id: 'path',
      header: 'Path',
      sortable: true,
      cellProps: { className: 'text-break font-monospace small' },
      cell: (sound) => sound.path,
    },
    {
      id: 'upload',
      header: 'Upload',
      cellProps: { style: { minWidth: 220 } },
      cell: (sound) => (
        <DropArea
          label={`Replace ${sound.path}`}
          hint="Drop one sound here, or click to choose it."
          multiple={false}
          accept="audio/*"
          small
          disabledReason={readOnlyReason}
          onFiles={(files, progress) => replaceOne(sound, files, progress)}
        />
      ),
    },
  ];
  // The header's sort: the rows' own order (sorted here, or the workbench's when it is the path's).
  const pathSort: TableSort<'path'> = {
    sort: direction === null ? null : { column: 'path', direction: direction ? 'asc' : 'desc' },
    toggleSort: () => setAscending(direction !== true),
  };

  return (
    <>
      <DropArea
        label="Add Game Files"
        hint={`Add Game Files: drop up to ${limits.versionMultiUploadFiles} sounds here, or click to choose them. Each replaces the game sound of the same name or path.`}
        multiple
        accept="audio/*"
        disabledReason={readOnlyReason}
        onFiles={replaceMany}
      />
      <DataTable
        title={{
          text: 'Current Game Files',
          total: sounds.length,
          as: 'h2',
          className: 'fs-6',
          // The table meets the card's edges; the empty text keeps the body's padding.
          card: { className: 'mt-3', bodyClassName: sounds.length === 0 ? undefined : 'p-0' },
        }}
        emptyText={emptyTexts.audioFiles}
        columns={columns}
        data={rows}
        getRowKey={(sound) => sound.fileId}
        sort={pathSort}
        hover={false}
        // Only the rows in view are in the page (decision 0041); the inbox's row is scrolled to.
        virtual={{
          estimateSize: () => 112,
          scrollTo: focusedFileId === null ? null : (sound) => sound.fileId === focusedFileId,
        }}
        rowProps={(sound) => ({ 'data-file-id': sound.fileId })}
      />
      {restoreDialog}
      <FileHistoryDialog
        versionId={versionId}
        file={historyOf}
        onClose={() => setHistoryOf(null)}
        readOnlyReason={readOnlyReason}
      />
    </>
  );
}
