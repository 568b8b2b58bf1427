import {
  can,
  emptyTexts,
  gameNotReadyCardText,
  isGameReady,
  limits,
  notesWaitingForArtist,
  type MyGame,
} from '@reskin/contract';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import { DataTable } from '../../../components/lists/data-table';
import { paths } from '../../../config/paths';
import { idsQuery } from '../../../lib/route-ids';
import { useSession } from '../../../lib/session/session-context';
import { useMyGames } from '../../../api/user-games';
import { placeholderImage } from './placeholder-image';
import { OpenNotesBadge } from '../../../components/review/review-badges';

/** Where a card leads: demo users play on my-games/demo, everyone else opens the versions (SPEC §2). */
function targetOf(userGame: MyGame, roleTypeId: number): string {
  const ids = idsQuery({ userGameId: userGame.id, gameId: userGame.gameId });
  return can(roleTypeId, 'demo.play') ? `${paths.demo}?${ids}` : `${paths.myGameVersions}?${ids}`;
}

/** My Games (SPEC §2): a card per active assignment of the logged-in user, with its description and image. */
export function MyGamesScreen() {
  const { roleTypeId } = useSession();
  const myGames = useMyGames();
  const { width, height } = limits.placeholderImage;

  return (
    <DataTable
      title={{ text: 'My Games', as: 'h1', className: 'fs-3 mb-3', card: false }}
      status={myGames.status}
      emptyText={emptyTexts.myGames}
      columns={[]}
      data={myGames.data ?? []}
      getRowKey={(userGame) => userGame.id}
      renderCard={(userGame) => (
        <Card className="h-100 shadow-sm" data-user-game-id={userGame.id}>
          <Card.Img
            variant="top"
            src={userGame.imageUrl ?? placeholderImage}
            alt={userGame.imageUrl ? `${userGame.game.name} splash` : 'No image'}
            width={width}
            height={height}
            // Cards below the fold load as they scroll in; width and height keep their place.
            loading="lazy"
            decoding="async"
            style={{ objectFit: 'cover', aspectRatio: `${width} / ${height}`, height: 'auto' }}
          />
          <Card.Body>
            <Card.Title as="h2" className="fs-5">
              {/* A game not Ready yet offers no play; an artist may still open its versions. */}
              {isGameReady(userGame.game) || !can(roleTypeId, 'demo.play') ? (
                <Link to={targetOf(userGame, roleTypeId)} className="stretched-link text-decoration-none">
                  {userGame.game.name}
                </Link>
              ) : (
                userGame.game.name
              )}
            </Card.Title>
            {/* Open notes from the reviewer on this game's versions, not the artist's own questions (decision 0052). */}
            {notesWaitingForArtist(userGame) > 0 && (
              <div className="mb-2">
                <OpenNotesBadge count={notesWaitingForArtist(userGame)} />
              </div>
            )}
            {!isGameReady(userGame.game) && (
              <Badge bg="secondary" className="mb-2">
                {gameNotReadyCardText(userGame.game)}
              </Badge>
            )}
            <Card.Text>{userGame.game.description}</Card.Text>
          </Card.Body>
          <Card.Footer className="small text-body-secondary">
            {userGame.userGameTypeId === 2 ? 'Sound Replace' : 'ReSkin'} · {userGame.game.width} x{' '}
            {userGame.game.height}
          </Card.Footer>
        </Card>
      )}
    />
  );
}
