import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { useToReview } from '../../../api/review';
import { titleWithTotal } from '../../../components/lists/list-controls';
import { DateTime } from '../../../components/ui/date-time';
import { Loading } from '../../../components/ui/loading';
import { paths } from '../../../config/paths';
import { idsQuery } from '../../../lib/route-ids';
import { OpenNotesBadge } from '../../../components/review/review-badges';

/** What the list says when no version waits for a verdict. */
export const nothingToReviewText = 'No finished version is waiting for a verdict.';

/**
 * The reviewers' "To review" list: every finished version without a verdict since its last finish,
 * the oldest finish first, each opening the version's review screen (its files, the verdict and the notes).
 */
export function ToReviewScreen() {
  const toReview = useToReview();
  const rows = toReview.data ?? [];
  return (
    <Card>
      <Card.Header as="h1" className="fs-5">
        {titleWithTotal('To Review', toReview.data?.length)}
      </Card.Header>
      <Card.Body>
        {toReview.isPending && <Loading />}
        {toReview.isSuccess && rows.length === 0 && <p className="mb-0">{nothingToReviewText}</p>}
        {rows.length > 0 && (
          <Table responsive hover className="mb-0 align-middle">
            <thead>
              <tr>
                <th>Finished</th>
                <th>User</th>
                <th>Game</th>
                <th>Version</th>
                <th>Open Notes</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((version) => (
                <tr key={version.id} data-version-id={version.id}>
                  <td className="text-nowrap">
                    <DateTime value={version.finishedAt} />
                  </td>
                  <td>{version.username}</td>
                  <td>{version.gameName}</td>
                  <td>{version.name}</td>
                  <td>
                    <OpenNotesBadge count={version.openNotes} />
                  </td>
                  <td>
                    <Link
                      className="btn btn-sm btn-primary"
                      to={`${paths.userGameVersionFiles}?${idsQuery({ versionId: version.id, gameId: version.gameId, userGameId: version.userGamesId })}`}
                      aria-label={`Review ${version.name} of ${version.gameName} by ${version.username}`}
                    >
                      Review
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card.Body>
    </Card>
  );
}
