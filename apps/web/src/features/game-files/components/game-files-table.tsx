import { fileKindOf, type GameFile } from '@reskin/contract';
import { useRef, type ChangeEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { GameImageThumb } from '../../../components/ui/game-image-thumb';
import { formatSize } from './format';

export type GameFileActionKind = 'index' | 'splash' | 'delete';

interface GameFilesTableProps {
  files: GameFile[];
  /** Row actions are disabled while a batch uploads. */
  busy: boolean;
  onAction: (kind: GameFileActionKind, file: GameFile) => void;
  /** The single-file replacement: exactly one file, sent under the row's path. */
  onReplace: (file: GameFile, chosen: File[]) => void;
}

const isImage = (file: GameFile) => fileKindOf(file) === 'image';

export function GameFilesTable({ files, busy, onAction, onReplace }: GameFilesTableProps) {
  return (
    <Table responsive hover size="sm" className="mb-0 align-middle">
      <thead>
        <tr>
          <th>
            <span className="visually-hidden">Preview</span>
          </th>
          <th>Path</th>
          <th>Size</th>
          <th>Width x Height</th>
          <th>Index</th>
          <th>Splash</th>
          <th>Actions</th>
        </tr>
      </thead>
      <tbody>
        {files.map((file) => (
          <GameFileRow key={file.fileId} file={file} busy={busy} onAction={onAction} onReplace={onReplace} />
        ))}
      </tbody>
    </Table>
  );
}

interface GameFileRowProps {
  file: GameFile;
  busy: boolean;
  onAction: (kind: GameFileActionKind, file: GameFile) => void;
  onReplace: (file: GameFile, chosen: File[]) => void;
}

function GameFileRow({ file, busy, onAction, onReplace }: GameFileRowProps) {
  const input = useRef<HTMLInputElement>(null);
  const replaceId = `replace-input-${file.fileId}`;

  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (picked.length > 0) onReplace(file, picked);
  };

  return (
    <tr data-file-id={file.fileId}>
      <td>
        {isImage(file) && (
          <GameImageThumb
            gameId={file.gameId}
            path={file.path}
            version={file.updatedAt}
            alt={`Preview of ${file.path}`}
          />
        )}
      </td>
      <td className="text-break">
        <code>{file.path}</code>
      </td>
      <td className="text-nowrap">{formatSize(file.size)}</td>
      <td className="text-nowrap">
        {file.width !== null && file.height !== null ? `${file.width} x ${file.height}` : ''}
      </td>
      <td>{file.isStartFile && <Badge bg="primary">Index</Badge>}</td>
      <td>{file.isSplash && <Badge bg="info">Splash</Badge>}</td>
      <td>
        <div className="d-flex flex-wrap gap-1">
          <Button
            size="sm"
            variant="outline-primary"
            disabled={busy || file.isStartFile}
            onClick={() => onAction('index', file)}
          >
            Mark index
          </Button>
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
          <Button size="sm" variant="outline-danger" disabled={busy} onClick={() => onAction('delete', file)}>
            Delete
          </Button>
        </div>
      </td>
    </tr>
  );
}
