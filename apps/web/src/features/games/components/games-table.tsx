import { GameStatus, type UpdateGameBody } from '@reskin/contract';
import Button from 'react-bootstrap/Button';
import { DataTable, type DataColumn, type ListFrameProps } from '../../../components/lists/data-table';
import type { ListState } from '../../../components/lists/use-list-params';
import { GameImageThumb } from '../../../components/ui/game-image-thumb';
import { type GameListItem, useGame } from '../../../api/games';
import { GameEditRow } from './game-edit-row';
import { statusText } from '../../../lib/game-status';

export type GameActionKind = 'edit' | 'play' | 'files' | 'generate' | 'delete';

/** The columns the table sorts by (the server's game search columns). */
export const gameSortColumns = [
  'name',
  'description',
  'width',
  'height',
  'gameStatusTypeId',
  'engine',
  'isActive',
] as const;

interface GamesTableProps {
  /** The list's title, search, loading, empty text and pager (DataTable's). */
  frame: ListFrameProps;
  games: GameListItem[];
  list: ListState<(typeof gameSortColumns)[number]>;
  /** The game in inline edit, if any. */
  editingId: number | null;
  saving: boolean;
  /** Games whose 'Gen.' call is on its way. */
  generatingIds: ReadonlySet<number>;
  onAction: (kind: GameActionKind, game: GameListItem) => void;
  onSave: (game: GameListItem, body: UpdateGameBody) => void;
  onCancelEdit: () => void;
}

export function GamesTable({
  frame,
  games,
  list,
  editingId,
  saving,
  generatingIds,
  onAction,
  onSave,
  onCancelEdit,
}: GamesTableProps) {
  const columns: DataColumn<GameListItem>[] = [
    {
      id: 'splash',
      header: 'Splash',
      // The list's own thumbnail URL when carried (no call per row); null means no splash.
      cell: (game) =>
        game.thumbnailUrl !== undefined ? (
          game.thumbnailUrl !== null && (
            <GameImageThumb
              gameId={game.id}
              path={game.imagePath ?? ''}
              thumbnailUrl={game.thumbnailUrl}
              alt={`Splash of ${game.name}`}
            />
          )
        ) : game.imagePath ? (
          <GameImageThumb
            gameId={game.id}
            path={game.imagePath}
            version={game.updatedAt}
            alt={`Splash of ${game.name}`}
          />
        ) : null,
    },
    { id: 'name', header: 'Name', sortable: true, cell: (game) => game.name },
    {
      id: 'description',
      header: 'Description',
      sortable: true,
      cellProps: { className: 'text-break' },
      cell: (game) => game.description,
    },
    { id: 'width', header: 'Width', sortable: true, cell: (game) => game.width },
    { id: 'height', header: 'Height', sortable: true, cell: (game) => game.height },
    { id: 'gameStatusTypeId', header: 'Status', sortable: true, cell: (game) => <StatusText game={game} /> },
    {
      id: 'engine',
      header: 'Engine',
      sortable: true,
      cell: (game) => game.engine ?? <span className="text-body-secondary">Unknown</span>,
    },
    { id: 'isActive', header: 'Active', sortable: true, cell: (game) => (game.isActive ? 'Yes' : 'No') },
    {
      id: 'actions',
      header: 'Actions',
      cell: (game) => (
        <div className="d-flex flex-wrap gap-1">
          <Button size="sm" variant="outline-primary" onClick={() => onAction('edit', game)}>
            Edit
          </Button>
          <Button
            size="sm"
            variant="outline-success"
            disabled={game.gameStatusTypeId !== GameStatus.Ready}
            onClick={() => onAction('play', game)}
          >
            Play
          </Button>
          <Button size="sm" variant="outline-secondary" onClick={() => onAction('files', game)}>
            Files
          </Button>
          <Button
            size="sm"
            variant="outline-secondary"
            title="Generate the game files"
            disabled={generatingIds.has(game.id)}
            onClick={() => onAction('generate', game)}
          >
            Gen.
          </Button>
          <Button size="sm" variant="outline-danger" onClick={() => onAction('delete', game)}>
            Delete
          </Button>
        </div>
      ),
    },
  ];
  return (
    <DataTable
      {...frame}
      columns={columns}
      data={games}
      getRowKey={(game) => game.id}
      sort={list}
      rowProps={(game) => ({ 'data-game-id': game.id })}
      renderRow={(game) =>
        game.id === editingId ? (
          <GameEditRow
            game={game}
            busy={saving}
            onSave={(body) => onSave(game, body)}
            onCancel={onCancelEdit}
          />
        ) : undefined
      }
    />
  );
}

/** The status word, plus the reason when the last generation failed (loaded apart: the list lacks it). */
function StatusText({ game }: { game: GameListItem }) {
  const failed = game.gameStatusTypeId === GameStatus.Failed;
  const detail = useGame(game.id, failed && game.statusReason === undefined);
  const statusReason = game.statusReason ?? (failed ? detail.data?.statusReason : null);
  return statusText({ ...game, statusReason });
}
