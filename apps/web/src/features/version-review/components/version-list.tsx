import { emptyTexts, GameVersionStatus, messages, type GameVersion } from '@reskin/contract';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { DataTable, type DataColumn } from '../../../components/lists/data-table';
import { useListParams } from '../../../components/lists/use-list-params';
import { useConfirm } from '../../../components/ui/use-confirm';
import { DateTime } from '../../../components/ui/date-time';
import { paths } from '../../../config/paths';
import { notifySuccess } from '../../../lib/toasts';
import {
  useVersionList,
  useDeleteVersion,
  useToggleVersionActivity,
  useToggleVersionLock,
} from '../../../api/versions';
import { useUserGame } from '../../../api/user-games';
import { idsQuery, useIds } from '../../../lib/route-ids';
import { OpenNotesBadge, ReviewStateBadge } from '../../../components/review/review-badges';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
const isFinished = (version: GameVersion) => version.gameVersionStatusId === GameVersionStatus.Finished;

/** The columns the headers sort by (the version's own columns, POST /game-versions/filter's order). */
const sortColumns = ['name', 'description', 'isActive', 'isLocked'] as const;

// The client has already toasted the server's message (SPEC §8: failures show the error's message).
/**
 * Admin: a user-game's versions (SPEC §2), with Play, Files and the active, lock and delete actions; Finished
 * versions are marked with their finish time (the review loop). Sorted and paged in the URL like every list.
 */
export function VersionList() {
  const { userGameId } = useIds();
  const userGame = useUserGame(userGameId);
  const list = useListParams({ searchColumns: ['name'], sortColumns });
  const versions = useVersionList(userGameId, list.params);
  const activityCall = useToggleVersionActivity();
  const lockCall = useToggleVersionLock();
  const deleteCall = useDeleteVersion();
  const { confirm, dialog } = useConfirm();

  const askDelete = async (version: GameVersion) => {
    if (!(await confirm(messages.confirmDeleteNamed(version.name)))) return;
    deleteCall.mutate(version.id, {
      onSuccess: () => notifySuccess(messages.versionDeleted),
    });
  };

  const header = userGame.data;
  const rows = versions.data?.items ?? [];
  const total = versions.data?.total ?? 0;
  const linkFor = (target: string, version: GameVersion) =>
    `${target}?${idsQuery({ versionId: version.id, gameId: version.gameId, userGameId })}`;

  const columns: DataColumn<GameVersion>[] = [
    {
      id: 'name',
      header: 'Name',
      sortable: true,
      cell: (version) => (
        <>
          {version.name}
          {isFinished(version) && (
            <div className="small text-nowrap">
              <Badge bg="success">Finished</Badge> <DateTime value={version.finishedAt} />
            </div>
          )}
          <div className="d-flex flex-wrap gap-1 small">
            <ReviewStateBadge state={version.reviewState} />
            <OpenNotesBadge count={version.openNotes} />
          </div>
        </>
      ),
    },
    { id: 'description', header: 'Description', sortable: true, cell: (version) => version.description },
    { id: 'isActive', header: 'Is Active', sortable: true, cell: (version) => yesNo(version.isActive) },
    { id: 'isLocked', header: 'Is Locked', sortable: true, cell: (version) => yesNo(version.isLocked) },
    {
      id: 'actions',
      header: 'Actions',
      cell: (version) => (
        <div className="d-flex flex-wrap gap-1">
          <Link className="btn btn-sm btn-outline-primary" to={linkFor(paths.userGameVersionPlay, version)}>
            Play
          </Link>
          <Link className="btn btn-sm btn-outline-primary" to={linkFor(paths.userGameVersionFiles, version)}>
            Files
          </Link>
          <Button
            size="sm"
            variant="outline-secondary"
            disabled={activityCall.isPending}
            onClick={() =>
              activityCall.mutate(version.id, {
                onSuccess: () => notifySuccess(messages.activityChanged),
              })
            }
          >
            {version.isActive ? 'Disable' : 'Enable'}
          </Button>
          <Button
            size="sm"
            variant="outline-secondary"
            disabled={lockCall.isPending}
            onClick={() =>
              lockCall.mutate(version.id, {
                onSuccess: () => notifySuccess(messages.lockChanged),
              })
            }
          >
            {version.isLocked ? 'UnLock' : 'Lock'}
          </Button>
          <Button size="sm" variant="outline-danger" onClick={() => void askDelete(version)}>
            Delete
          </Button>
        </div>
      ),
    },
  ];

  return (
    <>
      <div className="mb-3">
        <Link to={paths.userGames} className="btn btn-outline-secondary btn-sm">
          Back
        </Link>
      </div>
      <DataTable
        title={{
          text: header
            ? `Versions of ${header.game?.name ?? `game ${header.gameId}`} for ${header.user?.username ?? `user ${header.userId}`}`
            : 'Versions',
          as: 'h1',
        }}
        // Without a user-game there is no list to load: it is empty.
        status={userGameId === null ? 'success' : versions.status}
        emptyText={emptyTexts.versions}
        pager={{ list, total }}
        columns={columns}
        data={rows}
        getRowKey={(version) => version.id}
        sort={list}
        rowProps={(version) => ({
          'data-version-id': version.id,
          className: isFinished(version) ? 'table-success' : undefined,
        })}
      />
      {dialog}
    </>
  );
}
