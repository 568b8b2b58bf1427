import {
  atlasTexts,
  canBeIndex,
  fileKindOf,
  indexRuleMessage,
  type FileUsage,
  type GameAtlases,
  type GameFile,
} from '@reskin/contract';
import { useRef, type ChangeEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { SortHeader } from '../../../components/lists/list-controls';
import type { ListState } from '../../../components/lists/use-list-params';
import { UsageBadge } from '../../../components/ui/file-usage';
import { GameImageThumb } from '../../../components/ui/game-image-thumb';
import { formatSize } from '../../../lib/format-size';
import { sheetsOf } from '../../../lib/sheets';

export type GameFileActionKind = 'index' | 'splash' | 'delete' | 'grid' | 'removeGrid';

/** The columns the table sorts by (the server's game file search columns). */
export const gameFileSortColumns = ['path', 'size', 'width', 'isStartFile', 'isSplash', 'loads'] as const;

interface GameFilesTableProps {
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
  files,
  usage,
  atlases,
  list,
  busy,
  onAction,
  onReplace,
}: GameFilesTableProps) {
  const usageOf = new Map((usage ?? []).map((file) => [file.fileId, file]));
  return (
    <Table responsive hover size="sm" className="mb-0 align-middle">
      <thead>
        <tr>
          <th>
            <span className="visually-hidden">Preview</span>
          </th>
          <SortHeader list={list} column="path">
            Path
          </SortHeader>
          <SortHeader list={list} column="size">
            Size
          </SortHeader>
          <SortHeader list={list} column="width">
            Width x Height
          </SortHeader>
          <SortHeader list={list} column="isStartFile">
            Index
          </SortHeader>
          <SortHeader list={list} column="isSplash">
            Splash
          </SortHeader>
          <SortHeader list={list} column="loads">
            Loaded in play
          </SortHeader>
          <th>Actions</th>
        </tr>
      </thead>
      <tbody>
        {files.map((file) => (
          <GameFileRow
            key={file.fileId}
            file={file}
            usage={usage ? usageOf.get(file.fileId) : null}
            atlases={atlases}
            busy={busy}
            onAction={onAction}
            onReplace={onReplace}
          />
        ))}
      </tbody>
    </Table>
  );
}

interface GameFileRowProps {
  file: GameFile;
  /** null while the record loads. */
  usage: FileUsage | undefined | null;
  atlases: GameAtlases | undefined;
  busy: boolean;
  onAction: (kind: GameFileActionKind, file: GameFile) => void;
  onReplace: (file: GameFile, chosen: File[]) => void;
}

function GameFileRow({ file, usage, atlases, busy, onAction, onReplace }: GameFileRowProps) {
  const input = useRef<HTMLInputElement>(null);
  const replaceId = `replace-input-${file.fileId}`;

  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (picked.length > 0) onReplace(file, picked);
  };

  const sheets = sheetsOf(atlases, file.fileId);
  const hasGrid = sheets.some((sheet) => sheet.atlas.format === 'grid');
  const problems = (atlases?.problems ?? []).filter((problem) => problem.fileId === file.fileId);

  return (
    <tr data-file-id={file.fileId}>
      <td>
        {isImage(file) && (
          <GameImageThumb
            gameId={file.gameId}
            path={file.path}
            version={file.updatedAt}
            alt={`Preview of ${file.path}`}
            thumbnailUrl={file.previews?.thumbnail}
          />
        )}
      </td>
      <td className="text-break">
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
      </td>
      <td className="text-nowrap">{formatSize(file.size)}</td>
      <td className="text-nowrap">
        {file.width !== null && file.height !== null ? `${file.width} x ${file.height}` : ''}
      </td>
      <td>{file.isStartFile && <Badge bg="primary">Index</Badge>}</td>
      <td>{file.isSplash && <Badge bg="info">Splash</Badge>}</td>
      <td>{usage !== null && <UsageBadge usage={usage} />}</td>
      <td>
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
          <Button
            size="sm"
            variant="outline-secondary"
            disabled={busy}
            onClick={() => input.current?.click()}
          >
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
      </td>
    </tr>
  );
}
