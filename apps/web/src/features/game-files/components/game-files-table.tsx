import {
  atlasTexts,
  canBeIndex,
  fileKindOf,
  indexRuleMessage,
  sheetsOf,
  type FileUsage,
  type GameAtlases,
  type GameFile,
} from '@reskin/contract';
import { useRef, type ChangeEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { DataTable, type DataColumn, type ListFrameProps } from '../../../components/lists/data-table';
import type { ListState } from '../../../components/lists/use-list-params';
import { UsageBadge } from '../../../components/ui/file-usage';
import { GameImageThumb } from '../../../components/ui/game-image-thumb';
import { formatSize } from '../../../lib/format-size';

export type GameFileActionKind = 'index' | 'splash' | 'delete' | 'grid' | 'removeGrid';

/** The columns the table sorts by (the server's game file search columns). */
export const gameFileSortColumns = ['path', 'size', 'width', 'isStartFile', 'isSplash', 'loads'] as const;

interface GameFilesTableProps {
  /** The list's title, filters, loading, empty text and pager (DataTable's). */
  frame: ListFrameProps;
  files: GameFile[];
  /** Which files plays load; undefined while it loads. */
  usage: FileUsage[] | undefined;
  /** The game's sprite sheets and the descriptors that failed; undefined while they load. */
  atlases: GameAtlases | undefined;
  list: ListState<(typeof gameFileSortColumns)[number]>;
  /** Row actions are disabled while a batch uploads. */
  busy: boolean;
  onAction: (kind: GameFileActionKind, file: GameFile) => void;
  /** The single-file replacement: exactly one file, sent under the row's path. */
  onReplace: (file: GameFile, chosen: File[]) => void;
}

const isImage = (file: GameFile) => fileKindOf(file) === 'image';

export function GameFilesTable({
  frame,
  files,
  usage,
  atlases,
  list,
  busy,
  onAction,
  onReplace,
}: GameFilesTableProps) {
  const usageOf = new Map((usage ?? []).map((file) => [file.fileId, file]));
  const columns: DataColumn<GameFile>[] = [
    {
      id: 'preview',
      header: <span className="visually-hidden">Preview</span>,
      cell: (file) =>
        isImage(file) && (
          <GameImageThumb
            gameId={file.gameId}
            path={file.path}
            version={file.updatedAt}
            alt={`Preview of ${file.path}`}
            thumbnailUrl={file.previews?.thumbnail}
          />
        ),
    },
    {
      id: 'path',
      header: 'Path',
      sortable: true,
      cellProps: { className: 'text-break' },
      cell: (file) => <PathCell file={file} atlases={atlases} />,
    },
    {
      id: 'size',
      header: 'Size',
      sortable: true,
      cellProps: { className: 'text-nowrap' },
      cell: (file) => formatSize(file.size),
    },
    {
      id: 'width',
      header: 'Width x Height',
      sortable: true,
      cellProps: { className: 'text-nowrap' },
      cell: (file) => (file.width !== null && file.height !== null ? `${file.width} x ${file.height}` : ''),
    },
    {
      id: 'isStartFile',
      header: 'Index',
      sortable: true,
      cell: (file) => file.isStartFile && <Badge bg="primary">Index</Badge>,
    },
    {
      id: 'isSplash',
      header: 'Splash',
      sortable: true,
      cell: (file) => file.isSplash && <Badge bg="info">Splash</Badge>,
    },
    {
      id: 'loads',
      header: 'Loaded in play',
      sortable: true,
      // Nothing while the record of what plays load is on its way.
      cell: (file) => usage && <UsageBadge usage={usageOf.get(file.fileId)} />,
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (file) => (
        <GameFileActions
          file={file}
          atlases={atlases}
          busy={busy}
          onAction={onAction}
          onReplace={onReplace}
        />
      ),
    },
  ];
  return (
    <DataTable
      {...frame}
      columns={columns}
      data={files}
      getRowKey={(file) => file.fileId}
      sort={list}
      size="sm"
      rowProps={(file) => ({ 'data-file-id': file.fileId })}
    />
  );
}

/** The path, with a sprite sheet's badges and the problems of its descriptors. */
function PathCell({ file, atlases }: { file: GameFile; atlases: GameAtlases | undefined }) {
  const sheets = sheetsOf(atlases?.atlases ?? [], file.fileId);
  const problems = (atlases?.problems ?? []).filter((problem) => problem.fileId === file.fileId);
  return (
    <>
      <code>{file.path}</code>
      {sheets.map(({ atlas, frames }) => (
        <div key={atlas.descriptor}>
          <Badge
            bg="success"
            className="text-wrap"
            title={`Frames from ${atlas.descriptor}`}
            data-testid="sheet-badge"
          >
            {atlasTexts.sheetBadge(frames.length, atlas.format)}
          </Badge>
        </div>
      ))}
      {problems.map((problem) => (
        <div key={problem.problem} className="small text-danger" data-testid="sheet-problem">
          {atlasTexts.problemLine(problem)}
        </div>
      ))}
    </>
  );
}

interface GameFileActionsProps {
  file: GameFile;
  atlases: GameAtlases | undefined;
  busy: boolean;
  onAction: (kind: GameFileActionKind, file: GameFile) => void;
  onReplace: (file: GameFile, chosen: File[]) => void;
}

function GameFileActions({ file, atlases, busy, onAction, onReplace }: GameFileActionsProps) {
  const input = useRef<HTMLInputElement>(null);
  const replaceId = `replace-input-${file.fileId}`;

  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (picked.length > 0) onReplace(file, picked);
  };

  const hasGrid = sheetsOf(atlases?.atlases ?? [], file.fileId).some(
    (sheet) => sheet.atlas.format === 'grid',
  );

  return (
    <div className="d-flex flex-wrap gap-1">
      {/* Only a page can start a game; a disabled button shows no title, its wrapper does. */}
      <span title={canBeIndex(file.path) ? undefined : indexRuleMessage}>
        <Button
          size="sm"
          variant="outline-primary"
          disabled={busy || file.isStartFile || !canBeIndex(file.path)}
          onClick={() => onAction('index', file)}
        >
          Mark index
        </Button>
      </span>
      <Button
        size="sm"
        variant="outline-info"
        disabled={busy || file.isSplash || !isImage(file)}
        onClick={() => onAction('splash', file)}
      >
        Mark splash
      </Button>
      <Button size="sm" variant="outline-secondary" disabled={busy} onClick={() => input.current?.click()}>
        Replace
      </Button>
      <input
        ref={input}
        id={replaceId}
        type="file"
        className="d-none"
        aria-label={`Replace ${file.path}`}
        onChange={chosen}
      />
      {isImage(file) && (
        <Button
          size="sm"
          variant="outline-success"
          disabled={busy || file.width === null || file.height === null}
          onClick={() => onAction('grid', file)}
        >
          Declare grid
        </Button>
      )}
      {hasGrid && (
        <Button
          size="sm"
          variant="outline-warning"
          disabled={busy}
          onClick={() => onAction('removeGrid', file)}
        >
          Remove grid
        </Button>
      )}
      <Button size="sm" variant="outline-danger" disabled={busy} onClick={() => onAction('delete', file)}>
        Delete
      </Button>
    </div>
  );
}
