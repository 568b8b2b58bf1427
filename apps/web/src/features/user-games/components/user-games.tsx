import { emptyTexts, messages } from '@reskin/contract';
import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { useSearchParams } from 'react-router';
import { ListSearch } from '../../../components/lists/list-controls';
import { listQueryKeys, useListParams } from '../../../components/lists/use-list-params';
import { useConfirm } from '../../../components/ui/use-confirm';
import { paths } from '../../../config/paths';
import { notifySuccess } from '../../../lib/toasts';
import {
  useDeleteUserGame,
  type UserGameRow,
  useToggleUserGameActivity,
  useUserGames,
} from '../../../api/user-games';
import {
  hasFinishedVersions,
  noFinishedText,
  userGameSearchBy,
  userGameSortColumns,
} from '../lib/user-games-list';
import { AddUserGameForm } from './add-user-game-form';
import { EditUserGameDialog } from './edit-user-game-dialog';
import { UserGamesTable, type UserGameActionKind } from './user-games-table';

const versionsHref = (row: UserGameRow) => `${paths.userGameVersions}?userGameId=${row.id}`;

/** The URL query key of the "Has finished versions" filter (`?finished=1`), kept like the list's search. */
const finishedKey = 'finished';

/**
 * Admin user-games (SPEC §2): the assignments with their review counts, searchable by username or game name,
 * sortable, paged and filterable to those with finished versions; their row actions, and the add form below.
 */
export function UserGames() {
  const [query, setQuery] = useSearchParams();
  const onlyFinished = query.get(finishedKey) === '1';
  const list = useListParams({
    searchColumns: userGameSearchBy,
    sortColumns: userGameSortColumns,
    where: onlyFinished ? hasFinishedVersions : undefined,
  });
  const userGames = useUserGames(list.params);
  const deleteCall = useDeleteUserGame();
  const activityCall = useToggleUserGameActivity();
  const [editing, setEditing] = useState<UserGameRow | null>(null);
  const { confirm, dialog } = useConfirm();
  const [addFormKey, setAddFormKey] = useState(0);

  const act = async (kind: UserGameActionKind, row: UserGameRow) => {
    if (kind === 'edit') setEditing(row);
    else if (kind === 'delete') {
      if (await confirm(messages.confirmDeleteItem))
        deleteCall.mutate(row.id, {
          onSuccess: () => notifySuccess(messages.itemDeleted),
        });
    } else {
      activityCall.mutate(row.id, {
        onSuccess: () => notifySuccess(messages.itemActivity),
      });
    }
  };

  // A new filter starts again at page 1, as a new search does.
  const setOnlyFinished = (on: boolean) =>
    setQuery((current) => {
      const next = new URLSearchParams(current);
      if (on) next.set(finishedKey, '1');
      else next.delete(finishedKey);
      next.delete(listQueryKeys.page);
      return next;
    });

  const rows = userGames.data?.items ?? [];
  const total = userGames.data?.total ?? 0;
  return (
    <>
      <UserGamesTable
        frame={{
          title: { text: 'User Games', total: userGames.data?.total, as: 'h1' },
          toolbar: (
            <div className="d-flex flex-wrap align-items-baseline column-gap-4">
              <ListSearch list={list} label="Search by username or game name" />
              <Form.Check
                type="switch"
                role="switch"
                id="hasFinishedVersions"
                className="mb-3"
                label="Has finished versions"
                checked={onlyFinished}
                onChange={(event) => setOnlyFinished(event.target.checked)}
              />
            </div>
          ),
          status: userGames.status,
          // A search's "No results" comes first, then the filter's own text.
          emptyText: onlyFinished ? noFinishedText : emptyTexts.userGames,
          pager: { list, total },
        }}
        rows={rows}
        list={list}
        versionsHref={versionsHref}
        onAction={act}
      />
      <AddUserGameForm key={addFormKey} onAdded={() => setAddFormKey((key) => key + 1)} />
      {editing && <EditUserGameDialog key={editing.id} row={editing} onClose={() => setEditing(null)} />}
      {dialog}
    </>
  );
}
