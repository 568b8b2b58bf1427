import { emptyTexts, limits } from '@reskin/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { fileUrl } from '../../../lib/play-file-url';
import { useRestoreOriginal } from '../hooks/use-restore-original';
import { useVersionUploads } from '../hooks/use-version-uploads';
import { DropArea } from './drop-area';
import { UsageBadge } from '../../../components/ui/file-usage';
import type { FileEditorProps } from './image-editor';
import { FileHistoryDialog, type HistoryFile } from '../../../components/version-history/file-history-dialog';
import { NotesButton } from '../../../components/review/notes-button';
import { SpacerRow, useVirtualRows } from '../../../components/ui/virtual-grid';

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
  // The inbox's row opens its notes once: a row scrolled out of view and back (so mounted again) stays closed.
  const [openNotesOf, setOpenNotesOf] = useState(focusedFileId);
  // Only the rows in view are in the page (decision 0041); the inbox's row is scrolled to.
  const {
    containerRef,
    rows: inView,
    measure,
    paddingTop,
    paddingBottom,
  } = useVirtualRows({
    count: rows.length,
    estimateSize: () => 112,
    inBox: false,
    getItemKey: (index) => rows[index]?.fileId ?? index,
    scrollToIndex: focusedFileId === null ? null : rows.findIndex((file) => file.fileId === focusedFileId),
  });

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
      <Card className="mt-3">
        <Card.Header as="h2" className="fs-6">
          Current Game Files ({sounds.length})
        </Card.Header>
        <Card.Body className="p-0">
          {sounds.length === 0 ? (
            <p className="m-3">{emptyTexts.audioFiles}</p>
          ) : (
            <div ref={containerRef}>
              <Table responsive className="mb-0 align-middle">
                <thead>
                  <tr>
                    <th>Download</th>
                    <th>Player</th>
                    <th aria-sort={direction === null ? 'none' : direction ? 'ascending' : 'descending'}>
                      <Button
                        variant="link"
                        className="p-0 fw-bold text-decoration-none"
                        onClick={() => setAscending(direction !== true)}
                      >
                        Path {direction === false ? '▼' : '▲'}
                      </Button>
                    </th>
                    <th>Upload</th>
                  </tr>
                </thead>
                <tbody>
                  <SpacerRow height={paddingTop} colSpan={4} />
                  {inView.map((virtual) => {
                    const sound = rows[virtual.index];
                    if (!sound) return null;
                    const own = replaced.get(sound.fileId);
                    const original = fileUrl(playPaths, playPaths.wtmFile, sound.path, sound.updatedAt);
                    const current = own
                      ? fileUrl(playPaths, playPaths.orjFile, sound.path, own.updatedAt)
                      : original;
                    return (
                      <tr
                        key={sound.fileId}
                        data-file-id={sound.fileId}
                        data-index={virtual.index}
                        ref={measure}
                      >
                        <td>
                          <a href={original} target="_blank" rel="noreferrer" download>
                            Download
                          </a>
                        </td>
                        <td>
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
                                  originalSrc: original,
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
                        </td>
                        <td className="text-break font-monospace small">{sound.path}</td>
                        <td style={{ minWidth: 220 }}>
                          <DropArea
                            label={`Replace ${sound.path}`}
                            hint="Drop one sound here, or click to choose it."
                            multiple={false}
                            accept="audio/*"
                            small
                            disabledReason={readOnlyReason}
                            onFiles={(files, progress) => replaceOne(sound, files, progress)}
                          />
                        </td>
                      </tr>
                    );
                  })}
                  <SpacerRow height={paddingBottom} colSpan={4} />
                </tbody>
              </Table>
            </div>
          )}
        </Card.Body>
      </Card>
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
