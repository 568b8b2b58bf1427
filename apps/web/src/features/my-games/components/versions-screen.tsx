import {
  GameVersionStatus,
  gameNotReadyMessage,
  isGameReady,
  limits,
  notesWaitingForArtist,
  messages,
  versionChangeRefusal,
  versionCreateRefusal,
  versionRuleMessages,
  type GameVersion,
} from '@reskin/contract';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { useConfirm } from '../../../components/ui/use-confirm';
import { DateTime } from '../../../components/ui/date-time';
import { Loading } from '../../../components/ui/loading';
import { paths } from '../../../config/paths';
import { idsQuery, useIds } from '../../../lib/route-ids';
import { useSession } from '../../../lib/session/session-context';
import { notifySuccess } from '../../../lib/toasts';
import { prefetchVersionPath } from '../../../api/play';
import { useMyVersions, useDeleteVersion } from '../../../api/versions';
import { useMyGame } from '../../../api/user-games';
import { NoGameChosen } from './no-game-chosen';
import { VersionStateBadges } from './version-state-badges';
import { OpenNotesBadge, ReviewStateBadge, VerdictSummary } from '../../../components/review/review-badges';

/** The versions of one of the user's games (SPEC §2): a card each, and an add-new card while fewer than 6. */
export function VersionsScreen() {
  const { userGameId } = useIds();
  const myGame = useMyGame(userGameId);
  const userGame = myGame.userGame;
  const versions = useMyVersions(userGame?.gameId, userGameId);
  const deleteCall = useDeleteVersion();
  const session = useSession();
  const { confirm, dialog } = useConfirm();

  const rows = versions.data ?? [];
  // Add New Version only where the server would take it: not for demo accounts, not at 6 of 6.
  const createRefusal = versionCreateRefusal(session, rows.length);
  const ready = userGame ? isGameReady(userGame.game) : false;
  usePlayAhead(ready ? userGame?.gameId : undefined, versions.data);
  const linkFor = (target: string, version?: GameVersion) =>
    `${target}?${idsQuery({ userGameId, gameId: userGame?.gameId, versionId: version?.id })}`;

  const askDelete = async (version: GameVersion) => {
    if (!(await confirm(messages.confirmDeleteNamed(version.name)))) return;
    deleteCall.mutate(version.id, {
      onSuccess: () => notifySuccess(messages.versionDeleted),
      // The client has toasted the server's reason.
    });
  };

  return (
    <>
      <div className="d-flex align-items-center gap-3 mb-3">
        <Link to={paths.myGames} className="btn btn-outline-secondary btn-sm">
          Back
        </Link>
        <h1 className="fs-3 mb-0">{userGame ? `${userGame.game.name}: versions` : 'Versions'}</h1>
      </div>
      {(myGame.isLoading || versions.isLoading) && <Loading />}
      {userGameId === null && <NoGameChosen />}
      {userGameId !== null && myGame.isSuccess && !userGame && <p>This game is not assigned to you.</p>}
      {userGame && !ready && (
        <p className="text-body-secondary">{gameNotReadyMessage(session.roleTypeId, userGame.game)}</p>
      )}
      {userGame &&
        versions.isSuccess &&
        createRefusal !== null &&
        createRefusal !== versionRuleMessages.limit && <p className="text-body-secondary">{createRefusal}</p>}
      {userGame && versions.isSuccess && (
        <Row xs={1} md={2} lg={3} className="g-4">
          {rows.map((version) => {
            // A locked or disabled version is read-only for its artist: no Edit or Delete, and the reason.
            const readOnlyReason = versionChangeRefusal(session, version, 'rename')?.message;
            return (
              <Col key={version.id}>
                <Card
                  className="h-100 shadow-sm"
                  data-version-id={version.id}
                  aria-label={version.name}
                  role="region"
                >
                  <Card.Body>
                    <Card.Title as="h2" className="fs-5 d-flex flex-wrap gap-2 align-items-center">
                      {version.name}
                      {version.gameVersionStatusId === GameVersionStatus.Finished && (
                        <Badge bg="success">Finished</Badge>
                      )}
                      <VersionStateBadges version={version} />
                      <ReviewStateBadge state={version.reviewState} />
                      <OpenNotesBadge count={notesWaitingForArtist(version)} />
                    </Card.Title>
                    <Card.Text>{version.description}</Card.Text>
                    <VerdictSummary review={version} compact />
                    {version.gameVersionStatusId === GameVersionStatus.Finished && (
                      <Card.Text className="small text-success">
                        Finished on <DateTime value={version.finishedAt} />
                      </Card.Text>
                    )}
                    {readOnlyReason && (
                      <Card.Text className="small text-body-secondary">{readOnlyReason}</Card.Text>
                    )}
                  </Card.Body>
                  <Card.Footer className="d-flex flex-wrap gap-2">
                    <Link className="btn btn-primary btn-sm" to={linkFor(paths.workbench, version)}>
                      Open
                    </Link>
                    {ready && (
                      <Link
                        className="btn btn-outline-primary btn-sm"
                        to={linkFor(paths.myGameVersionPlay, version)}
                      >
                        Play
                      </Link>
                    )}
                    {!readOnlyReason && (
                      <>
                        <Link
                          className="btn btn-outline-secondary btn-sm"
                          to={linkFor(paths.myGameVersionAdd, version)}
                        >
                          Edit
                        </Link>
                        <Button size="sm" variant="outline-danger" onClick={() => void askDelete(version)}>
                          Delete
                        </Button>
                      </>
                    )}
                  </Card.Footer>
                </Card>
              </Col>
            );
          })}
          {createRefusal === null && (
            <Col>
              <Card className="h-100 border-2 border-dashed text-center">
                <Card.Body className="d-flex flex-column justify-content-center align-items-center py-5">
                  <Link
                    to={linkFor(paths.myGameVersionAdd)}
                    className="btn btn-outline-primary stretched-link"
                  >
                    Add New Version
                  </Link>
                  <Card.Text className="small text-body-secondary mt-2">
                    {rows.length} of {limits.versionsPerUserGame} versions used
                  </Card.Text>
                </Card.Body>
              </Card>
            </Col>
          )}
        </Row>
      )}
      {dialog}
    </>
  );
}

/**
 * Gets each Play link's screen ready before the click (decision 0065): the workbench's code and the versions' play
 * URLs (kept a few minutes), so the play screen sets its frame at once instead of after a chunk and a call.
 */
function usePlayAhead(gameId: number | undefined, versions: GameVersion[] | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (gameId === undefined || !versions || versions.length === 0) return;
    import('./workbench').catch(() => {});
    for (const version of versions) void prefetchVersionPath(queryClient, version.id, gameId);
  }, [queryClient, gameId, versions]);
}
