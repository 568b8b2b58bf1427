import { emptyTexts, messages } from '@reskin/contract';
import { useState } from 'react';
import Card from 'react-bootstrap/Card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Loading } from '../../../components/ui/loading';
import { paths } from '../../../config/paths';
import { notifySuccess } from '../../../lib/toasts';
import {
  useDeleteUserGame,
  type UserGameRow,
  useToggleUserGameActivity,
  useUserGames,
} from '../../../api/user-games';
import { AddUserGameForm } from './add-user-game-form';
import { EditUserGameDialog } from './edit-user-game-dialog';
import { UserGamesTable, type UserGameActionKind } from './user-games-table';

const versionsHref = (row: UserGameRow) => `${paths.userGameVersions}?userGameId=${row.id}`;

/** Admin user-games (SPEC §2): the assignments with their row actions, and the add form below. */
export function UserGames() {
  const list = useUserGames();
  const deleteCall = useDeleteUserGame();
  const activityCall = useToggleUserGameActivity();
  const [editing, setEditing] = useState<UserGameRow | null>(null);
  const [deleting, setDeleting] = useState<UserGameRow | null>(null);
  // Kept apart from `deleting` so the question stays on screen while the dialog fades out.
  const [confirming, setConfirming] = useState(false);
  const [addFormKey, setAddFormKey] = useState(0);

  const act = (kind: UserGameActionKind, row: UserGameRow) => {
    if (kind === 'edit') setEditing(row);
    else if (kind === 'delete') {
      setDeleting(row);
      setConfirming(true);
    } else {
      activityCall.mutate(row.id, {
        onSuccess: () => notifySuccess(messages.itemActivity),
      });
    }
  };

  const confirmDelete = () => {
    setConfirming(false);
    if (!deleting) return;
    deleteCall.mutate(deleting.id, {
      onSuccess: () => notifySuccess(messages.itemDeleted),
    });
  };

  const rows = list.data?.items ?? [];
  return (
    <>
      <Card>
        <Card.Header as="h1" className="fs-5">
          User Games ({rows.length})
        </Card.Header>
        <Card.Body>
          {list.isPending && <Loading />}
          {list.isSuccess && rows.length === 0 && <p className="mb-0">{emptyTexts.userGames}</p>}
          {rows.length > 0 && <UserGamesTable rows={rows} versionsHref={versionsHref} onAction={act} />}
        </Card.Body>
      </Card>
      <AddUserGameForm key={addFormKey} onAdded={() => setAddFormKey((key) => key + 1)} />
      {editing && <EditUserGameDialog key={editing.id} row={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        show={confirming}
        question={messages.confirmDeleteItem}
        onCancel={() => setConfirming(false)}
        onConfirm={confirmDelete}
      />
    </>
  );
}
