import { Link } from 'react-router';
import { useToReview } from '../../../api/review';
import { DataTable, type DataColumn } from '../../../components/lists/data-table';
import { DateTime } from '../../../components/ui/date-time';
import { paths } from '../../../config/paths';
import { idsQuery } from '../../../lib/route-ids';
import { OpenNotesBadge } from '../../../components/review/review-badges';

/** What the list says when no version waits for a verdict. */
export const nothingToReviewText = 'No finished version is waiting for a verdict.';

/**
 * The reviewers' "To review" list: every finished version without a verdict since its last finish,
 * the oldest finish first, each opening the version's review screen (its files, the verdict and the notes).
 */
type ToReviewRow = NonNullable<ReturnType<typeof useToReview>['data']>[number];

const columns: DataColumn<ToReviewRow>[] = [
  {
    id: 'finishedAt',
    header: 'Finished',
    cellProps: { className: 'text-nowrap' },
    cell: (version) => <DateTime value={version.finishedAt} />,
  },
  { id: 'username', header: 'User', cell: (version) => version.username },
  { id: 'gameName', header: 'Game', cell: (version) => version.gameName },
  { id: 'name', header: 'Version', cell: (version) => version.name },
  { id: 'openNotes', header: 'Open Notes', cell: (version) => <OpenNotesBadge count={version.openNotes} /> },
  {
    id: 'actions',
    header: 'Actions',
    cell: (version) => (
      <Link
        className="btn btn-sm btn-primary"
        to={`${paths.userGameVersionFiles}?${idsQuery({ versionId: version.id, gameId: version.gameId, userGameId: version.userGamesId })}`}
        aria-label={`Review ${version.name} of ${version.gameName} by ${version.username}`}
      >
        Review
      </Link>
    ),
  },
];

export function ToReviewScreen() {
  const toReview = useToReview();
  const rows = toReview.data ?? [];
  return (
    <DataTable
      title={{ text: 'To Review', total: toReview.data?.length, as: 'h1' }}
      status={toReview.status}
      emptyText={nothingToReviewText}
      columns={columns}
      data={rows}
      getRowKey={(version) => version.id}
      rowProps={(version) => ({ 'data-version-id': version.id })}
    />
  );
}
