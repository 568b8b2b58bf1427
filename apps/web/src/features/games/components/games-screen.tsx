import { emptyTexts, limits, messages, type UpdateGameBody } from '@reskin/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import Card from 'react-bootstrap/Card';
import { useNavigate } from 'react-router';
import { ListSearch } from '../../../components/lists/list-controls';
import { useListParams } from '../../../components/lists/use-list-params';
import { useConfirm } from '../../../components/ui/use-confirm';
import { paths } from '../../../config/paths';
import { notifySuccess, notifyWarning } from '../../../lib/toasts';
import {
  gameKeys,
  type GameListItem,
  useDeleteGame,
  useGames,
  useGenerateGame,
  useUpdateGame,
} from '../../../api/games';
import { AddGameForm } from './add-game-form';
import { GamesTable, gameSortColumns, type GameActionKind } from './games-table';

/** Where a game's screens live: the game travels in the query string so reloads and pasted links work. */
export const gameScreenUrl = (path: string, gameId: number) => `${path}?gameId=${gameId}`;

/**
 * Admin games (SPEC §2): the list (searched by name, sorted and paged on the server, newest first) with inline
 * edit and row actions, and the add form below.
 */
export function GamesScreen() {
  const list = useListParams({ searchColumns: ['name'], sortColumns: gameSortColumns });
  const games = useGames(list.params);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const updateCall = useUpdateGame();
  const deleteCall = useDeleteGame();
  const generateCall = useGenerateGame();
  const [editingId, setEditingId] = useState<number | null>(null);
  const { confirm, dialog } = useConfirm();
  const [generatingIds, setGeneratingIds] = useState<ReadonlySet<number>>(() => new Set());
  const [addFormKey, setAddFormKey] = useState(0);
  const reloadTimers = useRef<number[]>([]);

  useEffect(() => {
    const timers = reloadTimers.current;
    return () => timers.forEach((timer) => window.clearTimeout(timer));
  }, []);

  const reload = () => queryClient.invalidateQueries({ queryKey: gameKeys.lists() });

  const generate = (game: GameListItem) => {
    setGeneratingIds((ids) => new Set([...ids, game.id]));
    generateCall.mutate(game.id, {
      onSuccess: () => {
        notifySuccess(messages.gameFilesGenerating);
        reloadTimers.current.push(window.setTimeout(() => void reload(), limits.regenerationReloadMs));
      },
      onSettled: () => setGeneratingIds((ids) => new Set([...ids].filter((id) => id !== game.id))),
    });
  };

  const act = (kind: GameActionKind, game: GameListItem) => {
    switch (kind) {
      case 'edit':
        setEditingId(game.id);
        return;
      case 'play':
        void navigate(gameScreenUrl(paths.gamePlay, game.id));
        return;
      case 'files':
        void navigate(gameScreenUrl(paths.gameFiles, game.id));
        return;
      case 'generate':
        generate(game);
        return;
      case 'delete':
        void askDelete(game);
        return;
    }
  };

  const save = (game: GameListItem, body: UpdateGameBody) =>
    updateCall.mutate(
      { id: game.id, body },
      {
        onSuccess: () => {
          notifySuccess(messages.itemEdited);
          setEditingId(null);
        },
      },
    );

  const cancelEdit = () => {
    setEditingId(null);
    notifyWarning(messages.gameEditingCancelled);
    void reload();
  };

  const askDelete = async ({ id }: GameListItem) => {
    if (!(await confirm(messages.confirmDeleteItem))) return;
    deleteCall.mutate(id, {
      onSuccess: () => {
        notifySuccess(messages.itemDeleted);
        if (editingId === id) setEditingId(null);
      },
    });
  };

  const rows = games.data?.items ?? [];
  const total = games.data?.total ?? 0;

  return (
    <>
      <GamesTable
        frame={{
          title: { text: 'Games', total: games.data?.total, as: 'h1', card: { className: 'mb-4' } },
          toolbar: <ListSearch list={list} label="Search by name" />,
          status: games.status,
          busy: games.isFetching,
          emptyText: emptyTexts.games,
          pager: { list, total },
        }}
        games={rows}
        list={list}
        editingId={editingId}
        saving={updateCall.isPending}
        generatingIds={generatingIds}
        onAction={act}
        onSave={save}
        onCancelEdit={cancelEdit}
      />
      <Card>
        <Card.Header as="h2" className="fs-5">
          Add Game
        </Card.Header>
        <Card.Body>
          <AddGameForm key={addFormKey} onAdded={() => setAddFormKey((key) => key + 1)} />
        </Card.Body>
      </Card>
      {dialog}
    </>
  );
}
