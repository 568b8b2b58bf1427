import { originalFileUrl, useGameFilesRoot } from '../../api/play';

interface GameImageThumbProps {
  gameId: number;
  /** The image's path inside the game. */
  path: string;
  /** The file's updatedAt, so a replaced image is not shown stale. */
  version?: string;
  alt: string;
}

/** A small preview of a game image, served by the play origin's original view (admins only). */
export function GameImageThumb({ gameId, path, version, alt }: GameImageThumbProps) {
  const root = useGameFilesRoot(gameId);
  if (!root.data) return <span className="game-image-thumb d-inline-block" aria-hidden="true" />;
  return (
    <img
      className="game-image-thumb rounded border bg-body-tertiary"
      src={originalFileUrl(root.data, path, version)}
      alt={alt}
      loading="lazy"
      width={48}
      height={48}
    />
  );
}
