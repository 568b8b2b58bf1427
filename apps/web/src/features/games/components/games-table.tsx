import { GameStatus, type UpdateGameBody } from '@reskin/contract';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { SortHeader } from '../../../components/lists/list-controls';
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
  games,
  list,
  editingId,
  saving,
  generatingIds,
  onAction,
  onSave,
  onCancelEdit,
}: GamesTableProps) {
  return (
    <Table responsive hover className="mb-0 align-middle">
      <thead>
        <tr>
          <th>Splash</th>
          <SortHeader list={list} column="name">
            Name
          </SortHeader>
          <SortHeader list={list} column="description">
            Description
          </SortHeader>
          <SortHeader list={list} column="width">
            Width
          </SortHeader>
          <SortHeader list={list} column="height">
            Height
          </SortHeader>
          <SortHeader list={list} column="gameStatusTypeId">
            Status
          </SortHeader>
          <SortHeader list={list} column="engine">
            Engine
          </SortHeader>
          <SortHeader list={list} column="isActive">
            Active
          </SortHeader>
          <th>Actions</th>
        </tr>
      </thead>
      <tbody>
        {games.map((game) =>
          game.id === editingId ? (
            <GameEditRow
              key={game.id}
              game={game}
              busy={saving}
              onSave={(body) => onSave(game, body)}
              onCancel={onCancelEdit}
            />
          ) : (
            <tr key={game.id} data-game-id={game.id}>
              <td>
                {/* The list's own thumbnail URL when carried (no call per row); null means no splash. */}
                {game.thumbnailUrl !== undefined ? (
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
                ) : null}
              </td>
              <td>{game.name}</td>
              <td className="text-break">{game.description}</td>
              <td>{game.width}</td>
              <td>{game.height}</td>
              <StatusCell game={game} />
              <td>{game.engine ?? <span className="text-body-secondary">Unknown</span>}</td>
              <td>{game.isActive ? 'Yes' : 'No'}</td>
              <td>
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
              </td>
            </tr>
          ),
        )}
      </tbody>
    </Table>
  );
}

/** The status word, plus the reason when the last generation failed (loaded apart: the list lacks it). */
function StatusCell({ game }: { game: GameListItem }) {
  const failed = game.gameStatusTypeId === GameStatus.Failed;
  const detail = useGame(game.id, failed && game.statusReason === undefined);
  const statusReason = game.statusReason ?? (failed ? detail.data?.statusReason : null);
  return <td>{statusText({ ...game, statusReason })}</td>;
}
