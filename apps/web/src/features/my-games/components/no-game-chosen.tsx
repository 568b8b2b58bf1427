import { Link } from 'react-router';
import { paths } from '../../../config/paths';

/** A my-games screen opened without the ids it needs (a link cut short, or typed by hand): where to go instead. */
export function NoGameChosen() {
  return (
    <>
      <p>No game is chosen: open one of your games from My Games.</p>
      <Link to={paths.myGames} className="btn btn-outline-secondary btn-sm">
        My Games
      </Link>
    </>
  );
}
