import { GameStatus, gameStatusName } from '@reskin/contract';
import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router';
import { PlayFrame } from '../../../components/play-frame/play-frame';
import { Loading } from '../../../components/ui/loading';
import { paths } from '../../../config/paths';
import { useGameIdParam } from '../../../lib/game-id-param';
import { useGame } from '../../../api/games';
import { useGamePath } from '../../../api/play';

function Back() {
  return (
    <Link to={paths.games} className="btn btn-outline-secondary btn-sm">
      Back
    </Link>
  );
}

/** Admin play (SPEC §2 games/game-play): the original game of `?gameId=` in the play frame. */
export function GamePlayScreen() {
  const gameId = useGameIdParam();
  if (gameId === null) {
    return (
      <Alert variant="warning">
        <p>No game is chosen. Play a game from the games list.</p>
        <Back />
      </Alert>
    );
  }
  return <GamePlay key={gameId} gameId={gameId} />;
}

function GamePlay({ gameId }: { gameId: number }) {
  const game = useGame(gameId);
  const ready = game.data?.gameStatusTypeId === GameStatus.Ready;
  const path = useGamePath(gameId, ready);

  let body;
  if (game.isPending || (ready && path.isPending) || (!ready && game.isFetching)) {
    body = <Loading />;
  } else if (game.isError) {
    body = <Alert variant="danger">The game could not be loaded.</Alert>;
  } else if (!ready) {
    body = (
      <Alert variant="warning">
        The game is {gameStatusName(game.data.gameStatusTypeId)}: press Gen. on the games list and wait until
        it is Ready.
      </Alert>
    );
  } else if (path.isError || !path.data) {
    body = <Alert variant="danger">The game could not be opened.</Alert>;
  } else {
    body = (
      <PlayFrame
        src={path.data.wtmFile}
        gameWidth={game.data.width}
        gameHeight={game.data.height}
        title={`${game.data.name} (game)`}
        isolated={path.data.isolated}
      />
    );
  }

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <Back />
        <h1 className="fs-4 mb-0">{game.data?.name ?? 'Play'}</h1>
      </div>
      <div className="overflow-auto">{body}</div>
    </>
  );
}
