import { useState, type KeyboardEvent } from 'react';
import Card from 'react-bootstrap/Card';
import Nav from 'react-bootstrap/Nav';
import { Link } from 'react-router';
import { PlayFrame } from '../../../components/play-frame/play-frame';
import { Loading } from '../../../components/ui/loading';
import { paths } from '../../../config/paths';
import { useIds } from '../../../lib/route-ids';
import { useGamePaths } from '../api/get-play-paths';
import { useMyGame } from '../api/list-my-games';

const views = [
  { key: 'original', label: 'Play Original' },
  { key: 'skeleton', label: 'Play Skeleton' },
] as const;
type View = (typeof views)[number]['key'];

const arrowSteps: Record<string, number> = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

/** Demo play (SPEC §2): Back to My Games, Play Original (the default) and Play Skeleton. */
export function DemoPlay() {
  const { userGameId } = useIds();
  const myGame = useMyGame(userGameId);
  const game = myGame.userGame?.game;
  const playPaths = useGamePaths(game ? game.id : null);
  const [view, setView] = useState<View>('original');
  const label = views.find((item) => item.key === view)?.label ?? '';
  const src = playPaths.data && (view === 'original' ? playPaths.data.wtmFile : playPaths.data.emtFile);

  const moveByKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = arrowSteps[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const index = (views.findIndex((item) => item.key === view) + step + views.length) % views.length;
    const next = views[index];
    if (!next) return;
    setView(next.key);
    event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')[index]?.focus();
  };

  return (
    <Card>
      <Card.Header>
        {/* Back is a link beside the tablist. The tabs use a roving tabindex (react-bootstrap gives the
            inactive ones tabIndex -1), so the arrow keys move between them. */}
        <Nav variant="tabs" className="card-header-tabs">
          <Nav.Item>
            <Nav.Link as={Link} to={paths.myGames}>
              Back
            </Nav.Link>
          </Nav.Item>
          <div role="tablist" aria-label="Game views" className="d-flex" onKeyDown={moveByKey}>
            {views.map((item) => (
              <Nav.Item key={item.key} role="presentation">
                <Nav.Link
                  as="button"
                  type="button"
                  role="tab"
                  aria-selected={view === item.key}
                  active={view === item.key}
                  onClick={() => setView(item.key)}
                >
                  {item.label}
                </Nav.Link>
              </Nav.Item>
            ))}
          </div>
        </Nav>
      </Card.Header>
      <Card.Body role="tabpanel" aria-label={label} className="overflow-auto">
        {(myGame.isLoading || playPaths.isLoading) && <Loading />}
        {myGame.isSuccess && !game && <p className="mb-0">This game is not assigned to you.</p>}
        {game && src && (
          <PlayFrame
            key={view}
            src={src}
            title={`${game.name}: ${label}`}
            gameWidth={game.width}
            gameHeight={game.height}
          />
        )}
        {playPaths.isError && <p className="mb-0">This game cannot be played yet.</p>}
      </Card.Body>
    </Card>
  );
}
