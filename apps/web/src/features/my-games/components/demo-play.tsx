import { gameNotReadyMessage, isGameReady } from '@reskin/contract';
import Card from 'react-bootstrap/Card';
import { PlayFrame } from '../../../components/play-frame/play-frame';
import { Loading } from '../../../components/ui/loading';
import { ScreenTabs, useTabParam } from '../../../components/ui/screen-tabs';
import { paths } from '../../../config/paths';
import { useIds } from '../../../lib/route-ids';
import { useSession } from '../../../lib/session/session-context';
import { useGamePath } from '../../../api/play';
import { useMyGame } from '../../../api/user-games';
import { NoGameChosen } from './no-game-chosen';

const views = [
  { key: 'original', label: 'Play Original' },
  { key: 'skeleton', label: 'Play Skeleton' },
] as const;
type View = (typeof views)[number]['key'];

/** Demo play (SPEC §2): Back to My Games, Play Original (the default) and Play Skeleton (the tab in the URL). */
export function DemoPlay() {
  const { userGameId } = useIds();
  const myGame = useMyGame(userGameId);
  const game = myGame.userGame?.game;
  const session = useSession();
  // A game not Ready is not asked for its play URLs: the server's 409 would only toast what the page already says.
  const ready = game !== undefined && isGameReady(game);
  const playPaths = useGamePath(game ? game.id : null, ready);
  const [view, setView] = useTabParam<View>(views, 'original');
  const label = views.find((item) => item.key === view)?.label ?? '';
  const src = playPaths.data && (view === 'original' ? playPaths.data.wtmFile : playPaths.data.emtFile);

  return (
    <Card>
      <Card.Header>
        <ScreenTabs backTo={paths.myGames} tabs={views} active={view} onSelect={setView} label="Game views" />
      </Card.Header>
      <Card.Body role="tabpanel" aria-label={label} className="overflow-auto">
        {(myGame.isLoading || playPaths.isLoading) && <Loading />}
        {userGameId === null && <NoGameChosen />}
        {userGameId !== null && myGame.isSuccess && !game && (
          <p className="mb-0">This game is not assigned to you.</p>
        )}
        {game && src && (
          <PlayFrame
            key={view}
            src={src}
            title={`${game.name}: ${label}`}
            gameWidth={game.width}
            gameHeight={game.height}
            isolated={playPaths.data?.isolated ?? false}
          />
        )}
        {game && !ready && <p className="mb-0">{gameNotReadyMessage(session.roleTypeId, game)}</p>}
        {ready && playPaths.isError && <p className="mb-0">This game cannot be played yet.</p>}
      </Card.Body>
    </Card>
  );
}
