import { emptyTexts, fileKindOf, messages, versionChangeRefusal, type VersionFile } from '@reskin/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Nav from 'react-bootstrap/Nav';
import { Link } from 'react-router';
import { DateTime } from '../../../components/ui/date-time';
import { ImageCompareDialog } from '../../../components/ui/image-compare-dialog';
import { paths } from '../../../config/paths';
import { useGameAtlases } from '../../../api/atlases';
import { useGameFiles } from '../../../api/game-files';
import { useVersionPath } from '../../../api/play';
import { useVersionFiles, useZipUrl } from '../../../api/versions';
import { useVersionStorage } from '../../../api/history';
import { formatSize } from '../../../lib/format-size';
import { useSession } from '../../../lib/session/session-context';
import { FileHistoryDialog, type HistoryFile } from '../../../components/version-history/file-history-dialog';
import { useReviewedVersion } from '../../../api/review';
import { NotesButton } from '../../../components/review/notes-button';
import { VerdictPanel } from './verdict-panel';
import { VersionNotesPanel } from '../../../components/review/version-notes-panel';
import { useFocusedFile } from '../../../lib/use-focused-file';
import { useFirstScreenShown, useRestOfLists } from '../../../lib/use-first-screen-shown';
import { fileUrl } from '../../../lib/play-file-url';
import { byUpdatedAt } from '../lib/sort-files';
import { idsQuery, useIds } from '../../../lib/route-ids';
import { FilePreview } from './file-preview';
import { DataTable, useLocalSort, type DataColumn } from '../../../components/lists/data-table';
import { ReplacedFrames } from './replaced-frames';

/** A preview's column: a 96 px thumbnail in its frame, or a sound's player (which fits the width it is given). */
const previewColumnWidth = '9rem';

/**
 * Admin: a version's replaced files beside the originals (SPEC §2), with Download All; the review screen:
 * the verdict, the notes on the version, and each file's notes.
 */
export function VersionFiles() {
  const { versionId, gameId, userGameId } = useIds();
  const version = useReviewedVersion(versionId, userGameId);
  const session = useSession();
  // The version's files are the rows, newest first, so they come whole (a first page by path is no first screen);
  // the game's files beside them (the big list) come first page first, the rest once the rows are shown (decision 0063).
  const [rest, allowRest] = useRestOfLists();
  const files = useVersionFiles(versionId, gameId, { rest: true });
  const originals = useGameFiles(gameId, { rest });
  const playPaths = useVersionPath(versionId, gameId);
  const zipUrl = useZipUrl();
  // A sheet's replaced frames are shown beside their originals, cut by the game's atlases.
  const replacesFrames = (files.data ?? []).some((file) => (file.frames?.length ?? 0) > 0);
  const atlases = useGameAtlases(replacesFrames ? gameId : null);
  // Newest first until the header is clicked.
  const sort = useLocalSort<'updatedAt'>({ column: 'updatedAt', direction: 'desc' });
  // The row whose images the viewer shows (an artist's file opens there, never as a page).
  const [viewing, setViewing] = useState<VersionFile | null>(null);
  // Each replaced file's history, and what the version keeps in storage.
  const [historyOf, setHistoryOf] = useState<HistoryFile | null>(null);
  const storage = useVersionStorage(versionId);

  // The window opens at once, inside the click, so the browser counts it as the user's own pop-up; the
  // ticketed URL is filled in when the API answers (SPEC §5: a blocked pop-up alerts).
  const downloadAll = (id: number) => {
    const target = window.open('', '_blank');
    if (!target) return window.alert(messages.popupBlocked);
    zipUrl.mutate(id, { onSuccess: (url) => (target.location.href = url), onError: () => target.close() });
  };

  const rows = (files.complete && files.data) || [];
  const originalById = new Map((originals.data ?? []).map((file) => [file.fileId, file]));
  const urls = playPaths.data;
  const viewed = viewing ? originalById.get(viewing.fileId) : undefined;
  // A link from the inbox names a file (`?fileId=`): its row is scrolled to and its notes open (once: a row
  // scrolled out of view and back, so mounted again, stays closed).
  const focusedFileId = useFocusedFile();
  const [openNotesOf, setOpenNotesOf] = useState(focusedFileId);
  useFirstScreenShown(
    {
      ready: files.complete && originals.data !== undefined,
      pictures: rows.some((file) => fileKindOf(file) === 'image'),
    },
    allowRest,
  );
  const originalSrcOf = (file: VersionFile) => {
    const original = originalById.get(file.fileId);
    return urls && original && fileUrl(urls, urls.wtmFile, original.path, original.updatedAt);
  };
  const columns: DataColumn<VersionFile>[] = [
    {
      id: 'userImage',
      header: 'User Image',
      width: previewColumnWidth,
      cell: (file) => (
        <FilePreview
          url={urls && fileUrl(urls, urls.orjFile, file.path, file.updatedAt)}
          preview={file.preview}
          contentType={file.contentType}
          alt={`User image ${file.path}`}
          onOpen={() => setViewing(file)}
        />
      ),
    },
    {
      id: 'oriImage',
      header: 'Ori Image',
      width: previewColumnWidth,
      cell: (file) => {
        const original = originalById.get(file.fileId);
        return (
          <FilePreview
            url={originalSrcOf(file)}
            preview={original?.previews?.preview}
            thumbnail={
              original?.previews
                ? { url: original.previews.thumbnail, width: original.width, height: original.height }
                : undefined
            }
            contentType={original?.contentType}
            alt={`Original image ${file.path}`}
            onOpen={() => setViewing(file)}
          />
        );
      },
    },
    { id: 'fileId', header: 'File ID', width: '6rem', cell: (file) => file.fileId },
    {
      id: 'path',
      header: 'Path',
      cellProps: { className: 'text-break' },
      cell: (file) => (
        <>
          {file.path}
          <div>
            <Button
              size="sm"
              variant="outline-primary"
              className="mt-1"
              aria-label={`History of ${file.path}`}
              onClick={() =>
                setHistoryOf({
                  fileId: file.fileId,
                  path: file.path,
                  kind: fileKindOf(file) === 'image' ? 'image' : 'sound',
                  originalSrc: originalSrcOf(file),
                })
              }
            >
              History
            </Button>
          </div>
        </>
      ),
    },
    {
      id: 'notes',
      header: 'Notes',
      width: '9rem',
      cell: (file) =>
        versionId !== null && (
          <NotesButton
            versionId={versionId}
            target={{ fileId: file.fileId }}
            subject={file.path}
            initiallyOpen={openNotesOf === file.fileId}
            onClose={() => setOpenNotesOf(null)}
          />
        ),
    },
    {
      id: 'updatedAt',
      header: 'Update At',
      width: '12rem',
      sortable: true,
      compare: byUpdatedAt,
      cell: (file) => <DateTime value={file.updatedAt} />,
    },
  ];

  return (
    <Card>
      <Card.Header>
        <Nav variant="tabs" className="card-header-tabs">
          <Nav.Item>
            <Nav.Link as={Link} to={`${paths.userGameVersions}?${idsQuery({ userGameId })}`}>
              Back
            </Nav.Link>
          </Nav.Item>
          <Nav.Item>
            <Nav.Link
              as="button"
              type="button"
              disabled={versionId === null}
              onClick={() => {
                if (versionId !== null) downloadAll(versionId);
              }}
            >
              Download All
            </Nav.Link>
          </Nav.Item>
        </Nav>
      </Card.Header>
      <Card.Body>
        {version.data && (
          <>
            <h1 className="fs-5">Review of {version.data.name}</h1>
            <VerdictPanel version={version.data} />
            <VersionNotesPanel versionId={version.data.id} />
          </>
        )}
        {storage.data && (
          <p className="small text-body-secondary" data-testid="version-storage">
            Storage used: {formatSize(storage.data.storageBytes)} (current files{' '}
            {formatSize(storage.data.currentBytes)}, history {formatSize(storage.data.historyBytes)} in{' '}
            {storage.data.historyEntries} {storage.data.historyEntries === 1 ? 'entry' : 'entries'})
          </p>
        )}
        <DataTable
          // The count reads the files shown, '(0)' while they load.
          title={{ text: 'Version files', total: rows.length, as: 'h2', card: false }}
          // Without a version there is no list to load: it is empty.
          status={versionId === null || files.complete ? 'success' : files.isError ? 'error' : 'pending'}
          emptyText={emptyTexts.versionFiles}
          columns={columns}
          data={rows}
          getRowKey={(file) => file.id}
          sort={sort}
          sortHere
          // Only the rows in view are in the page (decision 0041); a link's file is scrolled to.
          virtual={{
            estimateSize: (file) => ((file.frames?.length ?? 0) > 0 ? 260 : 130),
            scrollTo: focusedFileId === null ? null : (file) => file.fileId === focusedFileId,
          }}
          rowProps={(file) => ({
            'data-file-id': file.fileId,
            className: focusedFileId === file.fileId ? 'table-warning' : undefined,
          })}
          rowDetail={(file) =>
            urls &&
            file.frames &&
            file.frames.length > 0 && (
              <tr data-frames-of={file.fileId}>
                <td colSpan={columns.length}>
                  <ReplacedFrames
                    fileId={file.fileId}
                    frames={file.frames}
                    atlases={atlases.data}
                    originalSrc={originalSrcOf(file)}
                    versionSrc={fileUrl(urls, urls.orjFile, file.path, file.updatedAt)}
                  />
                </td>
              </tr>
            )
          }
        />
      </Card.Body>
      {versionId !== null && (
        <FileHistoryDialog
          versionId={versionId}
          file={historyOf}
          onClose={() => setHistoryOf(null)}
          // The lock freezes the files for reviewers too (the server's 423): no restore offered, and why.
          readOnlyReason={
            version.data ? versionChangeRefusal(session, version.data, 'restore')?.message : undefined
          }
        />
      )}
      {viewing && viewed && urls && (
        <ImageCompareDialog
          show
          onClose={() => setViewing(null)}
          image={viewed}
          original={{
            src: fileUrl(urls, urls.wtmFile, viewed.path, viewed.updatedAt),
            alt: `Original ${viewing.path}`,
            caption: 'Original',
          }}
          replacement={{
            src: fileUrl(urls, urls.orjFile, viewing.path, viewing.updatedAt),
            alt: `User image ${viewing.path}, larger`,
            caption: 'User image',
          }}
        />
      )}
    </Card>
  );
}
