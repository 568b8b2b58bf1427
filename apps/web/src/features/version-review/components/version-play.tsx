import Card from 'react-bootstrap/Card';
import { PlayFrame } from '../../../components/play-frame/play-frame';
import { Loading } from '../../../components/ui/loading';
import { ScreenTabs, useTabParam } from '../../../components/ui/screen-tabs';
import { paths } from '../../../config/paths';
import { useGame } from '../../../api/games';
import { useVersionPath } from '../../../api/play';
import { idsQuery, useIds } from '../../../lib/route-ids';

const views = [
  { key: 'user', label: 'Play User Version' },
  { key: 'skeleton', label: 'Play Skeleton' },
  { key: 'original', label: 'Play Original' },
] as const;
type View = (typeof views)[number]['key'];

/** Admin: play a user's version (SPEC §2): the user's version, the skeleton or the original (the tab in the URL). */
export function VersionPlay() {
  const { versionId, gameId, userGameId } = useIds();
  const game = useGame(gameId);
  const playPaths = useVersionPath(versionId, gameId);
  const [view, setView] = useTabParam<View>(views, 'user');

  const src =
    playPaths.data &&
    { user: playPaths.data.orjFile, skeleton: playPaths.data.emtFile, original: playPaths.data.wtmFile }[
      view
    ];
  const label = views.find((v) => v.key === view)?.label ?? '';

  return (
    <Card>
      <Card.Header>
        <ScreenTabs
          backTo={`${paths.userGameVersions}?${idsQuery({ userGameId })}`}
          tabs={views}
          active={view}
          onSelect={setView}
          label="Version views"
        />
      </Card.Header>
      <Card.Body role="tabpanel" aria-label={label} className="overflow-auto">
        {(game.isLoading || playPaths.isLoading) && <Loading />}
        {game.data && src && (
          <PlayFrame
            src={src}
            title={`${game.data.name}: ${label}`}
            gameWidth={game.data.width}
            gameHeight={game.data.height}
            isolated={playPaths.data?.isolated ?? false}
          />
        )}
        {(game.isError || playPaths.isError || versionId === null || gameId === null) && (
          <p className="mb-0">This version cannot be played.</p>
        )}
      </Card.Body>
    </Card>
  );
}
